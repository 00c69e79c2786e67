import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../shared/dates';
import type { Dashboard } from '../../../shared/schemas/reports';
import { buildApp } from '../../app';
import { queryRows } from '../../db/client';
import { createTestContext, type TestContext, TEST_APP_CONFIG } from '../../test/test-app';
import { getDashboard } from '../reports/service';

/**
 * Cached reports (decision 14): an unchanged report is a 304 (or an answer from memory), and
 * every kind of write that feeds one gives a fresh answer with a new ETag, in every process.
 */
let ctx: TestContext;
let other: FastifyInstance;
let faculty: string;
let admin: string;
const today = todayIn('UTC');

beforeAll(async () => {
  ctx = await createTestContext();
  // A second server process on the same database, with its own memory.
  other = await buildApp({ database: ctx.database, config: { ...TEST_APP_CONFIG } });
  await other.ready();
  faculty = await ctx.signIn('faculty');
  admin = await ctx.signIn('admin');
  await importRoster('pin,name,class\nRC-1,Asha,CSE1\nRC-2,Ravi,CSE1\n');
}, 60_000);
afterAll(async () => {
  await other.close();
  await ctx.close();
});

/** An admin's roster import (the whole roster), through the first process. */
async function importRoster(csv: string) {
  const imported = await ctx.app.inject({ method: 'POST', url: '/api/admin/roster/import', headers: { 'content-type': 'text/csv', cookie: admin }, payload: csv });
  expect(imported.statusCode, imported.body).toBe(200);
}

function get(app: FastifyInstance, url: string, cookie: string, etag?: string) {
  const headers: InjectOptions['headers'] = { cookie, ...(etag ? { 'if-none-match': etag } : {}) };
  return app.inject({ method: 'GET', url, headers });
}

/** 200 with an ETag, then 304 with the same ETag and no body when asked again with it. */
async function tagOf(url: string, cookie = faculty, app = ctx.app): Promise<string> {
  const first = await get(app, url, cookie);
  expect(first.statusCode, url).toBe(200);
  const etag = first.headers.etag as string;
  expect(etag).toMatch(/^"r\d+\.\d+(\.[\w-]{8})?-[\w-]+"$/);
  expect(first.headers['cache-control']).toBe('private, no-cache');
  const again = await get(app, url, cookie, etag);
  expect(again.statusCode, url).toBe(304);
  expect(again.body).toBe('');
  expect(again.headers.etag).toBe(etag);
  return etag;
}

/** After a write, the old tag gets a fresh 200 with a new tag. */
async function expectFresh(url: string, etag: string, cookie = faculty, app = ctx.app) {
  const after = await get(app, url, cookie, etag);
  expect(after.statusCode, url).toBe(200);
  expect(after.headers.etag).not.toBe(etag);
  return after;
}

describe('cached reports', () => {
  const URLS = ['/api/reports/dashboard', '/api/reports/students?below=75', '/api/reports/subjects', '/api/classes', '/api/students/RC-1'];

  it('answer 304 while nothing changes, and afresh after a register is saved', async () => {
    const tags = await Promise.all(URLS.map((url) => tagOf(url)));
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/attendance/CSE1/${addDays(today, -1)}`,
      headers: { cookie: faculty },
      payload: { records: [{ pin: 'RC-1', status: 'present' }] },
    });
    expect(saved.statusCode).toBe(200);
    for (const [index, url] of URLS.entries()) await expectFresh(url, tags[index]!);
    const dashboard = (await get(ctx.app, '/api/reports/dashboard?term=all', faculty)).json() as { overallAttendance: { present: number } };
    expect(dashboard.overallAttendance.present).toBe(1);
  });

  it('answer afresh after a roster import, a term change and a profile edit', async () => {
    let tag = await tagOf('/api/reports/dashboard');
    const cardsTag = await tagOf('/api/classes');
    await importRoster('pin,name,class\nRC-1,Asha,CSE1\nRC-2,Ravi,CSE1\nRC-3,Mira,CSE1\n');
    const afterImport = await expectFresh('/api/reports/dashboard', tag);
    expect((afterImport.json() as { classWiseAttendance: { className: string; totalStudents: number }[] }).classWiseAttendance[0]).toMatchObject({
      className: 'CSE1',
      totalStudents: 3,
    });
    // The class cards' roster sizes too, though remembered per reports version.
    const cards = await expectFresh('/api/classes', cardsTag);
    expect((cards.json() as { name: string; studentCount: number }[]).find((card) => card.name === 'CSE1')).toMatchObject({ studentCount: 3 });

    tag = await tagOf('/api/reports/dashboard');
    const term = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/terms',
      headers: { cookie: admin },
      payload: { name: 'Cached term', startsOn: addDays(today, -10), endsOn: addDays(today, 10) },
    });
    expect(term.statusCode).toBe(201);
    // The default term is remembered per data version: the new one holds today, and is the answer's.
    const afterTerm = await expectFresh('/api/reports/dashboard', tag);
    expect((afterTerm.json() as { term: { name: string } | null }).term?.name).toBe('Cached term');

    const profile = await ctx.app.inject({
      method: 'POST',
      url: '/api/registrations',
      headers: { cookie: faculty },
      payload: { name: 'Asha', designation: 'CSE', pin: 'RC-1' },
    });
    expect(profile.statusCode).toBe(201);
    tag = await tagOf('/api/students/RC-1');
    const edited = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/registrations/${(profile.json() as { id: string }).id}`,
      headers: { cookie: faculty },
      payload: { designation: 'CSE, 3rd year' },
    });
    expect(edited.statusCode).toBe(200);
    const record = await expectFresh('/api/students/RC-1', tag);
    expect((record.json() as { profile: { designation: string } }).profile.designation).toBe('CSE, 3rd year');
  });

  it('never crosses viewers: a student cannot read another PIN from memory, even with its tag', async () => {
    const tag = await tagOf('/api/students/RC-1');
    const stranger = await ctx.signIn('student', { pin: 'RC-2' });
    for (const etag of [undefined, tag]) {
      const refused = await get(ctx.app, '/api/students/RC-1', stranger, etag);
      expect(refused.statusCode).toBe(403);
    }
    expect((await get(ctx.app, '/api/reports/dashboard', stranger)).statusCode).toBe(403);
  });

  it('agree between two processes: a save through one gives the other a fresh answer', async () => {
    const tag = await tagOf('/api/reports/dashboard', faculty, other);
    const before = (await get(other, '/api/reports/dashboard?term=all', faculty)).json() as { overallAttendance: { present: number } };
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/attendance/CSE1/${addDays(today, -2)}`,
      headers: { cookie: faculty },
      payload: { records: [{ pin: 'RC-2', status: 'late' }] },
    });
    expect(saved.statusCode).toBe(200);
    await expectFresh('/api/reports/dashboard', tag, faculty, other);
    const after = (await get(other, '/api/reports/dashboard?term=all', faculty)).json() as { overallAttendance: { present: number } };
    // Late attends: one more present mark.
    expect(after.overallAttendance.present).toBe(before.overallAttendance.present + 1);
  });

  it("show a save of an earlier day in the dashboard's series at once in both processes, as they do today's", async () => {
    type Series = { monthlyReport: { date: string; present: number; absent: number }[] };
    const dayOf = async (app: FastifyInstance, date: string) =>
      ((await get(app, '/api/reports/dashboard?term=all', faculty)).json() as Series).monthlyReport.find((row) => row.date === date) ?? { present: 0, absent: 0 };
    const earlier = addDays(today, -5);
    // Both processes have read (and remember) the series' earlier days.
    for (const app of [ctx.app, other]) expect(await dayOf(app, earlier)).toMatchObject({ present: 0, absent: 0 });
    for (const [date, status] of [[earlier, 'present'], [today, 'absent']] as const) {
      const saved = await ctx.app.inject({
        method: 'PUT',
        url: `/api/attendance/CSE1/${date}`,
        headers: { cookie: faculty },
        payload: { records: [{ pin: 'RC-1', status }, { pin: 'RC-2', status }] },
      });
      expect(saved.statusCode).toBe(200);
      for (const app of [ctx.app, other]) {
        // The two marked so (the class's other students are absent).
        const day = await dayOf(app, date);
        const where = `${date} in ${app === other ? 'the other' : 'this'} process`;
        if (status === 'present') expect(day.present, where).toBe(2);
        else expect([day.present, day.absent >= 2], where).toEqual([0, true]);
      }
    }
  });

  it("keep each process's class table between saves, taking in only the classes saved since, as a full read gives them", async () => {
    await importRoster('pin,name,class\nRC-1,Asha,CSE1\nRC-2,Ravi,CSE1\nRC-4,Dev,CSE4\n');
    type Figures = Pick<Dashboard, 'overallAttendance' | 'classWiseAttendance'>;
    const figures = ({ overallAttendance, classWiseAttendance }: Figures): Figures => ({ overallAttendance, classWiseAttendance });
    const read = async (app: FastifyInstance) => figures((await get(app, '/api/reports/dashboard', faculty)).json() as Dashboard);
    // A table is kept for a term: one that holds today (made here when no earlier test made it).
    if (((await get(ctx.app, '/api/reports/dashboard', faculty)).json() as Dashboard).term === null) {
      const term = await ctx.app.inject({
        method: 'POST',
        url: '/api/admin/terms',
        headers: { cookie: admin },
        payload: { name: 'Class table term', startsOn: addDays(today, -10), endsOn: addDays(today, 10) },
      });
      expect(term.statusCode, term.body).toBe(201);
    }
    // Both processes hold a table.
    for (const app of [ctx.app, other]) await read(app);
    const saves = [
      [ctx.app, 'CSE4', [{ pin: 'RC-4', status: 'present' }]],
      [other, 'CSE1', [{ pin: 'RC-1', status: 'late' }, { pin: 'RC-2', status: 'absent' }]],
      [ctx.app, 'CSE4', [{ pin: 'RC-4', status: 'absent' }]],
      [other, 'CSE1', [{ pin: 'RC-1', status: 'present' }, { pin: 'RC-2', status: 'present' }]],
    ] as const;
    for (const [index, [through, className, records]] of saves.entries()) {
      const saved = await through.inject({
        method: 'PUT',
        url: `/api/attendance/${className}/${addDays(today, -index)}`,
        headers: { cookie: faculty },
        payload: { records },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      // A class's version carries the marks version of the save that last bumped it.
      const versions = await queryRows<{ version: string | number }>(
        ctx.database.db,
        sql`select version from data_versions where name in ('marks', ${`marks:${className}`}) order by name`,
      );
      const [marks, ofClass] = versions.map((row) => Number(row.version));
      expect(ofClass, className).toBe(marks);
      const expected = figures(await getDashboard(ctx.database.db, { timeZone: 'UTC' }));
      for (const app of [ctx.app, other]) expect(await read(app), `after saving ${className}, ${app === other ? 'the other' : 'this'} process`).toEqual(expected);
    }
  });

  it("keep a student's record while another class's register is saved, and not once a mark of theirs changes there", async () => {
    const save = async (date: string, records: { pin: string; status: string }[]) => {
      const saved = await ctx.app.inject({ method: 'PUT', url: `/api/attendance/CSE3/${date}`, headers: { cookie: faculty }, payload: { records } });
      expect(saved.statusCode, saved.body).toBe(200);
    };
    // RC-9 has a mark in a register of CSE3, then moves to CSE1.
    await importRoster('pin,name,class\nRC-1,Asha,CSE1\nRC-2,Ravi,CSE1\nRC-3,Mira,CSE1\nRC-8,Kiran,CSE3\nRC-9,Noor,CSE3\n');
    await save(addDays(today, -3), [
      { pin: 'RC-8', status: 'present' },
      { pin: 'RC-9', status: 'present' },
    ]);
    await importRoster('pin,name,class\nRC-1,Asha,CSE1\nRC-2,Ravi,CSE1\nRC-3,Mira,CSE1\nRC-8,Kiran,CSE3\nRC-9,Noor,CSE1\n');

    const record = await tagOf('/api/students/RC-1');
    const recordElsewhere = await tagOf('/api/students/RC-1', faculty, other);
    const moved = await tagOf('/api/students/RC-9');
    const dashboard = await tagOf('/api/reports/dashboard');
    // A new register of CSE3: the dashboard changes, CSE1's students' records stay, in both processes.
    await save(addDays(today, -4), [{ pin: 'RC-8', status: 'absent' }]);
    await expectFresh('/api/reports/dashboard', dashboard);
    expect((await get(ctx.app, '/api/students/RC-1', faculty, record)).statusCode).toBe(304);
    expect((await get(other, '/api/students/RC-1', faculty, recordElsewhere)).statusCode).toBe(304);
    expect((await get(ctx.app, '/api/students/RC-9', faculty, moved)).statusCode).toBe(304);

    // CSE3's older register again, RC-9's mark there changed: their record is computed afresh.
    await save(addDays(today, -3), [
      { pin: 'RC-8', status: 'present' },
      { pin: 'RC-9', status: 'absent' },
    ]);
    const fresh = await expectFresh('/api/students/RC-9', moved);
    const history = (fresh.json() as { history: { date: string; status: string }[] }).history;
    expect(history.find((entry) => entry.date === addDays(today, -3))?.status).toBe('absent');
  });

  it('keep no answer to a query with a parameter the route does not read, and still keep the others', async () => {
    const known = '/api/reports/students?class=CSE1';
    const unknown = '/api/reports/students?class=CSE1&_=1';
    const presentOf = async (url: string) => {
      const response = await get(ctx.app, url, faculty);
      expect(response.statusCode, url).toBe(200);
      return (response.json() as { pin: string; presentDays: number }[]).find((row) => row.pin === 'RC-1')?.presentDays;
    };
    const before = await presentOf(known);
    expect(before).toBeGreaterThan(0);
    expect(await presentOf(unknown)).toBe(before);
    // A change the reports' version does not hear of: only an answer computed afresh shows it.
    const shift = (by: number) => ctx.database.db.execute(sql`update student_counters set present = present + ${by} where pin = 'RC-1'`);
    await shift(5);
    try {
      expect(await presentOf(known)).toBe(before);
      expect(await presentOf(unknown)).toBe(before! + 5);
    } finally {
      await shift(-5);
    }
  });

  it('send an answer from memory as the bytes computed the first time, compressed as each client accepts', async () => {
    // Enough students that the list passes the compression threshold.
    const rows = Array.from({ length: 40 }, (_, index) => `RC-${100 + index},Student number ${index},CSE2`).join('\n');
    await importRoster(`pin,name,class\nRC-1,Asha,CSE1\nRC-2,Ravi,CSE1\nRC-3,Mira,CSE1\n${rows}\n`);
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/attendance/CSE2/${addDays(today, -1)}`,
      headers: { cookie: faculty },
      payload: { records: Array.from({ length: 40 }, (_, index) => ({ pin: `RC-${100 + index}`, status: 'present' })) },
    });
    expect(saved.statusCode).toBe(200);
    const url = '/api/reports/students?class=CSE2';
    const computed = await ctx.app.inject({ method: 'GET', url, headers: { cookie: faculty } });
    expect(computed.statusCode).toBe(200);
    expect(computed.rawPayload.length).toBeGreaterThanOrEqual(1024);
    expect(computed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(computed.headers.vary).toMatch(/accept-encoding/i);
    expect(computed.headers['content-encoding']).toBeUndefined();
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, *', 'gzip'],
      ['identity', undefined],
      ['br', 'br'],
    ] as const) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { cookie: faculty, 'accept-encoding': accept } });
      expect(response.statusCode, accept).toBe(200);
      expect(response.headers.etag, accept).toBe(computed.headers.etag);
      expect(response.headers['content-encoding'], accept).toBe(expected);
      expect(response.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(Number(response.headers['content-length']), accept).toBe(response.rawPayload.length);
      const body =
        expected === 'br' ? brotliDecompressSync(response.rawPayload) : expected === 'gzip' ? gunzipSync(response.rawPayload) : response.rawPayload;
      expect(body.toString('utf8'), accept).toBe(computed.body);
    }
  });
});
