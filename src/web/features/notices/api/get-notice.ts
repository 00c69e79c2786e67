import { useQuery } from '@tanstack/react-query';
import { NoticeSchema, type Notice, type NoticeName } from '../../../../shared/schemas/notices';
import { api } from '../../../lib/api-client';

/** GET /api/notices/:name: the privacy notice or the accessibility statement (public). */
export async function fetchNotice(name: NoticeName, signal?: AbortSignal): Promise<Notice> {
  return api.get(`/api/notices/${name}`, NoticeSchema, { signal });
}

export function useNotice(name: NoticeName) {
  // Read from files at the server's start: it does not change while the page is open.
  return useQuery({ queryKey: ['notices', name], queryFn: ({ signal }) => fetchNotice(name, signal), staleTime: Infinity });
}
