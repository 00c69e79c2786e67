import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ContactMessageSchema, type ContactMessage } from '../../../../shared/schemas/contact';
import { api } from '../../../lib/api-client';
import { contactKeys } from './query-keys';

export async function setMessageRead(id: number, read: boolean): Promise<ContactMessage> {
  return api.patch(`/api/contact/${id}`, { read }, ContactMessageSchema);
}

export function useSetMessageRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, read }: { id: number; read: boolean }) => setMessageRead(id, read),
    onSuccess: (updated) => {
      queryClient.setQueryData<ContactMessage[]>(contactKeys.inbox, (list) =>
        list?.map((message) => (message.id === updated.id ? updated : message)),
      );
    },
  });
}
