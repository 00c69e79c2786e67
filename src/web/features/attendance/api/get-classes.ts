import { useQuery } from '@tanstack/react-query';
import { ClassListSchema, type ClassSummary } from '../../../../shared/schemas/attendance';
import { getKept } from './kept-get';
import { CLASSES_PATH } from './paths';
import { attendanceKeys } from './query-keys';

/** The classes with their roster sizes and whether today's register is taken; offline, the device's copy (kept-get.ts). */
export async function fetchClasses(signal?: AbortSignal): Promise<ClassSummary[]> {
  return (await getKept(CLASSES_PATH, ClassListSchema, signal)).data;
}

export function useClasses() {
  return useQuery({ queryKey: attendanceKeys.classes, queryFn: ({ signal }) => fetchClasses(signal) });
}
