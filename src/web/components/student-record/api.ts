import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { StudentRecordSchema, type StudentRecord } from '../../../shared/schemas/students';
import { api } from '../../lib/api-client';
import { withTerm, type TermChoice } from '../../lib/terms';

/** Every cached student record sits under this key, so a profile change can refresh them all. */
export const studentRecordsKey = ['students'] as const;

export function studentRecordKey(pin: string, term: TermChoice = undefined) {
  return [...studentRecordsKey, pin, { term: term ?? null }] as const;
}

/** A PIN may hold '/', which must not split the path. */
function studentPath(pin: string): string {
  return `/api/students/${encodeURIComponent(pin)}`;
}

/**
 * GET /api/students/:pin?term=: the profile, summary and first page of history of one student over
 * a term; with `before` (a page's `nextBefore`), the page after it.
 */
export async function fetchStudentRecord(pin: string, term: TermChoice, signal?: AbortSignal, before?: string): Promise<StudentRecord> {
  const path = withTerm(studentPath(pin), term);
  const page = before === undefined ? path : `${path}${path.includes('?') ? '&' : '?'}before=${encodeURIComponent(before)}`;
  return api.get(page, StudentRecordSchema, { signal });
}

/**
 * The older pages of a record's history, fetched one at a time when asked for:
 * `first` is the record's `nextBefore` (null: there is nothing older).
 */
export function useOlderHistory(pin: string, term: TermChoice, first: string | null) {
  return useInfiniteQuery({
    queryKey: [...studentRecordKey(pin, term), 'older', first] as const,
    queryFn: ({ pageParam, signal }) => fetchStudentRecord(pin, term, signal, pageParam),
    initialPageParam: first ?? '',
    getNextPageParam: (page) => page.nextBefore ?? undefined,
    // Nothing is fetched until the button asks for it.
    enabled: false,
  });
}

/** The record of `pin` over `term` (undefined: the server's default); idle while the PIN is empty. */
export function useStudentRecord(pin: string, term: TermChoice = undefined) {
  return useQuery({
    queryKey: studentRecordKey(pin, term),
    queryFn: ({ signal }) => fetchStudentRecord(pin, term, signal),
    enabled: pin !== '',
    // Marks change when a register is saved; a record seen a moment ago is still good to show.
    staleTime: 30_000,
    // Another term of the same student keeps the record on screen until it arrives (nothing
    // jumps under the picker); another student never shows the previous one's.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === pin ? previous : undefined),
  });
}

/** GET /api/students/:pin/report.pdf?term=: the attendance report of a term as a PDF file. */
export async function fetchStudentReport(pin: string, term: TermChoice = undefined): Promise<Blob> {
  return api.blob(withTerm(`${studentPath(pin)}/report.pdf`, term), 'application/pdf');
}
