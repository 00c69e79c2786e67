import { describe, expect, it } from 'vitest';
import { AuditPageSchema } from '../../../shared/schemas/audit';
import { TimetableSchema } from '../../../shared/schemas/timetable';
import { classes } from '../../db/schema';
import { expectAdminOnly } from '../../test/admin-access';
import { withStaffApp, type TestContext } from '../../test/test-app';
import { importTimetable, TimetableFileInvalid } from './service';
import { CLI } from '../audit/service';
import { eq } from 'drizzle-orm';

let ctx: TestContext;
let admin: string;
let faculty: string;

withStaffApp((made) => ({ ctx, admin, faculty } = made));

function call(cookie: string | null, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) {
  return ctx.app.inject({ method, url, ...(payload ? { payload } : {}), headers: cookie ? { cookie } : {} });
}

async function auditOf(action: string) {
  return AuditPageSchema.parse((await call(admin, 'GET', `/api/admin/audit?action=${action}&limit=500`)).json()).entries;
}

describe('subjects', () => {
  it('POST and PATCH /api/admin/subjects are for admins only', async () => {
    const created = await expectAdminOnly(ctx, { method: 'POST', url: '/api/admin/subjects', payload: { code: ' ds ', name: 'Data Structures' } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ code: 'DS', name: 'Data Structures' });
    const renamed = await expectAdminOnly(ctx, { method: 'PATCH', url: '/api/admin/subjects/ds', payload: { name: 'Data Structures I' } });
    expect(renamed.json()).toEqual({ code: 'DS', name: 'Data Structures I' });
  });

  it('lists subjects by code for anyone signed in, and asks the signed-out to sign in', async () => {
    await call(admin, 'POST', '/api/admin/subjects', { code: 'CN', name: 'Computer Networks' });
    const student = await ctx.signIn('student');
    for (const cookie of [faculty, student, admin]) {
      const list = await call(cookie, 'GET', '/api/subjects');
      expect(list.statusCode).toBe(200);
      expect((list.json() as { code: string }[]).map((s) => s.code)).toEqual(['CN', 'DS']);
    }
    expect((await call(null, 'GET', '/api/subjects')).statusCode).toBe(401);
  });

  it('refuses a taken code, a bad code, a blank name and an unknown subject with clear messages', async () => {
    const taken = await call(admin, 'POST', '/api/admin/subjects', { code: 'Ds', name: 'Again' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ message: 'There is already a subject with the code DS' });
    const bad = await call(admin, 'POST', '/api/admin/subjects', { code: 'D S!', name: 'Spaces' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('A subject code has 1 to 20 letters, digits, - or _');
    const blank = await call(admin, 'POST', '/api/admin/subjects', { code: 'OS', name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toContain('A subject needs a name');
    const missing = await call(admin, 'PATCH', '/api/admin/subjects/ZZ', { name: 'Nothing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'There is no subject with the code ZZ' });
  });

  it('records subjects created and renamed in the audit trail', async () => {
    expect((await auditOf('subject.create')).map((e) => e.target).sort()).toEqual(['CN', 'DS']);
    expect((await auditOf('subject.update'))[0]).toMatchObject({ target: 'DS', detail: { name: { from: 'Data Structures', to: 'Data Structures I' } } });
  });
});

describe('timetables', () => {
  it('PUT replaces a class\'s whole week (admins only) and GET gives it to faculty', async () => {
    const put = await expectAdminOnly(ctx, {
      method: 'PUT',
      url: '/api/admin/classes/CSE2/timetable',
      payload: {
        slots: [
          { weekday: 2, period: 2, subject: 'cn' },
          { weekday: 1, period: 1, subject: 'DS' },
          { weekday: 1, period: 2, subject: 'CN' },
        ],
      },
    });
    expect(put.statusCode).toBe(200);
    const week = TimetableSchema.parse((await call(faculty, 'GET', '/api/classes/CSE2/timetable')).json());
    expect(week.slots.map((s) => [s.weekday, s.period, s.subject.code])).toEqual([
      [1, 1, 'DS'],
      [1, 2, 'CN'],
      [2, 2, 'CN'],
    ]);
    expect(week.slots[0]!.subject.name).toBe('Data Structures I');

    // A second PUT is the whole week: what it leaves out is gone.
    await call(admin, 'PUT', '/api/admin/classes/CSE2/timetable', { slots: [{ weekday: 5, period: 3, subject: 'DS' }] });
    const after = TimetableSchema.parse((await call(faculty, 'GET', '/api/classes/CSE2/timetable')).json());
    expect(after.slots.map((s) => [s.weekday, s.period])).toEqual([[5, 3]]);
    expect((await auditOf('timetable.update')).map((e) => [e.target, e.detail])).toEqual([
      ['CSE2', { slots: 1 }],
      ['CSE2', { slots: 3 }],
    ]);
    expect((await call(null, 'GET', '/api/classes/CSE2/timetable')).statusCode).toBe(401);
  });

  it('refuses unknown subjects, duplicates, out-of-range slots, unknown and archived classes, and changes nothing', async () => {
    const unknown = await call(admin, 'PUT', '/api/admin/classes/CSE2/timetable', { slots: [{ weekday: 1, period: 1, subject: 'XX' }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ message: 'There is no subject with the code XX' });
    const twice = await call(admin, 'PUT', '/api/admin/classes/CSE2/timetable', {
      slots: [
        { weekday: 1, period: 1, subject: 'DS' },
        { weekday: 1, period: 1, subject: 'CN' },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toContain('Monday period 1 appears more than once');
    const range = await call(admin, 'PUT', '/api/admin/classes/CSE2/timetable', { slots: [{ weekday: 8, period: 13, subject: 'DS' }] });
    expect(range.statusCode).toBe(400);
    expect((await call(admin, 'PUT', '/api/admin/classes/NOPE/timetable', { slots: [] })).statusCode).toBe(404);
    expect((await call(faculty, 'GET', '/api/classes/NOPE/timetable')).statusCode).toBe(404);

    await ctx.database.db.update(classes).set({ archivedAt: new Date() }).where(eq(classes.name, 'CSE8'));
    expect((await call(admin, 'PUT', '/api/admin/classes/CSE8/timetable', { slots: [] })).statusCode).toBe(409);
    await ctx.database.db.update(classes).set({ archivedAt: null }).where(eq(classes.name, 'CSE8'));

    const kept = TimetableSchema.parse((await call(faculty, 'GET', '/api/classes/CSE2/timetable')).json());
    expect(kept.slots.map((s) => [s.weekday, s.period])).toEqual([[5, 3]]);
  });

  it('imports a timetable file: all of it, or nothing with every error by line', async () => {
    const bad = [
      'class,weekday,period,subject',
      'CSE3,Mon,1,DS',
      'CSE3,Funday,1,DS',
      'CSE3,Tue,13,DS',
      'CSE3,monday,1,CN',
      'CSE3,3,2,',
    ].join('\n');
    const refused = await importTimetable(ctx.database.db, CLI, bad).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(TimetableFileInvalid);
    expect((refused as TimetableFileInvalid).errors).toEqual([
      { line: 3, message: 'weekday "Funday" is not 1 to 7 or a day\'s name' },
      { line: 4, message: 'period "13" is not 1 to 12' },
      { line: 5, message: 'CSE3 Monday period 1 is already on line 2' },
      { line: 6, message: 'the subject is missing' },
    ]);
    expect(TimetableSchema.parse((await call(faculty, 'GET', '/api/classes/CSE3/timetable')).json()).slots).toEqual([]);

    const unknownSubject = await importTimetable(ctx.database.db, CLI, 'class,weekday,period,subject\nCSE3,Mon,1,XX\n').catch((e: unknown) => e);
    expect((unknownSubject as Error).message).toBe('There is no subject with the code XX');

    const good = 'class,weekday,period,subject\r\nCSE3,Mon,1,ds\r\nCSE3,Wednesday,2,CN\r\nCSE4,5,1,DS\r\n';
    const imported = await importTimetable(ctx.database.db, CLI, good);
    expect([...imported]).toEqual([
      ['CSE3', 2],
      ['CSE4', 1],
    ]);
    const cse3 = TimetableSchema.parse((await call(faculty, 'GET', '/api/classes/CSE3/timetable')).json());
    expect(cse3.slots.map((s) => [s.weekday, s.period, s.subject.code])).toEqual([
      [1, 1, 'DS'],
      [3, 2, 'CN'],
    ]);
    // A class not in the file keeps its week.
    expect(TimetableSchema.parse((await call(faculty, 'GET', '/api/classes/CSE2/timetable')).json()).slots).toHaveLength(1);
  });
});
