import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { SubjectReportSchema, type SubjectReportRow } from '../../../../shared/schemas/reports';
import { api } from '../../../lib/api-client';
import type { TermChoice } from '../../../lib/terms';
import { reportKeys } from './query-keys';

/** GET /api/reports/subjects?class=&term=: lectures, held and attended marks per subject. */
export async function fetchSubjectReport(className: string | null, term: TermChoice, signal?: AbortSignal): Promise<SubjectReportRow[]> {
  const query = new URLSearchParams();
  if (className) query.set('class', className);
  if (term !== undefined) query.set('term', term);
  const suffix = query.size > 0 ? `?${query.toString()}` : '';
  return api.get(`/api/reports/subjects${suffix}`, SubjectReportSchema, { signal });
}

export function useSubjectReport(className: string | null, term: TermChoice, enabled: boolean) {
  return useQuery({
    queryKey: reportKeys.subjects(className, term ?? null),
    queryFn: ({ signal }) => fetchSubjectReport(className, term, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}
