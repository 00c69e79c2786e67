import { useQuery } from '@tanstack/react-query';
import { AttendanceHistorySchema, type AttendanceChange } from '../../../../shared/schemas/attendance';
import { api } from '../../../lib/api-client';
import { attendanceKeys, periodQuery, segment } from './query-keys';

/** Every change to one class's register on one date and period, newest first. */
export async function fetchRegisterHistory(
  className: string,
  date: string,
  period: number,
  signal?: AbortSignal,
): Promise<AttendanceChange[]> {
  return api.get(`/api/attendance/${segment(className)}/${segment(date)}/history${periodQuery(period)}`, AttendanceHistorySchema, {
    signal,
  });
}

export function useRegisterHistory(className: string, date: string, period = 0) {
  return useQuery({
    queryKey: attendanceKeys.history(className, date, period),
    queryFn: ({ signal }) => fetchRegisterHistory(className, date, period, signal),
  });
}
