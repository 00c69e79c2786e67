import { useQuery } from '@tanstack/react-query';
import { PreviousRegisterSchema, type PreviousRegister } from '../../../../shared/schemas/attendance';
import { api } from '../../../lib/api-client';
import { attendanceKeys, periodQuery, segment } from './query-keys';

/** The marks of the class's register taken last before this date and period, or null. */
export async function fetchPreviousRegister(className: string, date: string, period: number, signal?: AbortSignal): Promise<PreviousRegister> {
  return api.get(`/api/attendance/${segment(className)}/${segment(date)}/previous${periodQuery(period)}`, PreviousRegisterSchema, { signal });
}

/** Asked only when a new register starts as a copy of the last one (`enabled`). */
export function usePreviousRegister(className: string, date: string | null, period: number | null, enabled: boolean) {
  return useQuery({
    queryKey: attendanceKeys.previous(className, date ?? '', period ?? 0),
    queryFn: ({ signal }) => fetchPreviousRegister(className, date!, period!, signal),
    enabled: enabled && date !== null && period !== null,
  });
}
