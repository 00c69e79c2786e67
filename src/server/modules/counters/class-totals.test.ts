import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../shared/dates';
import type { Correction } from '../../../shared/schemas/corrections';
import type { Dashboard } from '../../../shared/schemas/reports';
import { restoreBackup, writeBackup } from '../../db/backup';
import { migrateDatabase, queryRows, type Executor } from '../../db/client';
import { students } from '../../db/schema';
import { oldSchemaDatabases } from '../../test/old-schema';
import { seedRegister } from '../../test/registers';
import { createTestDatabase } from '../../test/test-db';
import { createTestContext, type TestContext } from '../../test/test-app';
import { findCounterDifferences, rebuildCounters } from './service';

/**
 * The class totals (decision 43) that the dashboard reads: kept by the database from the
 * registers through every kind of change, checked by verify, and left out of backups.
 */
let ctx: TestContext;
let faculty: string;
let admin: string;
let student: string;
const today = todayIn('UTC');
const PINS = ['T-01', 'T-02', 'T-03'];

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.database.db.insert(students).values(PINS.map((pin) => ({ pin, name: `Name ${pin}`, className: 'CSE5' })));
  faculty = await ctx.signIn('faculty');
  admin = await ctx.signIn('admin');
  student = await ctx.signIn('student', { pin: 'T-04', className: 'CSE5' });
}, 60_000);
afterAll(async () => ctx.close());

function put(className: string, date: string, body: object) {
  return ctx.app.inject({ method: 'PUT', url: `/api/attendance/${className}/${date}`, payload: body, headers: { cookie: faculty } });
}
const marks = (statuses: Record<string, string>) => ({ records: Object.entries(statuses).map(([pin, status]) => ({ pin, status })) });

async function dashboard(query = '?term=all'): Promise<Dashboard> {
  const answer = await ctx.app.inject({ method: 'GET', url: `/api/reports/dashboard${query}`, headers: { cookie: faculty } });
  expect(answer.statusCode).toBe(200);
  return answer.json() as Dashboard;
}

interface TotalRow {
  key: string;
  className: string;
  registers: number;
  present: number;
  late: number;
  absent: number;
  excused: number;
}

/** A class's rows of totals, per term (`key` the term's id, or '-') and per date. */
async function totalsOf(db: Executor, className: string): Promise<{ terms: TotalRow[]; days: TotalRow[] }> {
  const columns = sql`class_name as "className", registers, present, late, absent, excused`;
  return {
    terms: await queryRows<TotalRow>(
      db,
      sql`select coalesce(term_id::text, '-') as key, ${columns} from class_term_totals where class_name = ${className} order by 1`,
    ),
    days: await queryRows<TotalRow>(db, sql`select date::text as key, ${columns} from class_day_totals where class_name = ${className} order by 1`),
  };
}

async function expectAgree(db: Executor = ctx.database.db) {
  expect(await findCounterDifferences(db)).toEqual([]);
}

describe('the class totals', () => {
  const first = addDays(today, -20);
  const second = addDays(today, -19);

  it('follow a new register and its replacement, per term and per date', async () => {
    expect((await put('CSE5', first, marks({ 'T-01': 'present', 'T-02': 'late', 'T-03': 'absent', 'T-04': 'excused' }))).statusCode).toBe(200);
    expect((await put('CSE5', second, marks({ 'T-01': 'present', 'T-02': 'present', 'T-03': 'present', 'T-04': 'absent' }))).statusCode).toBe(200);
    await expectAgree();
    let totals = await totalsOf(ctx.database.db, 'CSE5');
    expect(totals.terms).toEqual([{ key: '-', className: 'CSE5', registers: 2, present: 4, late: 1, absent: 2, excused: 1 }]);
    expect(totals.days).toEqual([
      { key: first, className: 'CSE5', registers: 1, present: 1, late: 1, absent: 1, excused: 1 },
      { key: second, className: 'CSE5', registers: 1, present: 3, late: 0, absent: 1, excused: 0 },
    ]);

    // Taken again: the register's old counts make way for its new ones.
    expect((await put('CSE5', second, marks({ 'T-01': 'absent', 'T-02': 'absent', 'T-03': 'late', 'T-04': 'absent' }))).statusCode).toBe(200);
    await expectAgree();
    totals = await totalsOf(ctx.database.db, 'CSE5');
    expect(totals.terms).toEqual([{ key: '-', className: 'CSE5', registers: 2, present: 1, late: 2, absent: 4, excused: 1 }]);
    expect(totals.days[1]).toEqual({ key: second, className: 'CSE5', registers: 1, present: 0, late: 1, absent: 3, excused: 0 });

    // What the dashboard shows is theirs.
    const board = await dashboard();
    expect(board.classWiseAttendance.find((c) => c.className === 'CSE5')).toMatchObject({ totalStudents: 4, presentCount: 3, absentCount: 4 });
  });

  it('follow an accepted correction request', async () => {
    const asked = await ctx.app.inject({
      method: 'POST',
      url: '/api/corrections',
      headers: { cookie: student },
      payload: { date: second, reason: 'I was there.' },
    });
    expect(asked.statusCode).toBe(201);
    const accepted = await ctx.app.inject({
      method: 'POST',
      url: `/api/corrections/${(asked.json() as Correction).id}/accept`,
      headers: { cookie: faculty },
      payload: {},
    });
    expect(accepted.statusCode).toBe(200);
    await expectAgree();
    expect((await totalsOf(ctx.database.db, 'CSE5')).days[1]).toEqual({ key: second, className: 'CSE5', registers: 1, present: 1, late: 1, absent: 2, excused: 0 });
  });

  it('follow past registers, and registers moved into a term and out of it', async () => {
    await seedRegister(ctx.database, { className: 'CSE5', date: addDays(today, -40) }, [
      { pin: 'T-01', name: 'Name T-01', status: 'present' },
      { pin: 'T-02', name: 'Name T-02', status: 'absent' },
    ]);
    await expectAgree();
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/terms',
      headers: { cookie: admin },
      payload: { name: 'Totals term', startsOn: addDays(today, -25), endsOn: addDays(today, -19) },
    });
    expect(created.statusCode).toBe(201);
    const termId = (created.json() as { id: string }).id;
    await expectAgree();
    expect((await totalsOf(ctx.database.db, 'CSE5')).terms).toEqual([
      { key: '-', className: 'CSE5', registers: 1, present: 1, late: 0, absent: 1, excused: 0 },
      { key: termId, className: 'CSE5', registers: 2, present: 2, late: 2, absent: 3, excused: 1 },
    ]);
    expect((await dashboard(`?term=${termId}`)).classWiseAttendance.find((c) => c.className === 'CSE5')).toMatchObject({
      presentCount: 4,
      absentCount: 3,
    });

    // Shrunk to leave out the second date: its register goes back to no term.
    const shrunk = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/admin/terms/${termId}`,
      headers: { cookie: admin },
      payload: { endsOn: addDays(today, -20) },
    });
    expect(shrunk.statusCode).toBe(200);
    await expectAgree();
    expect((await totalsOf(ctx.database.db, 'CSE5')).terms).toEqual([
      { key: '-', className: 'CSE5', registers: 2, present: 2, late: 1, absent: 3, excused: 0 },
      { key: termId, className: 'CSE5', registers: 1, present: 1, late: 1, absent: 1, excused: 1 },
    ]);
  });

  it('follow a class renamed, and leave no rows under its old name', async () => {
    const before = await totalsOf(ctx.database.db, 'CSE5');
    const boardBefore = (await dashboard()).classWiseAttendance.find((c) => c.className === 'CSE5');
    const renamed = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/admin/classes/CSE5`,
      headers: { cookie: admin },
      payload: { name: 'CSE5 Evening' },
    });
    expect(renamed.statusCode).toBe(200);
    await expectAgree();
    expect(await totalsOf(ctx.database.db, 'CSE5')).toEqual({ terms: [], days: [] });
    const after = await totalsOf(ctx.database.db, 'CSE5 Evening');
    const named = (rows: TotalRow[]) => rows.map((row) => ({ ...row, className: 'CSE5 Evening' }));
    expect(after).toEqual({ terms: named(before.terms), days: named(before.days) });
    expect((await dashboard()).classWiseAttendance.find((c) => c.className === 'CSE5 Evening')).toEqual({ ...boardBefore, className: 'CSE5 Evening' });
  });

  it('are checked by verify, which finds a total changed behind the portal\'s back, and are rebuilt', async () => {
    await ctx.database.db.execute(sql`update class_day_totals set present = present + 2 where class_name = 'CSE5 Evening' and date = ${first}`);
    await ctx.database.db.execute(sql`delete from class_term_totals where class_name = 'CSE5 Evening' and term_id is null`);
    const differences = await findCounterDifferences(ctx.database.db);
    expect(differences).toEqual(
      expect.arrayContaining([
        { kind: 'class day', key: `CSE5 Evening ${first}`, stored: '3/1/1/1 in 1 registers', recomputed: '1/1/1/1 in 1 registers' },
        { kind: 'class term', key: 'CSE5 Evening (no term)', stored: '0/0/0/0 in 0 registers', recomputed: '2/1/3/0 in 2 registers' },
      ]),
    );
    expect(differences).toHaveLength(2);
    await ctx.database.db.transaction((tx) => rebuildCounters(tx));
    await expectAgree();
  });

  it('are left out of a backup and filled again as a restore loads the registers', { timeout: 120_000 }, async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'portal-totals-'));
    const target = await createTestDatabase();
    try {
      const { header } = await writeBackup(ctx.database, path.join(folder, 'backup.gz'));
      expect(header.tables.map((t) => t.name)).not.toContain('class_term_totals');
      expect(header.tables.map((t) => t.name)).not.toContain('class_day_totals');
      await restoreBackup(target, path.join(folder, 'backup.gz'));
      await expectAgree(target.db);
      expect(await totalsOf(target.db, 'CSE5 Evening')).toEqual(await totalsOf(ctx.database.db, 'CSE5 Evening'));
    } finally {
      await target.destroy();
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('the migration that adds the class totals', () => {
  const olderDatabase = oldSchemaDatabases('0019_audit_log_erasure');

  it('fills them from the registers already taken', { timeout: 60_000 }, async () => {
    const database = await olderDatabase();
    await database.db.insert(students).values([
      { pin: 'M-01', name: 'Asha', className: 'CSE1' },
      { pin: 'M-02', name: 'Ravi', className: 'CSE1' },
    ]);
    for (const [date, second] of [
      ['2026-02-02', 'late'],
      ['2026-02-03', 'absent'],
    ] as const) {
      await database.db.execute(sql`
        insert into attendance_sessions (class_name, date, present_count, late_count, absent_count)
        values ('CSE1', ${date}, 1, ${second === 'late' ? 1 : 0}, ${second === 'absent' ? 1 : 0})`);
      await database.db.execute(sql`
        insert into attendance_marks (session_id, pin, name, class_name, status, date)
        select id, pin, name, 'CSE1', case pin when 'M-01' then 'present' else ${second} end, ${date}
        from attendance_sessions, (values ('M-01', 'Asha'), ('M-02', 'Ravi')) as s(pin, name) where date = ${date}`);
    }
    await migrateDatabase(database);
    // The student counters, which this test leaves empty, are not what it is about.
    expect((await findCounterDifferences(database.db)).filter((d) => d.kind.startsWith('class'))).toEqual([]);
    expect(await totalsOf(database.db, 'CSE1')).toEqual({
      terms: [{ key: '-', className: 'CSE1', registers: 2, present: 2, late: 1, absent: 1, excused: 0 }],
      days: [
        { key: '2026-02-02', className: 'CSE1', registers: 1, present: 1, late: 1, absent: 0, excused: 0 },
        { key: '2026-02-03', className: 'CSE1', registers: 1, present: 1, late: 0, absent: 1, excused: 0 },
      ],
    });
  });
});
