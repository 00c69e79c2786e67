import { todayIn } from '../../../shared/dates';
import {
  buildDailyReport,
  overallOf,
  PERIOD_DAYS,
  reportWindow,
  toClassAttendance,
  toStudentSummary,
} from '../../../shared/report-rules';
import type { Dashboard, StudentSummary } from '../../../shared/schemas/reports';
import type { Db } from '../../db/client';
import { assertClassExists } from '../classes/service';
import * as repo from './repository';

export interface DashboardInput {
  className?: string | undefined;
  timeZone: string;
  now?: Date;
}

/**
 * The faculty dashboard: overall and per-class totals, and the weekly and monthly per-date
 * series, all read from the register counters. With a class, every figure is that class's.
 */
export async function getDashboard(db: Db, input: DashboardInput): Promise<Dashboard> {
  if (input.className !== undefined) await assertClassExists(db, input.className);
  const today = todayIn(input.timeZone, input.now);
  // The monthly window holds the weekly one: one read of at most 30 dates serves both.
  const { from, to } = reportWindow(today, Math.max(PERIOD_DAYS.weekly, PERIOD_DAYS.monthly));

  // One snapshot, so that the tiles, the class table and the series agree even while a register is saved.
  const { perClass, perDay } = await db.transaction(
    async (tx) => ({
      perClass: await repo.classCounts(tx, input.className),
      perDay: await repo.dayCounts(tx, from, to, input.className),
    }),
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );

  const classWiseAttendance = perClass.map(toClassAttendance);
  return {
    overallAttendance: overallOf(classWiseAttendance),
    classWiseAttendance,
    weeklyReport: buildDailyReport(perDay, today, PERIOD_DAYS.weekly),
    monthlyReport: buildDailyReport(perDay, today, PERIOD_DAYS.monthly),
    today,
  };
}

/** The students' summaries, lowest percentage first; `below` keeps only those under it. */
export async function listStudentSummaries(
  db: Db,
  options: { className?: string | undefined; below?: number | undefined },
): Promise<StudentSummary[]> {
  if (options.className !== undefined) await assertClassExists(db, options.className);
  const rows = await repo.studentCounts(db, options);
  return rows.map(toStudentSummary);
}
