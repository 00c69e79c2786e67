import { useQuery } from '@tanstack/react-query';
import { ProfileListSchema, type Profile } from '../../../../shared/schemas/profiles';
import { api } from '../../../lib/api-client';
import { profileListKey, type ProfileListStatus } from './query-keys';

/**
 * GET /api/registrations?status=: newest first. Staff get every approved profile, or the pending
 * ones; a student only their own approved profile (and never the pending ones).
 */
export async function fetchProfiles(status: ProfileListStatus, signal?: AbortSignal): Promise<Profile[]> {
  return api.get(`/api/registrations?status=${status}`, ProfileListSchema, { signal });
}

export function useProfiles(status: ProfileListStatus = 'approved', { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: profileListKey(status), queryFn: ({ signal }) => fetchProfiles(status, signal), enabled });
}
