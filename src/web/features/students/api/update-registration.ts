import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ProfileSchema, type Profile, type ProfileUpdate } from '../../../../shared/schemas/profiles';
import { studentRecordsKey } from '../../../components/student-record';
import { api } from '../../../lib/api-client';
import { profilesKey } from './keys';

/** PATCH /api/registrations/:id (faculty): changes the fields sent; null clears a link. */
export async function updateRegistration(id: string, changes: ProfileUpdate): Promise<Profile> {
  return api.patch(`/api/registrations/${encodeURIComponent(id)}`, changes, ProfileSchema);
}

export function useUpdateRegistration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: ProfileUpdate }) => updateRegistration(id, changes),
    onSuccess: async () => {
      // A student record shows the profile too.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: profilesKey }),
        queryClient.invalidateQueries({ queryKey: studentRecordsKey }),
      ]);
    },
  });
}
