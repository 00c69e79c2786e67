import { useQuery } from '@tanstack/react-query';
import { AttendanceHistorySchema, type AttendanceChange } from '../../../../shared/schemas/attendance';
import { api } from '../../../lib/api-client';
import { attendanceKeys, segment } from './query-keys';

/** Every change to one class's register on one date, newest first. */
export async function fetchRegisterHistory(className: string, date: string, signal?: AbortSignal): Promise<AttendanceChange[]> {
  return api.get(`/api/attendance/${segment(className)}/${segment(date)}/history`, AttendanceHistorySchema, { signal });
}

export function useRegisterHistory(className: string, date: string) {
  return useQuery({
    queryKey: attendanceKeys.history(className, date),
    queryFn: ({ signal }) => fetchRegisterHistory(className, date, signal),
  });
}
