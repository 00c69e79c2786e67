import { eq, sql } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../shared/dates';
import { AuditPageSchema } from '../../../shared/schemas/audit';
import { DashboardSchema, StudentSummaryListSchema } from '../../../shared/schemas/reports';
import { StudentRecordSchema } from '../../../shared/schemas/students';
import { TERM_HEADER, TermListItemSchema, TermListSchema, type Term } from '../../../shared/schemas/terms';
import { attendanceMarks, registers, students } from '../../db/schema';
import { expectAdminOnly } from '../../test/admin-access';
import { seedDemo } from '../../seed/demo';
import { createTestContext, withStaffApp, type TestContext } from '../../test/test-app';
import { resolveTermRange } from './service';

/** The test app runs in UTC. */
const today = todayIn('UTC');
const day = (offset: number) => addDays(today, offset);

function request(ctx: TestContext, cookie: string | null, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) {
  return ctx.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
}

describe('terms: routes, roles and rules', () => {
  let ctx: TestContext;
  let admin: string;
  const ADMIN_EMAIL = 'terms-admin@test.university.edu';

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.signIn('admin', { email: ADMIN_EMAIL });
  }, 60_000);
  afterAll(() => ctx.close());

  const post = (payload: object, cookie: string | null = admin) => request(ctx, cookie, 'POST', '/api/admin/terms', payload);
  const patch = (id: string, payload: object, cookie: string | null = admin) => request(ctx, cookie, 'PATCH', `/api/admin/terms/${id}`, payload);

  async function created(payload: { name: string; startsOn: string; endsOn: string }): Promise<Term> {
    const answer = await post(payload);
    expect(answer.statusCode, answer.body).toBe(201);
    return TermListItemSchema.parse(answer.json());
  }

  it('POST /api/admin/terms is for admins only and answers 201 with the term', async () => {
    const answer = await expectAdminOnly(ctx, {
      method: 'POST',
      url: '/api/admin/terms',
      payload: { name: '  Autumn 2030 ', startsOn: '2030-07-01', endsOn: '2030-11-30' },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(TermListItemSchema.parse(answer.json())).toMatchObject({
      name: 'Autumn 2030',
      startsOn: '2030-07-01',
      endsOn: '2030-11-30',
      current: false,
    });
  });

  it('PATCH /api/admin/terms/:id is for admins only', async () => {
    const term = await created({ name: 'Spring 2031', startsOn: '2031-01-05', endsOn: '2031-05-31' });
    const answer = await expectAdminOnly(ctx, { method: 'PATCH', url: `/api/admin/terms/${term.id}`, payload: { name: 'Spring term 2031' } });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ id: term.id, name: 'Spring term 2031', startsOn: '2031-01-05', endsOn: '2031-05-31' });
  });

  it('GET /api/terms answers faculty and students, newest first with the current term marked, and asks the signed-out to sign in', async () => {
    const now = await created({ name: 'The current term', startsOn: day(-3), endsOn: day(3) });
    expect(now).toMatchObject({ current: true });
    expect((await request(ctx, null, 'GET', '/api/terms')).statusCode).toBe(401);
    for (const role of ['faculty', 'student'] as const) {
      const answer = await request(ctx, await ctx.signIn(role), 'GET', '/api/terms');
      expect(answer.statusCode, `${role}: ${answer.body}`).toBe(200);
      expect(answer.headers['cache-control']).toBe('private, no-store');
      const list = TermListSchema.parse(answer.json());
      const starts = list.map((term) => term.startsOn);
      expect(starts).toEqual([...starts].sort().reverse());
      expect(list.filter((term) => term.current).map((term) => term.name)).toEqual(['The current term']);
      expect(list.map((term) => term.name)).toEqual(expect.arrayContaining(['Autumn 2030', 'Spring term 2031']));
    }
  });

  it('refuses a term that ends before it starts, on create and on change, with 400', async () => {
    const backwards = await post({ name: 'Backwards', startsOn: '2032-05-01', endsOn: '2032-04-30' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toBe('A term must end on or after the day it starts');

    const term = await created({ name: 'Autumn 2032', startsOn: '2032-07-01', endsOn: '2032-11-30' });
    const moved = await patch(term.id, { startsOn: '2032-12-01' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().message).toBe('A term must end on or after the day it starts');

    expect((await post({ name: 'Bad date', startsOn: '2032-02-30', endsOn: '2032-03-01' })).statusCode).toBe(400);
    expect((await post({ name: '   ', startsOn: '2033-01-01', endsOn: '2033-01-02' })).statusCode).toBe(400);
    expect((await patch(term.id, {})).statusCode).toBe(400);
  });

  it('refuses a name another term has, whatever its case, with 409', async () => {
    await created({ name: 'Winter 2034', startsOn: '2034-01-01', endsOn: '2034-02-28' });
    const again = await post({ name: 'WINTER 2034', startsOn: '2034-12-01', endsOn: '2034-12-20' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('There is already a term named Winter 2034');
    const other = await created({ name: 'Summer 2034', startsOn: '2034-05-01', endsOn: '2034-06-30' });
    expect((await patch(other.id, { name: 'winter 2034' })).statusCode).toBe(409);
  });

  it('answers 404 for an unknown id', async () => {
    const unknown = await patch('00000000-0000-4000-8000-000000000000', { name: 'Nobody' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No term with this id');
    expect((await patch('not-a-term', { name: 'Nobody' })).statusCode).toBe(404);
  });

  it('refuses overlapping terms with 409 naming the other term; a shared last and first day is an overlap', async () => {
    await created({ name: 'Year 2036', startsOn: '2036-01-01', endsOn: '2036-12-31' });
    const touching = await post({ name: 'Year 2037', startsOn: '2036-12-31', endsOn: '2037-12-31' });
    expect(touching.statusCode).toBe(409);
    expect(touching.json().message).toBe('These dates overlap Year 2036 (2036-01-01 to 2036-12-31): terms cannot overlap');
    const inside = await post({ name: 'Inside 2036', startsOn: '2036-03-01', endsOn: '2036-03-02' });
    expect(inside.statusCode).toBe(409);
    const around = await post({ name: 'Around 2036', startsOn: '2035-12-01', endsOn: '2037-01-31' });
    expect(around.statusCode).toBe(409);

    // The day after is free; moving it onto the other term is refused, moving it within its own dates is not.
    const next = await created({ name: 'Year 2037', startsOn: '2037-01-01', endsOn: '2037-12-31' });
    const onto = await patch(next.id, { startsOn: '2036-12-31' });
    expect(onto.statusCode).toBe(409);
    expect(onto.json().message).toMatch(/Year 2036/);
    const within = await patch(next.id, { startsOn: '2037-01-10', endsOn: '2037-12-20' });
    expect(within.statusCode, within.body).toBe(200);
  });

  it('lets only one of several overlapping terms created at the same moment in', async () => {
    // On PostgreSQL, open the pool's connections first: otherwise opening them staggers the
    // requests so much that each one commits before the next begins, and nothing races.
    await Promise.all(Array.from({ length: 8 }, () => ctx.database.db.execute(sql`select pg_sleep(0.05)`)));
    const answers = await Promise.all(
      ['A', 'B', 'C', 'D', 'E', 'F'].map((letter, i) =>
        post({ name: `Race ${letter}`, startsOn: addDays('2040-01-01', i), endsOn: addDays('2040-06-30', i) }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const list = TermListSchema.parse((await request(ctx, admin, 'GET', '/api/terms')).json());
    expect(list.filter((term) => term.name.startsWith('Race '))).toHaveLength(1);
  });

  it('records each term created and changed in the audit trail, by the admin who did it', async () => {
    const term = await created({ name: 'Audited 2045', startsOn: '2045-01-01', endsOn: '2045-06-30' });
    expect((await patch(term.id, { name: 'Audited spring 2045', endsOn: '2045-05-31' })).statusCode).toBe(200);
    // A change that changes nothing is not an action.
    expect((await patch(term.id, { name: 'Audited spring 2045' })).statusCode).toBe(200);
    // A refused change leaves no entry.
    expect((await patch(term.id, { startsOn: '2040-06-01' })).statusCode).toBe(409);

    const trail = async (action: string) =>
      AuditPageSchema.parse((await request(ctx, admin, 'GET', `/api/admin/audit?action=${action}&limit=500`)).json()).entries;
    const creates = (await trail('term.create')).filter((entry) => entry.target === 'Audited 2045');
    expect(creates).toHaveLength(1);
    expect(creates[0]).toMatchObject({ actor: ADMIN_EMAIL, detail: { startsOn: '2045-01-01', endsOn: '2045-06-30' } });
    const updates = (await trail('term.update')).filter((entry) => entry.target === 'Audited spring 2045');
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({
      actor: ADMIN_EMAIL,
      detail: { name: { from: 'Audited 2045', to: 'Audited spring 2045' }, endsOn: { from: '2045-06-30', to: '2045-05-31' } },
    });
  });
});

describe('the default term', () => {
  let ctx: TestContext;
  let admin: string;
  let faculty: string;

  withStaffApp((made) => ({ ctx, admin, faculty } = made));
  beforeAll(async () => {
    await ctx.database.db.insert(students).values({ pin: 'DEF1', name: 'Default One', className: 'CSE6' });
  });

  async function defaults(): Promise<(string | null)[]> {
    const dashboard = DashboardSchema.parse((await request(ctx, faculty, 'GET', '/api/reports/dashboard')).json());
    const record = StudentRecordSchema.parse((await request(ctx, faculty, 'GET', '/api/students/DEF1')).json());
    const summaries = await request(ctx, faculty, 'GET', '/api/reports/students');
    const range = await resolveTermRange(ctx.database.db, undefined, today);
    return [dashboard.term?.name ?? null, record.term?.name ?? null, summaries.headers[TERM_HEADER] as string, range.term?.name ?? null];
  }

  async function add(name: string, startsOn: string, endsOn: string): Promise<string> {
    const answer = await request(ctx, admin, 'POST', '/api/admin/terms', { name, startsOn, endsOn });
    expect(answer.statusCode, answer.body).toBe(201);
    return TermListItemSchema.parse(answer.json()).id;
  }

  it('is all time while there is no term, then the latest term that has ended, then the term that holds today', async () => {
    expect(await defaults()).toEqual([null, null, 'all', null]);
    expect(await resolveTermRange(ctx.database.db, undefined, today)).toEqual({ term: null, from: null, to: null });

    // Only a term to come: still all time.
    await add('Next', day(10), day(100));
    expect(await defaults()).toEqual([null, null, 'all', null]);

    await add('Long ago', day(-400), day(-300));
    const recentId = await add('Recent', day(-200), day(-1));
    expect(await defaults()).toEqual(['Recent', 'Recent', recentId, 'Recent']);
    expect(await resolveTermRange(ctx.database.db, undefined, today)).toMatchObject({ from: day(-200), to: day(-1) });

    const nowId = await add('Now', day(0), day(9));
    expect(await defaults()).toEqual(['Now', 'Now', nowId, 'Now']);

    // ?term= overrides the default either way.
    expect((await resolveTermRange(ctx.database.db, 'all', today)).term).toBeNull();
    expect((await resolveTermRange(ctx.database.db, recentId, today)).term?.name).toBe('Recent');
  });

  it('an unknown ?term= is a 404 on every answer that takes it', async () => {
    for (const url of [
      '/api/reports/dashboard?term=00000000-0000-4000-8000-000000000000',
      '/api/reports/students?term=00000000-0000-4000-8000-000000000000',
      '/api/students/DEF1?term=nonsense',
      '/api/students/DEF1/report.pdf?term=00000000-0000-4000-8000-000000000000',
    ]) {
      const answer = await request(ctx, faculty, 'GET', url);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json(), url).toEqual({ message: 'No term with this id' });
    }
  });
});

describe('figures scoped to a term', () => {
  let ctx: TestContext;
  let faculty: string;
  let termId: string;
  let currentId: string;
  /** The term under test: today-20 to today-10. */
  const TERM = { from: day(-20), to: day(-10) };
  /** The term that holds today, so the default: today-5 to today+30. */
  const CURRENT = { from: day(-5), to: day(30) };

  const ROSTER: Record<string, string[]> = { CSE1: ['F1', 'F2', 'F3'], CSE2: ['G1', 'G2'] };
  /** Registers saved through the API: class, day offset, who was present. Inside the term, before it, between, in the current one. */
  const REGISTERS: [string, number, string[]][] = [
    ['CSE1', -25, ['F1', 'F2', 'F3']],
    ['CSE1', -20, ['F1']],
    ['CSE1', -15, ['F1', 'F2']],
    ['CSE2', -12, []],
    ['CSE2', -10, ['G1']],
    ['CSE1', -8, ['F3']],
    ['CSE2', -7, ['G1', 'G2']],
    ['CSE1', -2, ['F2']],
    ['CSE2', 0, ['G2']],
  ];

  beforeAll(async () => {
    ctx = await createTestContext();
    const admin = await ctx.signIn('admin');
    faculty = await ctx.signIn('faculty');
    await ctx.database.db
      .insert(students)
      .values(Object.entries(ROSTER).flatMap(([className, pins]) => pins.map((pin) => ({ pin, name: `Name ${pin}`, className }))));
    for (const [className, offset, present] of REGISTERS) {
      const saved = await request(ctx, faculty, 'PUT', `/api/attendance/${className}/${day(offset)}`, {
        records: ROSTER[className]!.map((pin) => ({ pin, present: present.includes(pin) })),
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const made = async (name: string, range: { from: string; to: string }) => {
      const answer = await request(ctx, admin, 'POST', '/api/admin/terms', { name, startsOn: range.from, endsOn: range.to });
      expect(answer.statusCode, answer.body).toBe(201);
      return TermListItemSchema.parse(answer.json()).id;
    };
    termId = await made('Scoped term', TERM);
    currentId = await made('Current term', CURRENT);
  }, 60_000);
  afterAll(() => ctx.close());

  /** Every mark in the database with its register's date, read straight from the tables. */
  async function marks() {
    return ctx.database.db
      .select({ pin: attendanceMarks.pin, className: attendanceMarks.className, present: sql<boolean>`${attendanceMarks.status} in ('present', 'late')`, date: registers.date })
      .from(attendanceMarks)
      .innerJoin(registers, eq(registers.id, attendanceMarks.registerId));
  }

  /** The figures recomputed from the marks of the range (null: every date). */
  async function expected(range: { from: string; to: string } | null) {
    const kept = (await marks()).filter((mark) => range === null || (mark.date >= range.from && mark.date <= range.to));
    const count = (rows: typeof kept) => ({ present: rows.filter((m) => m.present).length, absent: rows.filter((m) => !m.present).length });
    const perClass = Object.fromEntries(Object.keys(ROSTER).map((name) => [name, count(kept.filter((m) => m.className === name))]));
    const pins = [...new Set(kept.map((m) => m.pin))].sort();
    const perStudent = Object.fromEntries(pins.map((pin) => [pin, count(kept.filter((m) => m.pin === pin))]));
    const history = (pin: string) => kept.filter((m) => m.pin === pin).map((m) => m.date).sort().reverse();
    return { overall: count(kept), perClass, perStudent, history };
  }

  const cases = (): [string, string, { from: string; to: string } | null, () => string | null][] => [
    ['?term=<id>', `term=${termId}`, TERM, () => termId],
    ['?term=all', 'term=all', null, () => null],
    ['the default (the term that holds today)', '', CURRENT, () => currentId],
  ];

  it('dashboard totals and class-wise totals are those of the marks of the term, the 7- and 30-day reports are not scoped', async () => {
    const unscoped = DashboardSchema.parse((await request(ctx, faculty, 'GET', '/api/reports/dashboard?term=all')).json());
    for (const [label, query, range, id] of cases()) {
      const answer = await request(ctx, faculty, 'GET', `/api/reports/dashboard?${query}`);
      expect(answer.statusCode, answer.body).toBe(200);
      const dashboard = DashboardSchema.parse(answer.json());
      const want = await expected(range);
      expect(dashboard.term?.id ?? null, label).toBe(id());
      if (range) expect(dashboard.term, label).toMatchObject({ startsOn: range.from, endsOn: range.to });
      expect(dashboard.overallAttendance, label).toMatchObject({ ...want.overall, total: want.overall.present + want.overall.absent });
      for (const row of dashboard.classWiseAttendance.filter((r) => r.className in ROSTER)) {
        expect({ present: row.presentCount, absent: row.absentCount }, `${label} ${row.className}`).toEqual(want.perClass[row.className]);
      }
      expect(dashboard.weeklyReport, label).toEqual(unscoped.weeklyReport);
      expect(dashboard.monthlyReport, label).toEqual(unscoped.monthlyReport);
    }
    // The scoped term really leaves marks out: the check above can fail.
    expect((await expected(TERM)).overall).not.toEqual((await expected(null)).overall);
  });

  it("student summaries and each student's record count the marks of the term", async () => {
    for (const [label, query, range, id] of cases()) {
      const want = await expected(range);
      const answer = await request(ctx, faculty, 'GET', `/api/reports/students?${query}`);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.headers[TERM_HEADER], label).toBe(id() ?? 'all');
      const summaries = StudentSummaryListSchema.parse(answer.json());
      expect(
        Object.fromEntries(summaries.map((s) => [s.pin, { present: s.presentDays, absent: s.absentDays }])),
        label,
      ).toEqual(want.perStudent);

      for (const pin of [...ROSTER.CSE1!, ...ROSTER.CSE2!]) {
        const recordAnswer = await request(ctx, faculty, 'GET', `/api/students/${pin}${query ? `?${query}` : ''}`);
        expect(recordAnswer.statusCode, recordAnswer.body).toBe(200);
        const record = StudentRecordSchema.parse(recordAnswer.json());
        const counts = want.perStudent[pin] ?? { present: 0, absent: 0 };
        expect(record.term?.id ?? null, `${label} ${pin}`).toBe(id());
        expect(record.summary, `${label} ${pin}`).toMatchObject({
          presentDays: counts.present,
          absentDays: counts.absent,
          totalDays: counts.present + counts.absent,
        });
        expect(record.history.map((h) => h.date), `${label} ${pin}`).toEqual(want.history(pin));
      }
    }
  });

  it('the PDF report covers the term and names it', async () => {
    const answer = await request(ctx, faculty, 'GET', `/api/students/F1/report.pdf?term=${termId}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    const parser = new PDFParse({ data: new Uint8Array(answer.rawPayload) });
    try {
      const text = (await parser.getText()).text;
      expect(text).toContain(`Scoped term (${TERM.from} to ${TERM.to})`);
      const want = (await expected(TERM)).perStudent.F1!;
      expect(text).toMatch(new RegExp(`Total Days:\\s*${want.present + want.absent}\\b`));
    } finally {
      await parser.destroy();
    }
  });
});

describe('demo data', () => {
  it('has a current term that holds every demo register, so the default term shows them all', async () => {
    const ctx = await createTestContext();
    try {
      await seedDemo(ctx.database.db, 'UTC');
      const faculty = await ctx.signIn('faculty');
      const list = TermListSchema.parse((await request(ctx, faculty, 'GET', '/api/terms')).json());
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ current: true, startsOn: day(-30), endsOn: day(90) });
      const scoped = DashboardSchema.parse((await request(ctx, faculty, 'GET', '/api/reports/dashboard')).json());
      const all = DashboardSchema.parse((await request(ctx, faculty, 'GET', '/api/reports/dashboard?term=all')).json());
      expect(scoped.term?.id).toBe(list[0]!.id);
      expect(scoped.overallAttendance.total).toBeGreaterThan(0);
      expect(scoped.overallAttendance).toEqual(all.overallAttendance);
    } finally {
      await ctx.close();
    }
  }, 60_000);
});
