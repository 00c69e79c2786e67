import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ContactSentSchema, type ContactInput, type ContactSent } from '../../../../shared/schemas/contact';
import { api } from '../../../lib/api-client';
import { contactKeys } from './query-keys';

/** POST /api/contact (public): 201 once the message is stored; 400 and 429 carry a message. */
export async function sendContactMessage(input: ContactInput): Promise<ContactSent> {
  return api.post('/api/contact', input, ContactSentSchema);
}

export function useSendContactMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendContactMessage,
    // A faculty member who writes to themselves sees it in the inbox straight away.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactKeys.inbox }),
  });
}
