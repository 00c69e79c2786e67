import { describe, expect, it } from 'vitest';
import { addDays } from './dates';
import {
  buildDailyReport,
  classWiseCsv,
  dailyReportCsv,
  overallOf,
  PERIOD_DAYS,
  periodTotals,
  reportWindow,
  studentSummariesCsv,
  toClassAttendance,
  toStudentSummary,
} from './report-rules';

const today = '2026-03-10';
const day = (back: number) => addDays(today, -back);
const one = (date: string) => ({ date, present: 1, absent: 0 });

describe('report windows', () => {
  it('weekly runs from today-6 to today and monthly from today-29 to today', () => {
    expect(reportWindow(today, PERIOD_DAYS.weekly)).toEqual({ from: '2026-03-04', to: today });
    expect(reportWindow(today, PERIOD_DAYS.monthly)).toEqual({ from: '2026-02-09', to: today });
  });

  it('the weekly report keeps today and today-6, and drops today-7 and future dates', () => {
    const rows = [day(-1), day(0), day(6), day(7), day(29), day(30)].map(one);
    expect(buildDailyReport(rows, today, PERIOD_DAYS.weekly).map((r) => r.date)).toEqual([day(6), day(0)]);
  });

  it('the monthly report keeps today-29 and drops today-30 and future dates', () => {
    const rows = [day(-1), day(0), day(6), day(7), day(29), day(30)].map(one);
    expect(buildDailyReport(rows, today, PERIOD_DAYS.monthly).map((r) => r.date)).toEqual([day(29), day(7), day(6), day(0)]);
  });

  it('windows cross month and year ends', () => {
    const rows = ['2025-12-27', '2025-12-26', '2026-01-02'].map(one);
    expect(buildDailyReport(rows, '2026-01-02', 7).map((r) => r.date)).toEqual(['2025-12-27', '2026-01-02']);
  });
});

describe('buildDailyReport', () => {
  it('merges the registers of several classes on one date into one row, oldest date first', () => {
    const rows = [
      { date: day(1), present: 50, absent: 10 },
      { date: day(3), present: 7, absent: 3 },
      { date: day(1), present: 40, absent: 20 },
      { date: day(1), present: 0, absent: 0 },
    ];
    expect(buildDailyReport(rows, today, 7)).toEqual([
      { date: day(3), present: 7, absent: 3, total: 10 },
      { date: day(1), present: 90, absent: 30, total: 120 },
    ]);
  });

  it('gives no rows when there are no registers', () => {
    expect(buildDailyReport([], today, 30)).toEqual([]);
  });
});

describe('percentages', () => {
  it('are zero, not NaN, when a class or the whole portal has no marks', () => {
    expect(toClassAttendance({ className: 'CSE1', totalStudents: 60, present: 0, absent: 0 })).toEqual({
      className: 'CSE1',
      totalStudents: 60,
      presentCount: 0,
      absentCount: 0,
      presentPercentage: 0,
      absentPercentage: 0,
    });
    expect(overallOf([])).toEqual({ present: 0, absent: 0, total: 0, presentPercentage: 0, absentPercentage: 0 });
    expect(periodTotals([])).toEqual({ present: 0, absent: 0, total: 0, presentPercentage: 0, absentPercentage: 0 });
    expect(toStudentSummary({ pin: 'P1', name: 'N', className: 'CSE1', presentDays: 0, absentDays: 0 }).percentage).toBe(0);
  });

  it('are present / (present + absent), not of the roster size', () => {
    const row = toClassAttendance({ className: 'CSE2', totalStudents: 60, present: 3, absent: 1 });
    expect(row.presentPercentage).toBe(75);
    expect(row.absentPercentage).toBe(25);
  });

  it('overall sums every class', () => {
    const overall = overallOf([
      { presentCount: 3, absentCount: 1 },
      { presentCount: 1, absentCount: 3 },
      { presentCount: 0, absentCount: 0 },
    ]);
    expect(overall).toEqual({ present: 4, absent: 4, total: 8, presentPercentage: 50, absentPercentage: 50 });
  });

  it('labels a student Good at exactly 75% and Low below', () => {
    expect(toStudentSummary({ pin: 'P', name: 'N', className: 'C', presentDays: 3, absentDays: 1 }).present).toBe('Good');
    expect(toStudentSummary({ pin: 'P', name: 'N', className: 'C', presentDays: 2, absentDays: 1 }).present).toBe('Low');
  });
});

describe('the reports as CSV', () => {
  it('writes the report tables with the figures the screen shows (2 decimals)', () => {
    expect(dailyReportCsv([{ date: '2026-03-09', present: 2, absent: 1, total: 3 }])).toBe(
      'Date,Present,Absent,Total,Attendance Rate (%)\r\n2026-03-09,2,1,3,66.67\r\n',
    );
    expect(
      classWiseCsv([toClassAttendance({ className: 'CSE1', totalStudents: 60, present: 1, absent: 2 })]),
    ).toBe('Class,Total Students,Present,Absent,Present %,Absent %\r\nCSE1,60,1,2,33.33,66.67\r\n');
    expect(
      studentSummariesCsv([toStudentSummary({ pin: '23A', name: 'Rao, K', className: 'CSE1', presentDays: 1, absentDays: 2 })]),
    ).toBe('PIN,Name,Class,Status,Present Days,Absent Days,Percentage (%)\r\n23A,"Rao, K",CSE1,Low,1,2,33.33\r\n');
  });
});
