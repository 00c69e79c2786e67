import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { NotificationSettingsSchema, type EmailChoice } from '../../../../shared/schemas/alerts';
import { api } from '../../../lib/api-client';

const settingsKey = ['account', 'notification-settings'] as const;

/** How the signed-in account gets alerts by e-mail. */
export function useNotificationSettings() {
  return useQuery({ queryKey: settingsKey, queryFn: ({ signal }) => api.get('/api/me/notification-settings', NotificationSettingsSchema, { signal }) });
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: EmailChoice) => api.put('/api/me/notification-settings', { email }, NotificationSettingsSchema),
    onSuccess: (saved) => queryClient.setQueryData(settingsKey, saved),
  });
}
