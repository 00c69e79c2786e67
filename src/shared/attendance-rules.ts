import {
  ABSENT_DANGER_FROM,
  ABSENT_WARNING_FROM,
  ATTENDANCE_THRESHOLD,
  WARNING_BAND_FROM,
} from './constants';

/** A percentage of part over whole; 0 when the whole is 0. */
export function percentage(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}

export type SummaryStatus = 'Good' | 'Low';

/** 'Good' at the threshold (75%) or more, otherwise 'Low'. */
export function summaryStatus(percent: number): SummaryStatus {
  return percent >= ATTENDANCE_THRESHOLD ? 'Good' : 'Low';
}

export type Band = 'good' | 'warning' | 'danger';

/** Colour band of an attendance percentage: 75+ good, 50 to below 75 warning, below 50 danger. */
export function attendanceBand(percent: number): Band {
  if (percent >= ATTENDANCE_THRESHOLD) return 'good';
  if (percent >= WARNING_BAND_FROM) return 'warning';
  return 'danger';
}

/** Colour band of a class's absent percentage: 25+ danger, 10 to below 25 warning, else good. */
export function absentBand(absentPercent: number): Band {
  if (absentPercent >= ABSENT_DANGER_FROM) return 'danger';
  if (absentPercent >= ABSENT_WARNING_FROM) return 'warning';
  return 'good';
}

export interface AttendanceSummary {
  totalDays: number;
  presentDays: number;
  absentDays: number;
  percentage: number;
  status: SummaryStatus;
  /** Classes that can still be missed while staying at or above the threshold. */
  canMiss: number;
  /** Consecutive presents needed to get back to the threshold (0 when already there). */
  needToAttend: number;
}

export function summarize(presentDays: number, absentDays: number): AttendanceSummary {
  const totalDays = presentDays + absentDays;
  const percent = percentage(presentDays, totalDays);
  // Largest k with present / (total + k) >= t, and smallest n with (present + n) / (total + n) >= t.
  // Integer arithmetic on percent units avoids floating-point edges such as exactly 75%.
  const canMiss =
    totalDays === 0 ? 0 : Math.max(0, Math.floor((presentDays * 100 - ATTENDANCE_THRESHOLD * totalDays) / ATTENDANCE_THRESHOLD));
  const deficit = ATTENDANCE_THRESHOLD * totalDays - presentDays * 100;
  const needToAttend = deficit > 0 ? Math.ceil(deficit / (100 - ATTENDANCE_THRESHOLD)) : 0;
  return {
    totalDays,
    presentDays,
    absentDays,
    percentage: percent,
    status: summaryStatus(percent),
    canMiss,
    needToAttend,
  };
}

/** A register's totals: every mark counts once, present or absent. */
export function countMarks(marks: readonly { present: boolean }[]): { total: number; present: number; absent: number } {
  let present = 0;
  for (const mark of marks) if (mark.present) present += 1;
  return { total: marks.length, present, absent: marks.length - present };
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The advice beyond the specification, on screen and in the PDF alike: how many more classes
 * can be missed while staying at or above 75%, or how many presents in a row bring attendance
 * back to it. Null when nothing has been recorded yet.
 */
export function attendanceForecast(summary: Pick<AttendanceSummary, 'totalDays' | 'canMiss' | 'needToAttend'>): string | null {
  if (summary.totalDays === 0) return null;
  if (summary.needToAttend > 0) {
    return `Attending the next ${plural(summary.needToAttend, 'class', 'classes')} in a row brings attendance back to ${ATTENDANCE_THRESHOLD}%.`;
  }
  if (summary.canMiss > 0) {
    return `${plural(summary.canMiss, 'more class', 'more classes')} can be missed while staying at or above ${ATTENDANCE_THRESHOLD}%.`;
  }
  return `Missing the next class would take attendance below ${ATTENDANCE_THRESHOLD}%.`;
}

/** The file name of a student's PDF report; a PIN's '/' is not allowed in file names. */
export function studentReportFilename(pin: string): string {
  return `attendance-${pin.replace(/\//g, '-')}.pdf`;
}

/** Format with a fixed number of decimals (1 on screens, 2 in tables and the PDF, 0 in charts). */
export function formatPercent(value: number, decimals: 0 | 1 | 2): string {
  return `${value.toFixed(decimals)}%`;
}
