import { useQuery } from '@tanstack/react-query';
import { StudentRecordSchema, type StudentRecord } from '../../../shared/schemas/students';
import { ApiError, apiRequest } from '../../lib/api-client';

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
  return StudentRecordSchema.parse(await apiRequest<unknown>(studentPath(pin), { signal }));
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

export function studentReportPath(pin: string): string {
  return `${studentPath(pin)}/report.pdf`;
}

/** The file name the server gives the report; a PIN's '/' is not allowed in file names. */
export function studentReportFilename(pin: string): string {
  return `attendance-${pin.replace(/\//g, '-')}.pdf`;
}

/**
 * GET /api/students/:pin/report.pdf as a Blob. Fetched rather than linked so that a refusal
 * (an expired session, a 403) is shown as a message instead of being saved as a broken PDF.
 */
export async function fetchStudentReport(pin: string): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(studentReportPath(pin), { credentials: 'same-origin', headers: { accept: 'application/pdf' } });
  } catch {
    throw new ApiError(0, 'Cannot reach the server. Check your connection and try again.');
  }
  if (!response.ok) {
    let message = `Request failed (${response.status})`;
    try {
      const body = (await response.json()) as { message?: unknown };
      if (typeof body.message === 'string') message = body.message;
    } catch {
      // Not JSON: keep the generic message.
    }
    throw new ApiError(response.status, message);
  }
  return response.blob();
}
