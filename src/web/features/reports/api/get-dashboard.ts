import { useQuery } from '@tanstack/react-query';
import { DashboardSchema, type Dashboard } from '../../../../shared/schemas/reports';
import { api } from '../../../lib/api-client';
import { reportKeys } from './query-keys';

/** GET /api/reports/dashboard: overall, per-class and per-date totals of every class. */
export async function fetchDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return api.get('/api/reports/dashboard', DashboardSchema, { signal });
}

export function useDashboard() {
  // No polling: while the page is open, live events invalidate it. It is fetched afresh each time
  // the page opens, as nothing listens for saves while it is closed.
  return useQuery({ queryKey: reportKeys.dashboard, queryFn: ({ signal }) => fetchDashboard(signal) });
}
