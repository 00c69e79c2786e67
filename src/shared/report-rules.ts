import { percentage, summaryStatus } from './attendance-rules';
import { MONTHLY_WINDOW_DAYS, WEEKLY_WINDOW_DAYS } from './constants';
import { toCsv } from './csv';
import { addDays } from './dates';
import type {
  ClassAttendance,
  DailyReportRow,
  OverallAttendance,
  StudentSummary,
} from './schemas/reports';

/** Rules of the attendance reports: fields, windows, bands and rounding as docs/product.md states them. */

export type ReportPeriod = 'weekly' | 'monthly';

export const PERIOD_DAYS: Record<ReportPeriod, number> = {
  weekly: WEEKLY_WINDOW_DAYS,
  monthly: MONTHLY_WINDOW_DAYS,
};

/** First and last date of the `days`-day window ending today, both included. */
export function reportWindow(today: string, days: number): { from: string; to: string } {
  return { from: addDays(today, -(days - 1)), to: today };
}

export interface DayCounts {
  date: string;
  present: number;
  absent: number;
}

/**
 * The per-date rows of one period: dates inside the window only, every row of the same date
 * (one per class) merged into one, oldest first.
 */
export function buildDailyReport(rows: readonly DayCounts[], today: string, days: number): DailyReportRow[] {
  const byDate = new Map<string, { present: number; absent: number }>();
  // YYYY-MM-DD dates compare as text: one comparison each side, no date arithmetic per row.
  const { from, to } = reportWindow(today, days);
  for (const row of rows) {
    if (row.date < from || row.date > to) continue;
    const merged = byDate.get(row.date) ?? { present: 0, absent: 0 };
    merged.present += row.present;
    merged.absent += row.absent;
    byDate.set(row.date, merged);
  }
  return [...byDate]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, { present, absent }]) => ({ date, present, absent, total: present + absent }));
}

export interface ClassCounts {
  className: string;
  totalStudents: number;
  present: number;
  absent: number;
}

export function toClassAttendance(row: ClassCounts): ClassAttendance {
  const marks = row.present + row.absent;
  return {
    className: row.className,
    totalStudents: row.totalStudents,
    presentCount: row.present,
    absentCount: row.absent,
    presentPercentage: percentage(row.present, marks),
    absentPercentage: percentage(row.absent, marks),
  };
}

/** Totals over the given classes; percentages of present + absent, 0 when there are no marks. */
export function overallOf(rows: readonly { presentCount: number; absentCount: number }[]): OverallAttendance {
  let present = 0;
  let absent = 0;
  for (const row of rows) {
    present += row.presentCount;
    absent += row.absentCount;
  }
  const total = present + absent;
  return {
    present,
    absent,
    total,
    presentPercentage: percentage(present, total),
    absentPercentage: percentage(absent, total),
  };
}

/** Sum of a period's rows: what the period's pie chart shows. */
export function periodTotals(rows: readonly DailyReportRow[]): OverallAttendance {
  return overallOf(rows.map((row) => ({ presentCount: row.present, absentCount: row.absent })));
}

export function toStudentSummary(row: {
  pin: string;
  name: string;
  className: string;
  presentDays: number;
  absentDays: number;
}): StudentSummary {
  const percent = percentage(row.presentDays, row.presentDays + row.absentDays);
  return {
    pin: row.pin,
    name: row.name,
    present: summaryStatus(percent),
    presentDays: row.presentDays,
    absentDays: row.absentDays,
    percentage: percent,
    className: row.className,
  };
}

// ---- CSV ----------------------------------------------------------------------------------

/** The reports' download button writes this before the file (CSV itself lives in csv.ts). */
export { CSV_BOM } from './csv';

/** Percentages as the tables show them: 2 decimals, without the % sign. */
const pct2 = (value: number) => value.toFixed(2);

export function dailyReportCsv(rows: readonly DailyReportRow[]): string {
  return toCsv(
    ['Date', 'Present', 'Absent', 'Total', 'Attendance Rate (%)'],
    rows.map((row) => [row.date, row.present, row.absent, row.total, pct2(percentage(row.present, row.total))]),
  );
}

export function classWiseCsv(rows: readonly ClassAttendance[]): string {
  return toCsv(
    ['Class', 'Total Students', 'Present', 'Absent', 'Present %', 'Absent %'],
    rows.map((row) => [
      row.className,
      row.totalStudents,
      row.presentCount,
      row.absentCount,
      pct2(row.presentPercentage),
      pct2(row.absentPercentage),
    ]),
  );
}

export function studentSummariesCsv(rows: readonly StudentSummary[]): string {
  return toCsv(
    ['PIN', 'Name', 'Class', 'Status', 'Present Days', 'Absent Days', 'Percentage (%)'],
    rows.map((row) => [row.pin, row.name, row.className, row.present, row.presentDays, row.absentDays, pct2(row.percentage)]),
  );
}
