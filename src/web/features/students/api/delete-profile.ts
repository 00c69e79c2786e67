import { useMutation, useQueryClient } from '@tanstack/react-query';
import { studentRecordsKey } from '../../../components/student-record';
import { api } from '../../../lib/api-client';
import { profilePath, profilesKey } from './query-keys';

/** DELETE /api/registrations/:id (staff any, rejecting a pending one; a student their own): 204. */
export async function deleteProfile(id: string): Promise<void> {
  await api.delete(profilePath(id));
}

export function useDeleteProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProfile,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: profilesKey }),
        queryClient.invalidateQueries({ queryKey: studentRecordsKey }),
      ]);
    },
  });
}
