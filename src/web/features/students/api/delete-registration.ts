import { useMutation, useQueryClient } from '@tanstack/react-query';
import { studentRecordsKey } from '../../../components/student-record';
import { api } from '../../../lib/api-client';
import { profilesKey } from './keys';

/** DELETE /api/registrations/:id (faculty): 204. */
export async function deleteRegistration(id: string): Promise<void> {
  await api.delete(`/api/registrations/${encodeURIComponent(id)}`);
}

export function useDeleteRegistration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRegistration,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: profilesKey }),
        queryClient.invalidateQueries({ queryKey: studentRecordsKey }),
      ]);
    },
  });
}
