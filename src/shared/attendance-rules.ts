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

/**
 * A mark's status (decision 13). Present and late attend, absent does not, and excused is left
 * out of the student's held classes altogether.
 */
export const MARK_STATUSES = ['present', 'absent', 'late', 'excused'] as const;
export type MarkStatus = (typeof MARK_STATUSES)[number];

/** Who made a change to a mark: faculty, or the student checking themself in (decision 45). */
export const CHANGE_SOURCES = ['faculty', 'self'] as const;
export type ChangeSource = (typeof CHANGE_SOURCES)[number];

/** Whether a mark counts as attended: present or late. */
export function attends(status: MarkStatus): boolean {
  return status === 'present' || status === 'late';
}

/** Whether a mark counts among the held classes: every status but excused. */
export function isHeld(status: MarkStatus): boolean {
  return status !== 'excused';
}

/** The status a `present` flag stands for (the original app's switch, and older API bodies). */
export function statusOf(present: boolean): MarkStatus {
  return present ? 'present' : 'absent';
}

/** How many marks of each status. */
export interface StatusCounts {
  present: number;
  late: number;
  absent: number;
  excused: number;
}

export const NO_MARKS: Readonly<StatusCounts> = { present: 0, late: 0, absent: 0, excused: 0 };

export function countStatuses(marks: readonly { status: MarkStatus }[]): StatusCounts {
  const counts: StatusCounts = { ...NO_MARKS };
  for (const mark of marks) counts[mark.status] += 1;
  return counts;
}

export function addCounts(a: StatusCounts, b: StatusCounts): StatusCounts {
  return { present: a.present + b.present, late: a.late + b.late, absent: a.absent + b.absent, excused: a.excused + b.excused };
}

/**
 * A student's summary from status counts, by the counting rule of decision 13: presentDays are
 * present and late marks, absentDays absent marks, excused counts in neither.
 */
export function summarizeCounts(counts: StatusCounts): AttendanceSummary {
  return summarize(counts.present + counts.late, counts.absent);
}

/** A register's totals: every mark counts once in `total`, and once under its status. */
export function countMarks(marks: readonly { status: MarkStatus }[]): { total: number } & StatusCounts {
  return { total: marks.length, ...countStatuses(marks) };
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The advice the original app did not give, on screen and in the PDF alike: how many more classes
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
