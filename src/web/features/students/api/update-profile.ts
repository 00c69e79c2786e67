import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ProfileSchema, type Profile, type ProfileUpdate } from '../../../../shared/schemas/profiles';
import { studentRecordsKey } from '../../../components/student-record';
import { api } from '../../../lib/api-client';
import { profilePath, profilesKey } from './query-keys';

/** PATCH /api/registrations/:id (staff any; a student their own, not its PIN): changes the fields sent; null clears a link. */
export async function updateProfile(id: string, changes: ProfileUpdate): Promise<Profile> {
  return api.patch(profilePath(id), changes, ProfileSchema);
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: ProfileUpdate }) => updateProfile(id, changes),
    onSuccess: async () => {
      // A student record shows the profile too.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: profilesKey }),
        queryClient.invalidateQueries({ queryKey: studentRecordsKey }),
      ]);
    },
  });
}
