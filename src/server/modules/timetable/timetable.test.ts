import { describe, expect, it } from 'vitest';
import { AuditPageSchema } from '../../../shared/schemas/audit';
import { TEACHER_MESSAGE, TimetableSchema } from '../../../shared/schemas/timetable';
import { classes, users } from '../../db/schema';
import { expectAdminOnly } from '../../test/admin-access';
import { TEST_PASSWORD, withStaffApp, type TestContext } from '../../test/test-app';
import { importTimetable, periodTimes, slotsWithTeachers, TimetableFileInvalid } from './service';
import { addUser, disableUser } from '../accounts/service';
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

describe('a slot\'s teacher', () => {
  let teacher: string;
  let other: string;

  async function account(email: string, role: 'faculty' | 'admin'): Promise<string> {
    return (await addUser(ctx.database.db, { email, name: `Teacher ${email.split('@')[0]}`, role, password: TEST_PASSWORD })).id;
  }

  async function weekOf(className: string) {
    return TimetableSchema.parse((await call(faculty, 'GET', `/api/classes/${className}/timetable`)).json());
  }

  it('names a teacher per slot, shows their name and e-mail, and clears one left out of the next PUT', async () => {
    teacher = await account('lakshmi@test.university.edu', 'faculty');
    other = await account('ravi@test.university.edu', 'admin');
    const put = await call(admin, 'PUT', '/api/admin/classes/CSE5/timetable', {
      slots: [
        { weekday: 1, period: 1, subject: 'DS', teacherId: teacher },
        { weekday: 1, period: 2, subject: 'CN', teacherId: other },
        { weekday: 2, period: 1, subject: 'CN', teacherId: null },
        { weekday: 2, period: 2, subject: 'DS' },
      ],
    });
    expect(put.statusCode).toBe(200);
    expect(TimetableSchema.parse(put.json()).slots.map((s) => s.teacher?.email ?? null)).toEqual([
      'lakshmi@test.university.edu',
      'ravi@test.university.edu',
      null,
      null,
    ]);
    const week = await weekOf('CSE5');
    expect(week.slots[0]!.teacher).toEqual({ id: teacher, name: 'Teacher lakshmi', email: 'lakshmi@test.university.edu' });

    // The body is the whole week: Monday period 1 sent without its teacher has none.
    await call(admin, 'PUT', '/api/admin/classes/CSE5/timetable', {
      slots: [
        { weekday: 1, period: 1, subject: 'DS' },
        { weekday: 1, period: 2, subject: 'CN', teacherId: other },
      ],
    });
    expect((await weekOf('CSE5')).slots.map((s) => [s.period, s.teacher?.id ?? null])).toEqual([
      [1, null],
      [2, other],
    ]);
  });

  it("refuses a student's, a disabled, an unknown or a malformed account as teacher, and changes nothing", async () => {
    await ctx.signIn('student');
    await disableUser(ctx.database.db, 'ravi@test.university.edu');
    const [studentRow] = await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.role, 'student')).limit(1);
    for (const teacherId of [studentRow!.id, other, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const refused = await call(admin, 'PUT', '/api/admin/classes/CSE5/timetable', {
        slots: [{ weekday: 3, period: 1, subject: 'DS', teacherId }],
      });
      expect(refused.statusCode, teacherId).toBe(400);
      expect(refused.json().message, teacherId).toBe(TEACHER_MESSAGE);
    }
    expect((await weekOf('CSE5')).slots.map((s) => [s.weekday, s.period])).toEqual([
      [1, 1],
      [1, 2],
    ]);
  });

  it('keeps the slot, without its teacher, when the account is deleted', async () => {
    await call(admin, 'PUT', '/api/admin/classes/CSE5/timetable', { slots: [{ weekday: 4, period: 3, subject: 'DS', teacherId: teacher }] });
    const gone = await account('visiting@test.university.edu', 'faculty');
    await call(admin, 'PUT', '/api/admin/classes/CSE6/timetable', { slots: [{ weekday: 4, period: 1, subject: 'CN', teacherId: gone }] });
    await ctx.database.db.delete(users).where(eq(users.id, gone));
    expect((await weekOf('CSE6')).slots).toEqual([{ weekday: 4, period: 1, subject: { code: 'CN', name: 'Computer Networks' }, teacher: null }]);
  });

  it('lists the lectures of active classes on a weekday with their teachers', async () => {
    expect(await slotsWithTeachers(ctx.database.db, 4)).toEqual([
      { className: 'CSE5', period: 3, subjectCode: 'DS', teacherId: teacher },
      { className: 'CSE6', period: 1, subjectCode: 'CN', teacherId: null },
    ]);
    await ctx.database.db.update(classes).set({ archivedAt: new Date() }).where(eq(classes.name, 'CSE6'));
    expect((await slotsWithTeachers(ctx.database.db, 4)).map((slot) => slot.className)).toEqual(['CSE5']);
    await ctx.database.db.update(classes).set({ archivedAt: null }).where(eq(classes.name, 'CSE6'));
    expect(await slotsWithTeachers(ctx.database.db, 7)).toEqual([]);
  });

  it('imports teachers from an optional teacher column of e-mails, refusing others by line', async () => {
    const refused = await importTimetable(
      ctx.database.db,
      CLI,
      'class,weekday,period,subject,teacher\nCSE7,Mon,1,DS,Lakshmi@test.university.edu\nCSE7,Mon,2,CN,ravi@test.university.edu\nCSE7,Tue,1,CN,nobody@test.university.edu\nCSE7,Tue,2,DS\n',
    ).catch((err: unknown) => err);
    expect((refused as TimetableFileInvalid).errors).toEqual([
      { line: 3, message: 'teacher "ravi@test.university.edu" is not an active faculty account' },
      { line: 4, message: 'teacher "nobody@test.university.edu" is not an active faculty account' },
      { line: 5, message: 'expected 5 fields: class,weekday,period,subject,teacher' },
    ]);
    await importTimetable(ctx.database.db, CLI, 'class,weekday,period,subject,teacher\nCSE7,Mon,1,DS,Lakshmi@test.university.edu\nCSE7,Mon,2,CN,\n');
    expect((await weekOf('CSE7')).slots.map((s) => [s.period, s.teacher?.id ?? null])).toEqual([
      [1, teacher],
      [2, null],
    ]);
  });
});

describe('period times', () => {
  const day = [
    { period: 2, startsAt: '10:00', endsAt: '10:50' },
    { period: 1, startsAt: '09:00', endsAt: '09:50' },
    { period: 3, startsAt: '11:00', endsAt: '11:50' },
  ];

  it('PUT /api/admin/periods is for admins only and GET /api/periods for anyone signed in, by period', async () => {
    expect((await call(faculty, 'GET', '/api/periods')).json()).toEqual([]);
    const put = await expectAdminOnly(ctx, { method: 'PUT', url: '/api/admin/periods', payload: day });
    expect(put.statusCode).toBe(200);
    const sorted = [...day].sort((a, b) => a.period - b.period);
    expect(put.json()).toEqual(sorted);
    const student = await ctx.signIn('student');
    for (const cookie of [student, faculty, admin]) expect((await call(cookie, 'GET', '/api/periods')).json()).toEqual(sorted);
    expect((await call(null, 'GET', '/api/periods')).statusCode).toBe(401);
    expect(await periodTimes(ctx.database.db)).toEqual(sorted);
  });

  it('refuses overlaps, a period ending before it starts, a period twice and bad times with clear messages, changing nothing', async () => {
    const cases: [object, string][] = [
      [
        [
          { period: 1, startsAt: '09:00', endsAt: '10:00' },
          { period: 2, startsAt: '09:30', endsAt: '10:30' },
        ],
        'Period 2 starts before period 1 ends',
      ],
      [[{ period: 1, startsAt: '10:00', endsAt: '09:00' }], 'Period 1 must end after it starts'],
      [
        [
          { period: 4, startsAt: '09:00', endsAt: '09:50' },
          { period: 4, startsAt: '13:00', endsAt: '13:50' },
        ],
        'Period 4 is given twice',
      ],
      [[{ period: 1, startsAt: '9:00', endsAt: '09:50' }], 'Times are written HH:MM, 24-hour (09:00, 13:45)'],
      [[{ period: 1, startsAt: '09:00', endsAt: '24:00' }], 'Times are written HH:MM, 24-hour (09:00, 13:45)'],
      [[{ period: 13, startsAt: '09:00', endsAt: '09:50' }], 'Periods are numbered 1 to 12'],
    ];
    for (const [payload, message] of cases) {
      const refused = await call(admin, 'PUT', '/api/admin/periods', payload);
      expect(refused.statusCode, message).toBe(400);
      expect(refused.json().message).toBe(message);
    }
    expect((await call(admin, 'PUT', '/api/admin/periods', { periods: day })).statusCode).toBe(400);
    expect((await periodTimes(ctx.database.db)).map((p) => p.period)).toEqual([1, 2, 3]);
  });

  it('replaces the whole set: periods left out lose their times; each change is audited once', async () => {
    const put = await call(admin, 'PUT', '/api/admin/periods', [
      { period: 1, startsAt: '08:30', endsAt: '09:20' },
      { period: 5, startsAt: '13:00', endsAt: '13:50' },
    ]);
    expect(put.json()).toEqual([
      { period: 1, startsAt: '08:30', endsAt: '09:20' },
      { period: 5, startsAt: '13:00', endsAt: '13:50' },
    ]);
    expect((await call(admin, 'PUT', '/api/admin/periods', [])).json()).toEqual([]);
    expect(await periodTimes(ctx.database.db)).toEqual([]);
    expect((await auditOf('periods.update')).map((e) => e.detail)).toEqual([
      { from: ['1 08:30-09:20', '5 13:00-13:50'], to: [] },
      { from: ['1 09:00-09:50', '2 10:00-10:50', '3 11:00-11:50'], to: ['1 08:30-09:20', '5 13:00-13:50'] },
      { from: [], to: ['1 09:00-09:50', '2 10:00-10:50', '3 11:00-11:50'] },
    ]);
  });
});
