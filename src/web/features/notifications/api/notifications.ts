import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { NOTIFICATION_EVENT, NotificationListSchema, type MarkRead } from '../../../../shared/schemas/alerts';
import { z } from '../../../../shared/schemas/zod';
import { api } from '../../../lib/api-client';
import { useLiveEvents } from '../../../lib/live-events';

export const notificationsKey = ['notifications'] as const;

/** The signed-in account's newest notices and how many are unread: the header's bell. */
export function useNotifications(enabled: boolean) {
  return useQuery({
    queryKey: notificationsKey,
    queryFn: ({ signal }) => api.get('/api/notifications', NotificationListSchema, { signal }),
    enabled,
    // The stream says when a notice arrives; without it (no EventSource), a page change asks again.
    staleTime: 60_000,
  });
}

/** Marks some notices (`{ ids }`) or all of them (`{ all: true }`) as read. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkRead) => api.post('/api/notifications/read', body, z.object({ unread: z.number().int() })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });
}

const NAMES = [NOTIFICATION_EVENT];

/**
 * Asks for the notices again when the live stream says one arrived, and after a break in the
 * stream (one may have arrived meanwhile). Shares the page's one stream (lib/live-events.ts).
 */
export function useNotificationEvents(): void {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: notificationsKey });
  useLiveEvents(NAMES, { onEvent: refresh, onReconnected: refresh });
}
