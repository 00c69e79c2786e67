import {
  ABSENT_DANGER_FROM,
  ABSENT_WARNING_FROM,
  ATTENDANCE_THRESHOLD,
  WARNING_BAND_FROM,
} from './constants';

/**
 * A mark as older records hold it: `present` may be a boolean or the text 'Present'/'Absent',
 * or the status may sit in `status` (SPEC.md sections 3 and 4).
 */
export interface LooseMark {
  present?: unknown;
  status?: unknown;
}

/** Present when present is true or 'Present', or status is 'Present'; anything else is absent. */
export function isPresentMark(mark: LooseMark): boolean {
  return mark.present === true || mark.present === 'Present' || mark.status === 'Present';
}

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

/** Count presents and absents of loose marks. */
export function countMarks(marks: readonly LooseMark[]): { present: number; absent: number } {
  let present = 0;
  for (const mark of marks) if (isPresentMark(mark)) present += 1;
  return { present, absent: marks.length - present };
}

/** Format with a fixed number of decimals (1 on screens, 2 in tables and the PDF, 0 in charts). */
export function formatPercent(value: number, decimals: 0 | 1 | 2): string {
  return `${value.toFixed(decimals)}%`;
}
