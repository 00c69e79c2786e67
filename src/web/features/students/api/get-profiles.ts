import { useQuery } from '@tanstack/react-query';
import { ProfileListSchema, type Profile } from '../../../../shared/schemas/profiles';
import { api } from '../../../lib/api-client';
import { profilesKey } from './query-keys';

/** GET /api/registrations: newest first; faculty get all, a student only their own. */
export async function fetchProfiles(signal?: AbortSignal): Promise<Profile[]> {
  return api.get('/api/registrations', ProfileListSchema, { signal });
}

export function useProfiles() {
  return useQuery({ queryKey: profilesKey, queryFn: ({ signal }) => fetchProfiles(signal) });
}
