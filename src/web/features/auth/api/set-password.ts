import { useMutation } from '@tanstack/react-query';
import type { SetPasswordRequest } from '../../../../shared/schemas/auth';
import { api, NoContentSchema } from '../../../lib/api-client';

/** POST /api/auth/set-password: 204, or 400 with the server's words (a used link, a weak password). */
export function setPasswordWithLink(body: SetPasswordRequest): Promise<void> {
  return api.post('/api/auth/set-password', body, NoContentSchema);
}

export function useSetPasswordWithLink() {
  return useMutation({ mutationFn: setPasswordWithLink });
}
