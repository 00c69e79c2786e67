import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DashboardSchema, type Dashboard } from '../../../../shared/schemas/reports';
import { api } from '../../../lib/api-client';
import { withTerm, type TermChoice } from '../../../lib/terms';
import { DASHBOARD_PATH } from './paths';
import { reportKeys } from './query-keys';

/**
 * GET /api/reports/dashboard?term=: overall and per-class totals of the term, and the per-date
 * totals of the last 7 and 30 days, of every class.
 */
export async function fetchDashboard(term: TermChoice, signal?: AbortSignal): Promise<Dashboard> {
  return api.get(withTerm(DASHBOARD_PATH, term), DashboardSchema, { signal });
}

export function useDashboard(term: TermChoice) {
  // No polling: while the page is open, live events invalidate it. It is fetched afresh each time
  // the page opens, as nothing listens for saves while it is closed.
  return useQuery({
    queryKey: reportKeys.dashboard(term ?? null),
    queryFn: ({ signal }) => fetchDashboard(term, signal),
    // Another term keeps the figures on screen until its own arrive: nothing jumps.
    placeholderData: keepPreviousData,
  });
}
