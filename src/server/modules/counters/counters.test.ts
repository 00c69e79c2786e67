import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../shared/dates';
import type { AttendanceRegister } from '../../../shared/schemas/attendance';
import type { StudentRecord } from '../../../shared/schemas/students';
import { queryRows, type Executor } from '../../db/client';
import { studentCounters, students, subjects, terms, timetableSlots } from '../../db/schema';
import { createTestContext, type TestContext } from '../../test/test-app';
import { weekdayOf } from '../timetable/service';
import { findCounterDifferences, rebuildCounters, studentTotals } from './service';

/**
 * The student counters (decision 13) after every kind of save: they must always equal a
 * recomputation from the marks, on PGlite and on PostgreSQL.
 */
let ctx: TestContext;
let faculty: string;
let admin: string;
const today = todayIn('UTC');
const PINS = ['K-01', 'K-02', 'K-03', 'K-04'];

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.database.db.insert(students).values(PINS.map((pin) => ({ pin, name: `Name ${pin}`, className: 'CSE6' })));
  await ctx.database.db.insert(subjects).values([
    { code: 'DS', name: 'Data Structures' },
    { code: 'OS', name: 'Operating Systems' },
  ]);
  faculty = await ctx.signIn('faculty');
  admin = await ctx.signIn('admin');
}, 60_000);
afterAll(async () => ctx.close());

function put(className: string, date: string, body: object, period?: number) {
  const query = period === undefined ? '' : `?period=${period}`;
  return ctx.app.inject({ method: 'PUT', url: `/api/attendance/${className}/${date}${query}`, payload: body, headers: { cookie: faculty } });
}
const record = async (pin: string, query = '?term=all') =>
  (await ctx.app.inject({ method: 'GET', url: `/api/students/${pin}${query}`, headers: { cookie: faculty } })).json() as StudentRecord;

async function expectAgree() {
  expect(await findCounterDifferences(ctx.database.db)).toEqual([]);
}

describe('student counters', () => {
  it('follow a new register, a replacement with every status, and a whole-day register', async () => {
    const date = addDays(today, -30);
    expect((await put('CSE6', date, { records: [{ pin: 'K-01', present: true }] })).statusCode).toBe(200);
    await expectAgree();
    const replaced = await put('CSE6', date, {
      records: [
        { pin: 'K-01', status: 'late' },
        { pin: 'K-02', status: 'excused' },
        { pin: 'K-03', status: 'present' },
      ],
      reason: 'Corrected after class',
    });
    expect(replaced.statusCode).toBe(200);
    expect((replaced.json() as AttendanceRegister).stats).toEqual({ total: 4, present: 1, absent: 1, late: 1, excused: 1 });
    await expectAgree();
    // Late attends, excused is left out of the held days.
    expect((await record('K-01')).summary).toMatchObject({ totalDays: 1, presentDays: 1, absentDays: 0 });
    expect((await record('K-02')).summary).toMatchObject({ totalDays: 0, presentDays: 0, absentDays: 0 });
    expect((await record('K-04')).summary).toMatchObject({ totalDays: 1, presentDays: 0, absentDays: 1 });
    // The history says the status, with the reason of the change.
    const history = await ctx.app.inject({ method: 'GET', url: `/api/attendance/CSE6/${date}/history`, headers: { cookie: faculty } });
    expect(history.json()).toContainEqual(
      expect.objectContaining({ pin: 'K-02', oldStatus: 'absent', newStatus: 'excused', reason: 'Corrected after class' }),
    );
  });

  it('keep concurrent saves of one register consistent', async () => {
    const date = addDays(today, -29);
    const bodies = [0, 1, 2, 3, 4, 5].map((i) => ({
      records: PINS.map((pin, j) => ({ pin, status: (['present', 'absent', 'late', 'excused'] as const)[(i + j) % 4] })),
    }));
    const answers = await Promise.all(bodies.map((body) => put('CSE6', date, body)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    await expectAgree();
  });

  it('file lectures under their subject, and keep a date to either a whole-day register or periods', async () => {
    const date = addDays(today, -28);
    await ctx.database.db.insert(timetableSlots).values([
      { className: 'CSE6', weekday: weekdayOf(date), period: 1, subjectCode: 'DS' },
      { className: 'CSE6', weekday: weekdayOf(date), period: 2, subjectCode: 'OS' },
    ]);
    const periods = await ctx.app.inject({ method: 'GET', url: `/api/attendance/CSE6/${date}/periods`, headers: { cookie: faculty } });
    expect(periods.json()).toEqual([
      { period: 1, subject: { code: 'DS', name: 'Data Structures' }, submitted: false, stats: null },
      { period: 2, subject: { code: 'OS', name: 'Operating Systems' }, submitted: false, stats: null },
    ]);
    const first = await put('CSE6', date, { records: PINS.map((pin) => ({ pin, status: 'present' })) }, 1);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ period: 1, subject: { code: 'DS', name: 'Data Structures' } });
    const reread = await ctx.app.inject({ method: 'GET', url: `/api/attendance/CSE6/${date}?period=1`, headers: { cookie: faculty } });
    expect(first.json()).toEqual(reread.json());
    expect((await put('CSE6', date, { records: [{ pin: 'K-01', status: 'late' }] }, 2)).statusCode).toBe(200);
    // A whole-day register on a day of lectures would count the day twice.
    const mixed = await put('CSE6', date, { records: [] });
    expect(mixed.statusCode).toBe(409);
    expect(mixed.json()).toEqual({ message: 'Choose a period' });
    // A period the timetable does not hold needs its subject.
    const extra = await put('CSE6', date, { records: [] }, 3);
    expect(extra.statusCode).toBe(400);
    expect((await put('CSE6', date, { subject: 'DS', records: [] }, 3)).statusCode).toBe(200);
    await expectAgree();

    const k1 = await record('K-01');
    expect(k1.subjects).toEqual([
      { code: 'DS', name: 'Data Structures', held: 2, attended: 1, percentage: 50, status: 'Low', canMiss: 0 },
      { code: 'OS', name: 'Operating Systems', held: 1, attended: 1, percentage: 100, status: 'Good', canMiss: 0 },
    ]);
    // A day of three lectures gives three marks.
    expect(k1.history.filter((h) => h.date === date).map((h) => [h.period, h.subject?.code, h.status])).toEqual([
      [3, 'DS', 'absent'],
      [2, 'OS', 'late'],
      [1, 'DS', 'present'],
    ]);
  });

  it('keep a student\'s counts when they move class', async () => {
    const date = addDays(today, -27);
    expect((await put('CSE6', date, { records: [{ pin: 'K-04', status: 'present' }] })).statusCode).toBe(200);
    await ctx.database.db.update(students).set({ className: 'CSE7' }).where(sql`${students.pin} = 'K-04'`);
    expect((await put('CSE7', date, { records: [{ pin: 'K-04', status: 'absent' }] })).statusCode).toBe(200);
    await expectAgree();
    await ctx.database.db.update(students).set({ className: 'CSE6' }).where(sql`${students.pin} = 'K-04'`);
  });

  it('move registers and counts into a term created over their dates, and out when it shrinks', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/terms',
      headers: { cookie: admin },
      payload: { name: 'Counted term', startsOn: addDays(today, -29), endsOn: addDays(today, -27) },
    });
    expect(created.statusCode).toBe(201);
    const termId = (created.json() as { id: string }).id;
    await expectAgree();
    const inTerm = await record('K-01', `?term=${termId}`);
    const allTime = await record('K-01');
    // The first register (30 days ago) is outside the term.
    expect(inTerm.summary.totalDays).toBe(allTime.summary.totalDays - 1);

    const shrunk = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/admin/terms/${termId}`,
      headers: { cookie: admin },
      payload: { startsOn: addDays(today, -28) },
    });
    expect(shrunk.statusCode).toBe(200);
    await expectAgree();
    const [row] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from attendance_sessions where term_id = ${termId}::uuid`,
    );
    // Days -28 (three lectures) and -27 (CSE6 and CSE7).
    expect(row?.n).toBe(5);
  });

  it('refuses an unknown status and a period out of range', async () => {
    const date = addDays(today, -26);
    const badStatus = await put('CSE6', date, { records: [{ pin: 'K-01', status: 'asleep' }] });
    expect(badStatus.statusCode).toBe(400);
    const badPeriod = await put('CSE6', date, { records: [] }, 13);
    expect(badPeriod.statusCode).toBe(400);
    await expectAgree();
  });

  it('orders and cuts the students exactly, whatever their counts', async () => {
    const { db } = ctx.database;
    const added = await db
      .insert(terms)
      .values([
        { name: 'Exact order', startsOn: '1790-01-01', endsOn: '1790-05-31' },
        { name: 'Exact threshold', startsOn: '1791-01-01', endsOn: '1791-05-31' },
      ])
      .returning({ id: terms.id });
    const [order, threshold] = added.map(({ id }) => id) as [string, string];
    try {
      await db.insert(studentCounters).values([
        // A third each, with late marks attending too, then one just under a third.
        { pin: 'K-01', subjectCode: '', termId: order, present: 2, absent: 4 },
        { pin: 'K-02', subjectCode: 'DS', termId: order, present: 1, absent: 2 },
        { pin: 'K-03', subjectCode: '', termId: order, present: 33_333_332, late: 1, absent: 66_666_666 },
        { pin: 'K-04', subjectCode: '', termId: order, present: 16_777_215, absent: 33_554_431 },
        // 37.5%, on the threshold of a fractional cut.
        { pin: 'K-01', subjectCode: '', termId: threshold, present: 2, late: 1, absent: 5, excused: 4 },
      ]);
      const pins = async (options: Parameters<typeof studentTotals>[1]) => (await studentTotals(db, options)).map((row) => row.pin);
      // Ties (equal fractions, however large their terms) by PIN; the one just under a third first.
      expect(await pins({ termId: order })).toEqual(['K-04', 'K-01', 'K-02', 'K-03']);
      expect(await pins({ termId: order, below: 34 })).toEqual(['K-04', 'K-01', 'K-02', 'K-03']);
      expect(await pins({ termId: order, below: 33 })).toEqual([]);
      expect(await pins({ termId: order, below: 33.3333333 })).toEqual(['K-04']);
      expect(await pins({ termId: order, subjectCode: 'DS', below: 34 })).toEqual(['K-02']);
      expect(await pins({ termId: threshold, below: 37.5 })).toEqual([]);
      expect(await pins({ termId: threshold, below: 37.51 })).toEqual(['K-01']);
      expect(await pins({ termId: threshold, below: 38 })).toEqual(['K-01']);
      expect(await pins({ termId: threshold, below: 37 })).toEqual([]);
    } finally {
      await db.delete(studentCounters).where(inArray(studentCounters.termId, added.map(({ id }) => id)));
      await db.delete(terms).where(inArray(terms.id, added.map(({ id }) => id)));
    }
    await expectAgree();
  });

  it("read one term's counters through the index, however many terms the portal keeps", async () => {
    const { db } = ctx.database;
    // Two hundred past terms, each with counters for every student and subject: the current
    // term's are a small part of the table.
    const past = await db
      .insert(terms)
      .values(Array.from({ length: 200 }, (_, index) => ({ name: `Past term ${index}`, startsOn: `${1800 + index}-01-01`, endsOn: `${1800 + index}-05-31` })))
      .returning({ id: terms.id });
    try {
      await db.insert(studentCounters).values(
        past.flatMap(({ id }) =>
          PINS.flatMap((pin) => ['', 'DS', 'OS', 'M1', 'M2'].map((subjectCode) => ({ pin, subjectCode, termId: id, present: 3, absent: 1 }))),
        ),
      );
      await db.execute(sql`analyze student_counters`);
      // The very statement each read sends, explained instead of run.
      // An executor whose statements are prepared with `explain` in front, through the database's session.
      type Prepare = Executor['_']['session']['prepareQuery'];
      const prepareExplained = ((query, ...rest) => db._.session.prepareQuery({ ...query, sql: `explain ${query.sql}` }, ...rest)) as Prepare;
      const explaining = { _: { session: { prepareQuery: prepareExplained } } } as unknown as Executor;
      const plan = async (rows: Promise<unknown[]>) => ((await rows) as { 'QUERY PLAN': string }[]).map((row) => row['QUERY PLAN']).join('\n');
      for (const scope of [{ termId: past[7]!.id }, { termId: null }]) {
        const text = await plan(studentTotals(explaining, { ...scope, below: 75 }));
        expect(text, JSON.stringify(scope)).toMatch(/student_counters_term_subject_idx/);
        expect(text, JSON.stringify(scope)).not.toMatch(/Seq Scan on student_counters/);
      }
      // And what it reads is that term's alone.
      const listed = await studentTotals(db, { termId: past[7]!.id });
      expect(listed.map((row) => [row.pin, row.attended, row.absent])).toEqual(PINS.map((pin) => [pin, 15, 5]));
    } finally {
      await db.delete(studentCounters).where(inArray(studentCounters.termId, past.map(({ id }) => id)));
      await db.delete(terms).where(inArray(terms.id, past.map(({ id }) => id)));
    }
    await expectAgree();
  });
  it('keep room on their pages for the updates of a save, and are rebuilt side by side per subject and term', async () => {
    const { db } = ctx.database;
    const [options] = await queryRows<{ options: string[] | null }>(db, sql`select reloptions as options from pg_class where relname = 'student_counters'`);
    expect(options?.options).toContain('fillfactor=70');

    await db.transaction((tx) => rebuildCounters(tx));
    await expectAgree();
    // Read in the table's physical order: the rows of each (term, subject) follow each other, by PIN.
    const rows = await queryRows<{ term: string | null; subject: string; pin: string }>(
      db,
      sql`select term_id as term, subject_code as subject, pin from student_counters order by ctid`,
    );
    expect(rows.length).toBeGreaterThan(1);
    const groups = rows.map((row) => `${row.term ?? ''} ${row.subject}`);
    const seen = new Set<string>();
    groups.forEach((group, index) => {
      if (index === 0 || group !== groups[index - 1]) {
        expect(seen.has(group), `${group} comes back after another`).toBe(false);
        seen.add(group);
      } else {
        expect(Buffer.compare(Buffer.from(rows[index - 1]!.pin), Buffer.from(rows[index]!.pin))).toBeLessThan(0);
      }
    });
  });
});
