import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  TotpEnableResponseSchema,
  TotpSetupResponseSchema,
  TotpStatusSchema,
} from '../../../../shared/schemas/auth';
import { api, NoContentSchema } from '../../../lib/api-client';
import { meQueryKey } from '../../../lib/session';

const totpKey = ['account', 'totp'] as const;

export function useTotpStatus() {
  return useQuery({ queryKey: totpKey, queryFn: ({ signal }) => api.get('/api/auth/totp', TotpStatusSchema, { signal }) });
}

export function useTotpSetup() {
  return useMutation({
    mutationFn: (body: { password?: string }) => api.post('/api/auth/totp/setup', body, TotpSetupResponseSchema),
  });
}

/** Turning TOTP on also lifts PORTAL_REQUIRE_TOTP's hold on the session: `me` is read again. */
export function useTotpEnable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.post('/api/auth/totp/enable', { code }, TotpEnableResponseSchema),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: totpKey });
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}

export function useTotpDisable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => api.post('/api/auth/totp/disable', { password }, NoContentSchema),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: totpKey }),
  });
}
