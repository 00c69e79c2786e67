import type { QueryClient } from '@tanstack/react-query';
import type { AttendanceRegister } from '../../../../shared/schemas/attendance';
import type { KeptTaggedAnswer } from './kept-get';
import { attendanceKeys } from './query-keys';

/**
 * After a register is saved (PUT /api/attendance/:class/:date, sent from the outbox: outbox.ts):
 * the answer is the register as stored, with its new revision, so the screen shows it without
 * asking again; what depends on it is asked again.
 */
export function showSavedRegister(
  queryClient: QueryClient,
  { className, date, period }: { className: string; date: string; period: number },
  saved: AttendanceRegister,
  etag: string | null,
): void {
  queryClient.setQueryData<KeptTaggedAnswer<AttendanceRegister>>(attendanceKeys.register(className, date, period), { data: saved, etag });
  // Not awaited: the success message should not wait for these refetches.
  void queryClient.invalidateQueries({ queryKey: attendanceKeys.history(className, date, period) });
  // The period picker's "taken" marks.
  void queryClient.invalidateQueries({ queryKey: attendanceKeys.periods(className, date) });
  // Another register's "Copy last register" may copy this one now.
  void queryClient.invalidateQueries({ queryKey: ['attendance', 'previous', className] });
  // The dashboard's "taken today" badge.
  void queryClient.invalidateQueries({ queryKey: attendanceKeys.classes });
}

/** Refused (a colleague may have taken the day's whole-day register or lectures meanwhile): the period picker shows the day as it is now. */
export function showRefusedSave(queryClient: QueryClient, { className, date }: { className: string; date: string }): void {
  void queryClient.invalidateQueries({ queryKey: attendanceKeys.periods(className, date) });
}
