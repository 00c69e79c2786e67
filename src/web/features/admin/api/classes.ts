import { useQuery, type QueryClient } from '@tanstack/react-query';
import { AdminClassListSchema, type AdminClass } from '../../../../shared/schemas/classes';
import { api } from '../../../lib/api-client';
import { studentRecordsKey } from '../../../components/student-record';

export const classKeys = {
  admin: ['admin', 'classes'] as const,
};

/**
 * What a class change can alter elsewhere: the dashboard's class cards, registers, reports and
 * student records (a rename reaches them all). Those keys belong to the attendance and reports
 * features, which this one may not import: their literal prefixes, kept in step with
 * features/attendance/api/query-keys.ts (`['classes']`, `['attendance', ...]`) and
 * features/reports/api/query-keys.ts (`['reports', ...]`).
 */
const TOUCHED_BY_CLASS_CHANGES = [classKeys.admin, ['classes'], ['attendance'], ['reports'], studentRecordsKey] as const;

export function invalidateAfterClassChange(queryClient: QueryClient): Promise<void[]> {
  return Promise.all(TOUCHED_BY_CLASS_CHANGES.map((queryKey) => queryClient.invalidateQueries({ queryKey: [...queryKey] })));
}

/** GET /api/admin/classes: every class in order, archived ones too, with roster and register counts. */
export function fetchAdminClasses(signal?: AbortSignal): Promise<AdminClass[]> {
  return api.get('/api/admin/classes', AdminClassListSchema, { signal });
}

export function useAdminClasses() {
  return useQuery({ queryKey: classKeys.admin, queryFn: ({ signal }) => fetchAdminClasses(signal) });
}
