import { useQuery } from '@tanstack/react-query';
import { ContactMessageListSchema, type ContactMessage } from '../../../../shared/schemas/contact';
import { api } from '../../../lib/api-client';
import { contactKeys } from './query-keys';

/** The contact messages, newest first (faculty). */
export async function fetchInbox(signal?: AbortSignal): Promise<ContactMessage[]> {
  return api.get('/api/contact', ContactMessageListSchema, { signal });
}

/** Re-read now and then: new messages arrive and forwarding moves on while the page is open. */
const INBOX_REFRESH_MS = 30_000;

export function useInbox() {
  return useQuery({
    queryKey: contactKeys.inbox,
    queryFn: ({ signal }) => fetchInbox(signal),
    refetchInterval: INBOX_REFRESH_MS,
  });
}
