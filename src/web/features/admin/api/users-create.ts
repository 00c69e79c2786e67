import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CreatedUserSchema, type CreatedUser, type CreateUserInput } from '../../../../shared/schemas/admin-users';
import { api } from '../../../lib/api-client';
import { userKeys } from './users';

/** POST /api/admin/users: the account and its one-time set-password link; 409 for a taken e-mail. */
export function createUser(input: CreateUserInput): Promise<CreatedUser> {
  return api.post('/api/admin/users', input, CreatedUserSchema);
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
