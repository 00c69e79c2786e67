import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../../shared/schemas/audit';
import type { AdminClass } from '../../../shared/schemas/classes';
import type { AttendanceRegister, ClassSummary } from '../../../shared/schemas/attendance';
import type { Dashboard, StudentSummary } from '../../../shared/schemas/reports';
import type { StudentRecord } from '../../../shared/schemas/students';
import { addDays, todayIn } from '../../../shared/dates';
import { putStudents } from '../roster/service';
import { expectAdminOnly } from '../../test/admin-access';
import { createTestContext, type TestContext } from '../../test/test-app';

let ctx: TestContext;
let admin: string;
let faculty: string;
let student: string;
const today = todayIn('UTC');
const yesterday = addDays(today, -1);
const STUDENT_PIN = 'CL2-01';

beforeAll(async () => {
  ctx = await createTestContext();
  await putStudents(ctx.database.db, [
    { pin: 'CL2-02', name: 'Second Of Two', className: 'CSE2' },
    { pin: 'CL5-01', name: 'Only Of Five', className: 'CSE5' },
  ]);
  admin = await ctx.signIn('admin');
  faculty = await ctx.signIn('faculty');
  // The student signs in on their own PIN: their record is theirs to read.
  student = await ctx.signIn('student', { pin: STUDENT_PIN, className: 'CSE2' });
}, 60_000);
afterAll(async () => ctx.close());

function as(cookie: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) {
  return ctx.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
}
const path = (name: string) => `/api/admin/classes/${encodeURIComponent(name)}`;

async function adminList(): Promise<AdminClass[]> {
  const answer = await as(admin, 'GET', '/api/admin/classes');
  expect(answer.statusCode).toBe(200);
  return answer.json();
}
async function dashboardClasses(): Promise<string[]> {
  const answer = await as(faculty, 'GET', '/api/classes');
  expect(answer.statusCode).toBe(200);
  return (answer.json() as ClassSummary[]).map((c) => c.name);
}
async function reportedClasses(): Promise<string[]> {
  const answer = await as(faculty, 'GET', '/api/reports/dashboard');
  expect(answer.statusCode).toBe(200);
  return (answer.json() as Dashboard).classWiseAttendance.map((c) => c.className);
}
async function auditEntries(action: string): Promise<AuditPage['entries']> {
  const answer = await as(admin, 'GET', `/api/admin/audit?action=${action}`);
  expect(answer.statusCode).toBe(200);
  return (answer.json() as AuditPage).entries;
}

describe('admin class routes: who may use them', () => {
  it('GET /api/admin/classes: every class in order with roster and register counts, for admins only', async () => {
    const answer = await expectAdminOnly(ctx, { method: 'GET', url: '/api/admin/classes' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const list = answer.json() as AdminClass[];
    expect(list.map((c) => c.name)).toEqual(['CSE1', 'CSE2', 'CSE3', 'CSE4', 'CSE5', 'CSE6', 'CSE7', 'CSE8']);
    expect(list.map((c) => c.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(list.find((c) => c.name === 'CSE2')).toMatchObject({ archived: false, students: 2 });
  });

  it('POST /api/admin/classes is for admins only', async () => {
    const answer = await expectAdminOnly(ctx, { method: 'POST', url: '/api/admin/classes', payload: { name: 'Guarded 1' } });
    expect(answer.statusCode).toBe(201);
  });

  it('PATCH /api/admin/classes/:class is for admins only', async () => {
    const answer = await expectAdminOnly(ctx, { method: 'PATCH', url: path('Guarded 1'), payload: { name: 'Guarded 2' } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ name: 'Guarded 2' });
  });
});

describe('POST /api/admin/classes', () => {
  it('adds a trimmed name at the end of the order, on the dashboard, with an audit entry', async () => {
    const answer = await as(admin, 'POST', '/api/admin/classes', { name: '  ECE 1  ' });
    expect(answer.statusCode).toBe(201);
    const created = answer.json() as AdminClass;
    const list = await adminList();
    expect(created).toEqual({ name: 'ECE 1', position: list.length, archived: false, students: 0, registers: 0 });
    expect(list.at(-1)?.name).toBe('ECE 1');
    expect((await dashboardClasses()).at(-1)).toBe('ECE 1');
    const [entry] = await auditEntries('class.create');
    expect(entry).toMatchObject({ action: 'class.create', target: 'ECE 1', detail: { position: list.length } });
    expect(entry?.actor).toMatch(/^admin\d+@test\.university\.edu$/);
  });

  it('refuses a name another class has, ignoring case (409), and changes nothing', async () => {
    const before = await adminList();
    const answer = await as(admin, 'POST', '/api/admin/classes', { name: 'cse3' });
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toBe('A class named CSE3 already exists');
    expect(await adminList()).toEqual(before);
  });

  it.each([
    ['', "Please enter the class's name"],
    ['   ', "Please enter the class's name"],
    ['x'.repeat(33), 'A class name has at most 32 characters'],
    ['CSE/9', 'A class name holds only letters, digits, spaces and -'],
    ['CSE_9', 'A class name holds only letters, digits, spaces and -'],
  ])('refuses the name %j with 400', async (name, message) => {
    const answer = await as(admin, 'POST', '/api/admin/classes', { name });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toContain(message);
  });

  it('refuses a body without a name with 400', async () => {
    const answer = await as(admin, 'POST', '/api/admin/classes', {});
    expect(answer.statusCode).toBe(400);
  });
});

describe('PATCH /api/admin/classes/:class', () => {
  it('answers 404 for an unknown class and 400 for an empty change', async () => {
    const unknown = await as(admin, 'PATCH', path('CSE99'), { archived: true });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Class CSE99 does not exist');
    const empty = await as(admin, 'PATCH', path('CSE1'), {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Nothing to change');
    const badPosition = await as(admin, 'PATCH', path('CSE1'), { position: 0 });
    expect(badPosition.statusCode).toBe(400);
  });

  it('refuses a name another class has (409), and allows a change of case to the same class', async () => {
    const taken = await as(admin, 'PATCH', path('CSE4'), { name: 'Cse5' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('A class named CSE5 already exists');

    const cased = await as(admin, 'PATCH', path('CSE4'), { name: 'cse4' });
    expect(cased.statusCode).toBe(200);
    expect(cased.json()).toMatchObject({ name: 'cse4', position: 4 });
    const back = await as(admin, 'PATCH', path('cse4'), { name: 'CSE4' });
    expect(back.statusCode).toBe(200);
  });

  it('renames as a correction: registers, record, roster and reports show the new name; the old one is gone', async () => {
    const saved = await as(faculty, 'PUT', `/api/attendance/CSE2/${yesterday}`, {
      records: [
        { pin: STUDENT_PIN, present: true },
        { pin: 'CL2-02', present: false },
      ],
    });
    expect(saved.statusCode).toBe(200);

    const renamed = await as(admin, 'PATCH', path('CSE2'), { name: 'CSE-2A' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ name: 'CSE-2A', position: 2, archived: false, students: 2, registers: 1 });

    // The register, under its new name.
    const register = await as(faculty, 'GET', `/api/attendance/CSE-2A/${yesterday}`);
    expect(register.statusCode).toBe(200);
    const body = register.json() as AttendanceRegister;
    expect(body).toMatchObject({ class: 'CSE-2A', submitted: true, stats: { present: 1, absent: 1 } });
    expect(body.records.map((r) => r.class)).toEqual(['CSE-2A', 'CSE-2A']);

    // The student's record history.
    const record = await as(student, 'GET', `/api/students/${STUDENT_PIN}`);
    expect(record.statusCode).toBe(200);
    expect((record.json() as StudentRecord).history).toEqual([{ date: yesterday, period: 0, class: 'CSE-2A', subject: null, status: 'present', present: true }]);

    // The class roster.
    const roster = await as(faculty, 'GET', '/api/classes/CSE-2A/students');
    expect(roster.statusCode).toBe(200);
    expect(roster.json()).toHaveLength(2);

    // The reports.
    const dashboard = await as(faculty, 'GET', '/api/reports/dashboard');
    expect(dashboard.statusCode).toBe(200);
    const classes = (dashboard.json() as Dashboard).classWiseAttendance;
    expect(classes.find((c) => c.className === 'CSE-2A')).toMatchObject({ presentCount: 1, absentCount: 1, totalStudents: 2 });
    const summaries = await as(faculty, 'GET', '/api/reports/students?class=CSE-2A');
    expect(summaries.statusCode).toBe(200);
    expect((summaries.json() as StudentSummary[]).map((s) => s.pin).sort()).toEqual([STUDENT_PIN, 'CL2-02']);

    // The old name is gone everywhere.
    const everything = [register.body, record.body, roster.body, dashboard.body, summaries.body, (await as(faculty, 'GET', '/api/classes')).body];
    for (const text of everything) expect(text).not.toMatch(/"CSE2"/);
    expect((await as(faculty, 'GET', `/api/attendance/CSE2/${yesterday}`)).statusCode).toBe(404);
    expect((await as(faculty, 'GET', '/api/classes/CSE2/students')).statusCode).toBe(404);
    expect((await as(faculty, 'GET', '/api/reports/students?class=CSE2')).statusCode).toBe(404);
    expect((await as(admin, 'PATCH', path('CSE2'), { archived: true })).statusCode).toBe(404);

    const [entry] = await auditEntries('class.update');
    expect(entry).toMatchObject({ target: 'CSE-2A', detail: { name: { from: 'CSE2', to: 'CSE-2A' } } });
  });

  it('moves a class to a place in the order, renumbering the others, and the dashboard follows', async () => {
    const moved = await as(admin, 'PATCH', path('CSE7'), { position: 1 });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ name: 'CSE7', position: 1 });
    const dashboard = await dashboardClasses();
    expect(dashboard.slice(0, 4)).toEqual(['CSE7', 'CSE1', 'CSE-2A', 'CSE3']);
    const list = await adminList();
    expect(list.map((c) => c.position)).toEqual(list.map((_, index) => index + 1));

    // Past the end: last.
    const last = await as(admin, 'PATCH', path('CSE7'), { position: 1000 });
    expect(last.statusCode).toBe(200);
    expect((await dashboardClasses()).at(-1)).toBe('CSE7');
    expect((await dashboardClasses())[0]).toBe('CSE1');

    const [entry] = await auditEntries('class.update');
    expect(entry).toMatchObject({ target: 'CSE7', detail: { position: { from: 1, to: list.length } } });
  });

  it('archives a class: off the dashboard, no new registers, its history kept; restores it', async () => {
    // CSE5 has a register before it is archived; CSE8 has none.
    expect((await as(faculty, 'PUT', `/api/attendance/CSE5/${yesterday}`, { records: [{ pin: 'CL5-01', present: true }] })).statusCode).toBe(200);

    for (const name of ['CSE5', 'CSE8']) {
      const archived = await as(admin, 'PATCH', path(name), { archived: true });
      expect(archived.statusCode).toBe(200);
      expect(archived.json()).toMatchObject({ name, archived: true });
    }
    const [entry] = await auditEntries('class.update');
    expect(entry).toMatchObject({ target: 'CSE8', detail: { archived: { from: false, to: true } } });

    expect(await dashboardClasses()).not.toContain('CSE5');
    expect(await dashboardClasses()).not.toContain('CSE8');
    expect((await adminList()).filter((c) => c.archived).map((c) => c.name)).toEqual(['CSE5', 'CSE8']);

    // No new register, and no replacement of an old one.
    for (const date of [today, yesterday]) {
      const refused = await as(faculty, 'PUT', `/api/attendance/CSE5/${date}`, { records: [{ pin: 'CL5-01', present: false }] });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toContain('Class CSE5 is archived');
    }

    // Its past register and the student's record still read.
    const past = await as(faculty, 'GET', `/api/attendance/CSE5/${yesterday}`);
    expect(past.statusCode).toBe(200);
    expect(past.json()).toMatchObject({ class: 'CSE5', submitted: true, stats: { present: 1, absent: 0 } });
    const record = await as(faculty, 'GET', '/api/students/CL5-01');
    expect(record.statusCode).toBe(200);
    expect((record.json() as StudentRecord).history).toEqual([{ date: yesterday, period: 0, class: 'CSE5', subject: null, status: 'present', present: true }]);

    // The dashboard report keeps the figures of an archived class that has marks.
    expect(await reportedClasses()).toContain('CSE5');

    const restored = await as(admin, 'PATCH', path('CSE8'), { archived: false });
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ name: 'CSE8', archived: false });
    expect(await dashboardClasses()).toContain('CSE8');
  });

  // The rule: the class-wise report lists the active classes, and an archived one only while it has
  // marks in the report's window.
  it('leaves an archived class with no marks out of the dashboard report', async () => {
    const archived = await as(admin, 'PATCH', path('CSE6'), { archived: true });
    expect(archived.statusCode).toBe(200);
    try {
      expect(await reportedClasses()).not.toContain('CSE6');
    } finally {
      await as(admin, 'PATCH', path('CSE6'), { archived: false });
    }
  });

  it('writes no audit entry for a change that changes nothing', async () => {
    const before = (await auditEntries('class.update')).length;
    const same = await as(admin, 'PATCH', path('CSE1'), { name: 'CSE1', archived: false });
    expect(same.statusCode).toBe(200);
    expect((await auditEntries('class.update')).length).toBe(before);
  });
});
