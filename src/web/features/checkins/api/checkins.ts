import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CHECKIN_EVENT, CheckinListSchema, CheckinSchema, type Checkin, type CheckinList } from '../../../../shared/schemas/checkins';
import { api } from '../../../lib/api-client';
import { useLiveEvents, type LiveState } from '../../../lib/live-events';

export const checkinKeys = {
  checkin: (id: string) => ['checkins', id] as const,
};

const LIST_EVENTS = [CHECKIN_EVENT];

/**
 * How often a closed check-in's list is asked for while its stream is down: an open one is asked
 * for at each code's end anyway, and its stream brings every change at once (decision 48).
 */
export const LIST_FALLBACK_POLL_MS = 30_000;

/**
 * When the projector asks again: at the code's slot end (the next code, with the list), and for a
 * closed check-in only while its stream is down, every 30 seconds.
 */
export function nextPollMs(checkin: Checkin | undefined, now: number, live: LiveState): number | false {
  if (checkin?.state === 'open' && checkin.code) {
    const untilNextCode = Date.parse(checkin.code.slotEndsAt) - now;
    // A little after the slot's end, so that the server is surely in the next slot.
    return Math.max(250, untilNextCode + 100);
  }
  // Closed, or not shown yet: the stream brings what changes; without it, a slow poll.
  return checkin && live === 'live' ? false : LIST_FALLBACK_POLL_MS;
}

/**
 * A check-in as the projector shows it, with a list its stream brought: the code stays the one
 * shown, until the check-in is closed. Nothing before the check-in itself has come.
 */
export function withList(checkin: Checkin | undefined, list: CheckinList): Checkin | undefined {
  if (!checkin || checkin.id !== list.id) return checkin;
  return { ...list, code: list.state === 'open' ? checkin.code : null };
}

/** A check-in's address on the API. */
const checkinUrl = (id: string) => `/api/checkins/${encodeURIComponent(id)}`;

/**
 * A check-in as the projector shows it: the current code, the students checked in, the refused
 * scans. The code is asked for at each slot's end; the list comes through the check-in's stream
 * as soon as it changes, whichever server process the change reached.
 */
export function useCheckin(id: string) {
  const queryClient = useQueryClient();
  const live = useLiveEvents(
    LIST_EVENTS,
    {
      onEvent: (_name, data) => {
        let list: CheckinList;
        try {
          const parsed = CheckinListSchema.safeParse(JSON.parse(data));
          if (!parsed.success) return;
          list = parsed.data;
        } catch {
          return;
        }
        queryClient.setQueryData<Checkin>(checkinKeys.checkin(id), (checkin) => withList(checkin, list));
      },
    },
    `${checkinUrl(id)}/events`,
  );
  return useQuery({
    queryKey: checkinKeys.checkin(id),
    queryFn: ({ signal }) => api.get(checkinUrl(id), CheckinSchema, { signal }),
    refetchInterval: (query) => nextPollMs(query.state.data, Date.now(), live),
    // A projector is looked at, not clicked: it keeps asking while another window has the focus.
    refetchIntervalInBackground: true,
    // The code is of this moment.
    staleTime: 0,
  });
}

export function useCloseCheckin(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(`${checkinUrl(id)}/close`, {}, CheckinSchema),
    onSuccess: (checkin) => queryClient.setQueryData(checkinKeys.checkin(id), checkin),
  });
}

export function useRemoveEntry(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { pin: string; reason: string }) => api.post(`${checkinUrl(id)}/remove`, body, CheckinSchema),
    onSuccess: (checkin) => queryClient.setQueryData(checkinKeys.checkin(id), checkin),
  });
}
