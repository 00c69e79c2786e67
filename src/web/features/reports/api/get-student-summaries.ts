import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { StudentSummaryListSchema, type StudentSummary } from '../../../../shared/schemas/reports';
import { api } from '../../../lib/api-client';
import { reportKeys } from './query-keys';

/** GET /api/reports/students: each student's days and percentage, lowest first. */
export async function fetchStudentSummaries(
  className: string | null,
  below: number | null,
  signal?: AbortSignal,
): Promise<StudentSummary[]> {
  const query = new URLSearchParams();
  if (className) query.set('class', className);
  if (below !== null) query.set('below', String(below));
  const suffix = query.size > 0 ? `?${query.toString()}` : '';
  return api.get(`/api/reports/students${suffix}`, StudentSummaryListSchema, { signal });
}

export function useStudentSummaries(className: string | null, below: number | null) {
  return useQuery({
    queryKey: reportKeys.students(className, below),
    queryFn: ({ signal }) => fetchStudentSummaries(className, below, signal),
    // Switching class keeps the previous list on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });
}
