import { useQuery } from '@tanstack/react-query';
import { DayPeriodsSchema, type DayPeriod } from '../../../../shared/schemas/attendance';
import { getKept } from './kept-get';
import { attendanceKeys, segment } from './query-keys';

/** A class's periods on a date: the timetable's lectures for that weekday and every register taken that day; offline, the device's copy. */
export async function fetchDayPeriods(className: string, date: string, signal?: AbortSignal): Promise<DayPeriod[]> {
  return (await getKept(`/api/attendance/${segment(className)}/${segment(date)}/periods`, DayPeriodsSchema, signal)).data;
}

export function useDayPeriods(className: string, date: string | null) {
  return useQuery({
    queryKey: attendanceKeys.periods(className, date ?? ''),
    queryFn: ({ signal }) => fetchDayPeriods(className, date!, signal),
    enabled: date !== null,
  });
}
