import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { studentRecordsKey } from '../../../components/student-record';
import { profilesKey } from './keys';

/** DELETE /api/registrations/:id (faculty): 204. */
export async function deleteRegistration(id: string): Promise<void> {
  await apiRequest<void>(`/api/registrations/${encodeURIComponent(id)}`, { method: 'DELETE' });
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
