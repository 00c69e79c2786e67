import { useMutation } from '@tanstack/react-query';
import { SetPasswordLinkSchema, type SetPasswordLink } from '../../../../shared/schemas/admin-users';
import { api } from '../../../lib/api-client';

/** POST /api/admin/users/:id/reset-password: a new one-time link, cancelling the previous one. */
export function resetUserPassword(id: string): Promise<SetPasswordLink> {
  return api.post(`/api/admin/users/${encodeURIComponent(id)}/reset-password`, undefined, SetPasswordLinkSchema);
}

export function useResetUserPassword() {
  return useMutation({ mutationFn: resetUserPassword });
}
