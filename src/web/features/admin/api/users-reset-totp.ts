import { useMutation } from '@tanstack/react-query';
import { api, NoContentSchema } from '../../../lib/api-client';

/** POST /api/admin/users/:id/reset-totp: two-step sign-in off for someone who lost their phone and codes (audited). */
export function resetUserTotp(id: string): Promise<void> {
  return api.post(`/api/admin/users/${encodeURIComponent(id)}/reset-totp`, undefined, NoContentSchema);
}

export function useResetUserTotp() {
  return useMutation({ mutationFn: resetUserTotp });
}
