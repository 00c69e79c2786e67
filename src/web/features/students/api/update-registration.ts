import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ProfileSchema, type Profile, type ProfileUpdate } from '../../../../shared/schemas/profiles';
import { apiRequest } from '../../../lib/api-client';
import { studentRecordsKey } from '../../../components/student-record';
import { profilesKey } from './keys';

/** PATCH /api/registrations/:id (faculty): changes the fields sent; null clears a link. */
export async function updateRegistration(id: string, changes: ProfileUpdate): Promise<Profile> {
  return ProfileSchema.parse(
    await apiRequest<unknown>(`/api/registrations/${encodeURIComponent(id)}`, { method: 'PATCH', body: changes }),
  );
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
