import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AdminUserSchema, type AdminUser, type UpdateUserInput } from '../../../../shared/schemas/admin-users';
import { api } from '../../../lib/api-client';
import { userKeys } from './users';

export interface UpdateUserVariables {
  id: string;
  changes: UpdateUserInput;
}

/** PATCH /api/admin/users/:id: name, role or disabled; 409 for the last enabled admin. */
export function updateUser({ id, changes }: UpdateUserVariables): Promise<AdminUser> {
  return api.patch(`/api/admin/users/${encodeURIComponent(id)}`, changes, AdminUserSchema);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
