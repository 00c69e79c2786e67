import { useQuery } from '@tanstack/react-query';
import { DashboardSchema, type Dashboard } from '../../../../shared/schemas/reports';
import { apiRequest } from '../../../lib/api-client';
import { reportKeys } from './query-keys';

/** GET /api/reports/dashboard: overall, per-class and per-date totals of every class. */
export async function fetchDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return DashboardSchema.parse(await apiRequest<unknown>('/api/reports/dashboard', { signal }));
}

export function useDashboard() {
  // Fresh until a register is saved: the live events invalidate it, so no polling is needed.
  return useQuery({ queryKey: reportKeys.dashboard, queryFn: ({ signal }) => fetchDashboard(signal), staleTime: Infinity });
}
