import { useQuery } from '@tanstack/react-query';
import { AttendanceRegisterSchema, type AttendanceRegister } from '../../../../shared/schemas/attendance';
import { api } from '../../../lib/api-client';
import { attendanceKeys, periodQuery, segment } from './query-keys';

/** The register of a class on a date and period (0: the whole day); before it is taken, the roster with everyone absent. */
export async function fetchRegister(className: string, date: string, period: number, signal?: AbortSignal): Promise<AttendanceRegister> {
  return api.get(`/api/attendance/${segment(className)}/${segment(date)}${periodQuery(period)}`, AttendanceRegisterSchema, { signal });
}

/** Waits while there is no date or period: the register of "no date" does not exist. */
export function useRegister(className: string, date: string | null, period: number | null = 0) {
  return useQuery({
    queryKey: attendanceKeys.register(className, date ?? '', period ?? 0),
    queryFn: ({ signal }) => fetchRegister(className, date!, period!, signal),
    enabled: date !== null && period !== null,
  });
}
