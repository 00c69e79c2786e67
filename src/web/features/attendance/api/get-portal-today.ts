import { useQuery } from '@tanstack/react-query';
import { PortalTodaySchema, type PortalToday } from '../../../../shared/schemas/attendance';
import { getKept } from './kept-get';
import { PORTAL_TODAY_PATH } from './paths';
import { attendanceKeys } from './query-keys';

/**
 * Today in the portal's time zone. The browser's own clock and zone may differ from the
 * portal's, and the server refuses registers for dates after its today.
 */
export async function fetchPortalToday(signal?: AbortSignal): Promise<PortalToday> {
  return (await getKept(PORTAL_TODAY_PATH, PortalTodaySchema, signal)).data;
}

export function usePortalToday() {
  // It changes once a day: kept a few minutes, so that a register opened after midnight asks again.
  return useQuery({
    queryKey: attendanceKeys.today,
    queryFn: ({ signal }) => fetchPortalToday(signal),
    staleTime: 5 * 60_000,
  });
}
