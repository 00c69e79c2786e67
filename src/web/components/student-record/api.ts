import { useQuery } from '@tanstack/react-query';
import { StudentRecordSchema, type StudentRecord } from '../../../shared/schemas/students';
import { api } from '../../lib/api-client';

/** Every cached student record sits under this key, so a profile change can refresh them all. */
export const studentRecordsKey = ['students'] as const;

export function studentRecordKey(pin: string) {
  return [...studentRecordsKey, pin] as const;
}

/** A PIN may hold '/', which must not split the path. */
function studentPath(pin: string): string {
  return `/api/students/${encodeURIComponent(pin)}`;
}

/** GET /api/students/:pin: the profile, summary and history of one student. */
export async function fetchStudentRecord(pin: string, signal?: AbortSignal): Promise<StudentRecord> {
  return api.get(studentPath(pin), StudentRecordSchema, { signal });
}

/** The record of `pin`; idle (nothing fetched) while the PIN is empty. */
export function useStudentRecord(pin: string) {
  return useQuery({
    queryKey: studentRecordKey(pin),
    queryFn: ({ signal }) => fetchStudentRecord(pin, signal),
    enabled: pin !== '',
    // Marks change when a register is saved; a record seen a moment ago is still good to show.
    staleTime: 30_000,
  });
}

/** GET /api/students/:pin/report.pdf: the attendance report as a PDF file. */
export async function fetchStudentReport(pin: string): Promise<Blob> {
  return api.blob(`${studentPath(pin)}/report.pdf`, 'application/pdf');
}
