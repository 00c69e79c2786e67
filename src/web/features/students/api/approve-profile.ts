import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ProfileSchema, type Profile } from '../../../../shared/schemas/profiles';
import { studentRecordsKey } from '../../../components/student-record';
import { api } from '../../../lib/api-client';
import { profilePath, profilesKey } from './query-keys';

/** POST /api/registrations/:id/approve (staff): the profile, now approved; DELETE rejects instead. */
export async function approveProfile(id: string): Promise<Profile> {
  return api.post(`${profilePath(id)}/approve`, undefined, ProfileSchema);
}

export function useApproveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveProfile,
    onSuccess: async () => {
      // It leaves the pending list, joins the approved one and shows on the student's record.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: profilesKey }),
        queryClient.invalidateQueries({ queryKey: studentRecordsKey }),
      ]);
    },
  });
}
