import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckinSchema, type Checkin } from '../../../../shared/schemas/checkins';
import { api } from '../../../lib/api-client';

export const checkinKeys = {
  checkin: (id: string) => ['checkins', id] as const,
};

/** How often the projector asks for the list of students checked in. */
export const LIST_POLL_MS = 3_000;

/**
 * When the projector asks again: at the code's slot end (the next code), or sooner for the list;
 * never once the check-in is closed.
 */
export function nextPollMs(checkin: Checkin | undefined, now: number): number | false {
  if (!checkin) return LIST_POLL_MS;
  if (checkin.state === 'closed' || !checkin.code) return false;
  const untilNextCode = Date.parse(checkin.code.slotEndsAt) - now;
  // A little after the slot's end, so that the server is surely in the next slot.
  return Math.max(250, Math.min(LIST_POLL_MS, untilNextCode + 100));
}

/** A check-in as the projector shows it: the current code, the students checked in, the refused scans. */
export function useCheckin(id: string) {
  return useQuery({
    queryKey: checkinKeys.checkin(id),
    queryFn: ({ signal }) => api.get(`/api/checkins/${encodeURIComponent(id)}`, CheckinSchema, { signal }),
    refetchInterval: (query) => nextPollMs(query.state.data, Date.now()),
    // A projector is looked at, not clicked: it keeps asking while another window has the focus.
    refetchIntervalInBackground: true,
    // The code is of this moment.
    staleTime: 0,
  });
}

export function useCloseCheckin(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(`/api/checkins/${encodeURIComponent(id)}/close`, {}, CheckinSchema),
    onSuccess: (checkin) => queryClient.setQueryData(checkinKeys.checkin(id), checkin),
  });
}

export function useRemoveEntry(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { pin: string; reason: string }) => api.post(`/api/checkins/${encodeURIComponent(id)}/remove`, body, CheckinSchema),
    onSuccess: (checkin) => queryClient.setQueryData(checkinKeys.checkin(id), checkin),
  });
}
