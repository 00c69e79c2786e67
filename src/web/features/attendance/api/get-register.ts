import { useQuery } from '@tanstack/react-query';
import { AttendanceRegisterSchema, type AttendanceRegister } from '../../../../shared/schemas/attendance';
import { api } from '../../../lib/api-client';
import { attendanceKeys, segment } from './query-keys';

/** The register of a class on a date; before it is taken, the roster with everyone absent. */
export async function fetchRegister(className: string, date: string, signal?: AbortSignal): Promise<AttendanceRegister> {
  return api.get(`/api/attendance/${segment(className)}/${segment(date)}`, AttendanceRegisterSchema, { signal });
}

/** Waits while there is no date: the register of "no date" does not exist. */
export function useRegister(className: string, date: string | null) {
  return useQuery({
    queryKey: attendanceKeys.register(className, date ?? ''),
    queryFn: ({ signal }) => fetchRegister(className, date!, signal),
    enabled: date !== null,
  });
}
