import { useQuery } from '@tanstack/react-query';
import { AttendanceRegisterSchema, REGISTER_NOT_TAKEN_TAG, type AttendanceRegister } from '../../../../shared/schemas/attendance';
import { getKept, type KeptTaggedAnswer } from './kept-get';
import { attendanceKeys, periodQuery, segment } from './query-keys';

export function registerPath(className: string, date: string, period: number): string {
  return `/api/attendance/${segment(className)}/${segment(date)}${periodQuery(period)}`;
}

/**
 * The register of a class on a date and period (0: the whole day); before it is taken, the roster
 * with everyone absent. With its revision (the ETag, decision 46), which a save sends back as
 * If-Match; offline, the device's copy from the last week (kept-get.ts).
 */
export async function fetchRegister(className: string, date: string, period: number, signal?: AbortSignal): Promise<KeptTaggedAnswer<AttendanceRegister>> {
  return getKept(registerPath(className, date, period), AttendanceRegisterSchema, signal);
}

/** Waits while there is no date or period: the register of "no date" does not exist. */
export function useRegister(className: string, date: string | null, period: number | null = 0) {
  const query = useQuery({
    queryKey: attendanceKeys.register(className, date ?? '', period ?? 0),
    queryFn: ({ signal }) => fetchRegister(className, date!, period!, signal),
    enabled: date !== null && period !== null,
  });
  return {
    ...query,
    data: query.data?.data,
    /** The revision the marks shown start from; a register answer always carries one. */
    revision: query.data?.etag ?? REGISTER_NOT_TAKEN_TAG,
    /** When the register shown was fetched, if it is the device's copy (offline). */
    keptAt: query.data?.keptAt,
  };
}
