import { useQuery } from '@tanstack/react-query';
import { UsersPageSchema } from '../../../../shared/schemas/admin-users';
import { api } from '../../../lib/api-client';

/** How many faculty accounts exist: the checklist's last step. One row is enough to know. */
export function useFacultyAccountCount() {
  return useQuery({
    queryKey: ['admin', 'users', 'faculty-count'] as const,
    queryFn: async ({ signal }) => (await api.get('/api/admin/users?role=faculty&limit=1', UsersPageSchema, { signal })).total,
  });
}
