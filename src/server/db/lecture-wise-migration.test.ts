import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { findCounterDifferences } from '../modules/counters/service';
import { oldSchemaDatabases } from '../test/old-schema';
import { migrateDatabase, queryRows } from './client';

/** The last migration before lecture-wise attendance (decision 13): daily registers, present or absent. */
const BEFORE = '0009_audit_log_append_only';
/** An empty database (PGlite, or a new database on TEST_DATABASE_URL) at the schema of daily registers. */
const dailyDatabase = oldSchemaDatabases(BEFORE);

describe('the lecture-wise migration', { timeout: 120_000 }, () => {
  it('turns every daily register into period 0 and every mark into present or absent, losing nothing', async () => {
    const database = await dailyDatabase();
    const db = database.db;
    await db.execute(sql`insert into terms (name, starts_on, ends_on) values ('Spring', '2026-01-05', '2026-04-30')`);
    await db.execute(sql`insert into students (pin, name, class_name) values ('P1', 'Asha', 'CSE1'), ('P2', 'Ravi', 'CSE1')`);
    // Two registers in the term, one before it; the stored counters of one are wrong on purpose.
    const registers = await queryRows<{ id: string; date: string }>(
      db,
      sql`insert into attendance_sessions (class_name, date, present_count, absent_count) values
            ('CSE1', '2026-02-02', 1, 1), ('CSE1', '2026-02-03', 9, 9), ('CSE1', '2025-12-01', 2, 0)
          returning id, date::text`,
    );
    const id = (date: string) => registers.find((r) => r.date === date)!.id;
    await db.execute(sql`insert into attendance_marks (session_id, pin, name, class_name, present) values
      (${id('2026-02-02')}, 'P1', 'Asha', 'CSE1', true), (${id('2026-02-02')}, 'P2', 'Ravi', 'CSE1', false),
      (${id('2026-02-03')}, 'P1', 'Asha', 'CSE1', false), (${id('2026-02-03')}, 'P2', 'Ravi', 'CSE1', false),
      (${id('2025-12-01')}, 'P1', 'Asha', 'CSE1', true), (${id('2025-12-01')}, 'P2', 'Ravi', 'CSE1', true)`);
    await db.execute(sql`insert into attendance_changes (session_id, pin, old_value, new_value, reason) values
      (${id('2026-02-03')}, 'P1', null, true, null), (${id('2026-02-03')}, 'P1', true, false, 'Left early')`);

    await migrateDatabase(database);

    expect(
      await queryRows(db, sql`select date::text, period, subject_code, present_count, absent_count, late_count, excused_count,
        (term_id is not null) as in_term from attendance_sessions order by date`),
    ).toEqual([
      { date: '2025-12-01', period: 0, subject_code: null, present_count: 2, absent_count: 0, late_count: 0, excused_count: 0, in_term: false },
      { date: '2026-02-02', period: 0, subject_code: null, present_count: 1, absent_count: 1, late_count: 0, excused_count: 0, in_term: true },
      { date: '2026-02-03', period: 0, subject_code: null, present_count: 0, absent_count: 2, late_count: 0, excused_count: 0, in_term: true },
    ]);
    expect(await queryRows(db, sql`select pin, date::text, period, status from attendance_marks order by date, pin`)).toEqual([
      { pin: 'P1', date: '2025-12-01', period: 0, status: 'present' },
      { pin: 'P2', date: '2025-12-01', period: 0, status: 'present' },
      { pin: 'P1', date: '2026-02-02', period: 0, status: 'present' },
      { pin: 'P2', date: '2026-02-02', period: 0, status: 'absent' },
      { pin: 'P1', date: '2026-02-03', period: 0, status: 'absent' },
      { pin: 'P2', date: '2026-02-03', period: 0, status: 'absent' },
    ]);
    expect(await queryRows(db, sql`select old_status, new_status, reason from attendance_changes order by id`)).toEqual([
      { old_status: null, new_status: 'present', reason: null },
      { old_status: 'present', new_status: 'absent', reason: 'Left early' },
    ]);
    // The student counters: one bucket per term (and one outside every term), whole-day registers.
    expect(
      await queryRows(db, sql`select pin, subject_code, (term_id is not null) as in_term, present, late, absent, excused
        from student_counters order by pin, in_term`),
    ).toEqual([
      { pin: 'P1', subject_code: '', in_term: false, present: 1, late: 0, absent: 0, excused: 0 },
      { pin: 'P1', subject_code: '', in_term: true, present: 1, late: 0, absent: 1, excused: 0 },
      { pin: 'P2', subject_code: '', in_term: false, present: 1, late: 0, absent: 0, excused: 0 },
      { pin: 'P2', subject_code: '', in_term: true, present: 0, late: 0, absent: 2, excused: 0 },
    ]);
    expect(await findCounterDifferences(db)).toEqual([]);
  });
});
