import { useQuery } from '@tanstack/react-query';
import { ClassListSchema, type ClassSummary } from '../../../../shared/schemas/attendance';
import { api } from '../../../lib/api-client';
import { CLASSES_PATH } from './paths';
import { attendanceKeys } from './query-keys';

/** The classes with their roster sizes and whether today's register is taken. */
export async function fetchClasses(signal?: AbortSignal): Promise<ClassSummary[]> {
  return api.get(CLASSES_PATH, ClassListSchema, { signal });
}

export function useClasses() {
  return useQuery({ queryKey: attendanceKeys.classes, queryFn: ({ signal }) => fetchClasses(signal) });
}
