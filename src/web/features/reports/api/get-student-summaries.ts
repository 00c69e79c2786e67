import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { StudentSummaryListSchema, type StudentSummary } from '../../../../shared/schemas/reports';
import { api } from '../../../lib/api-client';
import type { TermChoice } from '../../../lib/terms';
import { reportKeys } from './query-keys';

/** GET /api/reports/students?term=&subject=: each student's days and percentage over the term, lowest first. */
export async function fetchStudentSummaries(
  className: string | null,
  below: number | null,
  term: TermChoice,
  signal?: AbortSignal,
  subject: string | null = null,
): Promise<StudentSummary[]> {
  const query = new URLSearchParams();
  if (className) query.set('class', className);
  if (subject) query.set('subject', subject);
  if (below !== null) query.set('below', String(below));
  if (term !== undefined) query.set('term', term);
  const suffix = query.size > 0 ? `?${query.toString()}` : '';
  return api.get(`/api/reports/students${suffix}`, StudentSummaryListSchema, { signal });
}

/** `subject`: one subject's lectures only; null for every mark. */
export function useStudentSummaries(className: string | null, below: number | null, term: TermChoice, subject: string | null = null) {
  return useQuery({
    queryKey: reportKeys.students(className, below, term ?? null, subject),
    queryFn: ({ signal }) => fetchStudentSummaries(className, below, term, signal, subject),
    // Switching class or term keeps the previous list on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });
}
