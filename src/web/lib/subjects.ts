import { useQuery } from '@tanstack/react-query';
import { SubjectListSchema, type Subject } from '../../shared/schemas/subjects';
import { api } from './api-client';

/** The cached subject list sits under this key: an admin's change refreshes it. */
export const subjectsKey = ['subjects'] as const;

/** GET /api/subjects: every subject, by code (none: the portal takes whole-day registers only). */
export function fetchSubjects(signal?: AbortSignal): Promise<Subject[]> {
  return api.get('/api/subjects', SubjectListSchema, { signal });
}

/** The subject list, for the admin's pages and the reports' subject views alike. */
export function useSubjects() {
  return useQuery({ queryKey: subjectsKey, queryFn: ({ signal }) => fetchSubjects(signal) });
}
