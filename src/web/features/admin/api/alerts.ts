import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertSettingsSchema, type UpdateAlertRules } from '../../../../shared/schemas/alerts';
import { api } from '../../../lib/api-client';

const alertSettingsKey = ['admin', 'alerts'] as const;

/** GET /api/admin/alerts: each rule on or off, and the threshold (PORTAL_THRESHOLD). */
export function useAlertSettings() {
  return useQuery({ queryKey: alertSettingsKey, queryFn: ({ signal }) => api.get('/api/admin/alerts', AlertSettingsSchema, { signal }) });
}

/** PUT /api/admin/alerts: switches the rules given; answers with them all. */
export function useUpdateAlertRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAlertRules) => api.put('/api/admin/alerts', body, AlertSettingsSchema),
    onSuccess: (saved) => queryClient.setQueryData(alertSettingsKey, saved),
  });
}
