import { useQuery } from '@tanstack/react-query';
import { CorrectionListSchema, type Correction } from '../../shared/schemas/corrections';
import { api } from './api-client';

/**
 * Every cached list of correction requests (decision 16) sits under this key: a student's own
 * on their record, faculty's on /corrections. A request made or decided refreshes them all.
 */
export const correctionsKey = ['corrections'] as const;

/** GET /api/corrections?status=: the requests the user may see (a student's own; all for staff), waiting or decided. */
export function fetchCorrections(status: 'open' | 'closed', signal?: AbortSignal): Promise<Correction[]> {
  return api.get(`/api/corrections?status=${status}`, CorrectionListSchema, { signal });
}

export function useCorrections(status: 'open' | 'closed') {
  return useQuery({ queryKey: [...correctionsKey, status], queryFn: ({ signal }) => fetchCorrections(status, signal) });
}
