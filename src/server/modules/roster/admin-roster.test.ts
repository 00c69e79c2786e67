import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassListSchema, RosterSchema } from '../../../shared/schemas/attendance';
import { AuditPageSchema } from '../../../shared/schemas/audit';
import { NOT_ON_ROSTER_MESSAGE } from '../../../shared/schemas/profiles';
import { DashboardSchema, StudentSummaryListSchema } from '../../../shared/schemas/reports';
import {
  RosterFileErrorSchema,
  RosterImportResultSchema,
  RosterPreviewSchema,
  ROSTER_UPLOAD_MAX_BYTES,
  type RosterPreview,
} from '../../../shared/schemas/roster';
import { StudentRecordSchema } from '../../../shared/schemas/students';
import { auditLog, students, subjects } from '../../db/schema';
import { expectAdminOnly } from '../../test/admin-access';
import { seedRegister } from '../../test/registers';
import { createTestContext, type TestContext } from '../../test/test-app';
import { putStudents } from './service';

let ctx: TestContext;
let admin: string;
let faculty: string;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.signIn('admin', { email: 'roster-admin@test.university.edu' });
  faculty = await ctx.signIn('faculty');
}, 60_000);
afterAll(() => ctx.close());

const csvHeaders = { 'content-type': 'text/csv' };

function post(path: 'preview' | 'import', csv: string, query = '', cookie = admin) {
  return ctx.app.inject({ method: 'POST', url: `/api/admin/roster/${path}${query}`, headers: { ...csvHeaders, cookie }, payload: csv });
}

async function preview(csv: string): Promise<RosterPreview> {
  const answer = await post('preview', csv);
  expect(answer.statusCode, answer.body).toBe(200);
  return RosterPreviewSchema.parse(answer.json());
}

/** Every student row as the database holds it, withdrawn date included. */
async function studentTable() {
  return ctx.database.db.select().from(students).orderBy(asc(students.pin));
}

async function auditCount() {
  return (await ctx.database.db.select().from(auditLog)).length;
}

async function classRoster(className: string) {
  const answer = await ctx.app.inject({ method: 'GET', url: `/api/classes/${className}/students`, headers: { cookie: faculty } });
  expect(answer.statusCode).toBe(200);
  return RosterSchema.parse(answer.json()).map((s) => s.pin);
}

/** The rows of one preview list whose PIN starts with a prefix (signing in test students adds others). */
function pins(list: { rows: { pin: string }[] }, prefix: string) {
  return list.rows.filter((r) => r.pin.startsWith(prefix)).map((r) => r.pin);
}

describe('who may use the roster routes', () => {
  it('preview, import and the CSV download are for admins only', async () => {
    const csv = 'pin,name,class\nACC1,Access One,CSE8\n';
    const previewed = await expectAdminOnly(ctx, { method: 'POST', url: '/api/admin/roster/preview', headers: csvHeaders, payload: csv });
    expect(previewed.statusCode).toBe(200);
    expect(RosterPreviewSchema.parse(previewed.json()).added.rows).toEqual([{ pin: 'ACC1', name: 'Access One', className: 'CSE8' }]);

    const imported = await expectAdminOnly(ctx, { method: 'POST', url: '/api/admin/roster/import', headers: csvHeaders, payload: csv });
    expect(imported.statusCode).toBe(200);
    expect(RosterImportResultSchema.parse(imported.json())).toMatchObject({ added: 1, updated: 0, moved: 0, unchanged: 0 });

    const exported = await expectAdminOnly(ctx, { method: 'GET', url: '/api/admin/roster.csv' });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toMatch(/^text\/csv/);
    expect(exported.headers['cache-control']).toBe('private, no-store');
    expect(exported.body.split('\n')[0]).toBe('pin,name,class');
    expect(exported.body).toContain('ACC1,Access One,CSE8');
  });
});

describe('preview and import', () => {
  const before = [
    { pin: 'R001', name: 'Asha Rao', className: 'CSE3' },
    { pin: 'R002', name: 'Ravi', className: 'CSE3' },
    { pin: 'R003', name: 'Bala', className: 'CSE3' },
    { pin: 'R004', name: 'Gone Student', className: 'CSE3' },
  ];
  const file = 'pin,name,class\nR001,Asha Rao,CSE3\nR002,Ravi Kumar,CSE3\nR003,Bala,cse4\nR005,New Student,CSE4\n';

  beforeAll(() => putStudents(ctx.database.db, before));

  it('a valid file: the preview lists who is added, updated, moved and not in the file, and changes nothing', async () => {
    const tableBefore = await studentTable();
    const auditsBefore = await auditCount();

    const result = await preview(file);
    expect(result.errors).toEqual([]);
    expect(result.added).toEqual({ count: 1, rows: [{ pin: 'R005', name: 'New Student', className: 'CSE4' }] });
    expect(result.updated).toEqual({ count: 1, rows: [{ pin: 'R002', name: 'Ravi Kumar', className: 'CSE3', fromName: 'Ravi' }] });
    expect(result.moved).toEqual({ count: 1, rows: [{ pin: 'R003', name: 'Bala', className: 'CSE4', fromClass: 'CSE3' }] });
    expect(result.unchanged).toEqual({ count: 1 });
    expect(pins(result.notInFile, 'R')).toEqual(['R004']);
    expect(result.notInFile.rows.find((r) => r.pin === 'R004')).toEqual({ pin: 'R004', name: 'Gone Student', className: 'CSE3' });
    expect(result.accounts).toBe(0);

    expect(await studentTable()).toEqual(tableBefore);
    expect(await auditCount()).toBe(auditsBefore);
  });

  it('an invalid file: the preview names each error by line, the import refuses with the same errors and changes nothing', async () => {
    const bad = 'pin,name,class\nR001,Asha Rao,CSE3\nR006,Nobody,ECE9\nR002,Ravi Kumar,CSE3\nR 7!,Bad Pin,CSE3\n';
    const tableBefore = await studentTable();
    const auditsBefore = await auditCount();

    const previewed = await preview(bad);
    expect(previewed.errors).toHaveLength(2);
    expect(previewed.errors[0]).toMatchObject({ line: 3 });
    expect(previewed.errors[0]?.message).toMatch(/class "ECE9" does not exist/);
    expect(previewed.errors[1]).toMatchObject({ line: 5 });
    expect(previewed.errors[1]?.message).toMatch(/^PIN "R 7!"/);

    const refused = await post('import', bad, '?withdraw=true');
    expect(refused.statusCode).toBe(400);
    const body = RosterFileErrorSchema.parse(refused.json());
    expect(body.message).toBe('Nothing was imported: the file has 2 problems');
    expect(body.errors).toEqual(previewed.errors);

    expect(await studentTable()).toEqual(tableBefore);
    expect(await auditCount()).toBe(auditsBefore);
  });

  it('a problem of the whole file has no line, and a wrong header is line 1', async () => {
    expect((await preview('pin,name,class\n')).errors).toEqual([{ line: null, message: 'The file lists no students' }]);
    const header = await preview('pin,name,grade\nR001,Asha,CSE3\n');
    expect(header.errors).toHaveLength(1);
    expect(header.errors[0]).toMatchObject({ line: 1 });
  });

  it('a valid file imports in one go, with one audit entry holding its counts', async () => {
    const answer = await post('import', file);
    expect(answer.statusCode, answer.body).toBe(200);
    const counts = RosterImportResultSchema.parse(answer.json());
    expect(counts).toMatchObject({ added: 1, updated: 1, moved: 1, unchanged: 1, withdrawn: 0, returned: 0 });
    expect(counts.notInFile).toBeGreaterThanOrEqual(1);

    expect(await classRoster('CSE4')).toEqual(['R003', 'R005']);
    expect(await classRoster('CSE3')).toEqual(['R001', 'R002', 'R004']);
    const table = await studentTable();
    expect(table.find((s) => s.pin === 'R002')?.name).toBe('Ravi Kumar');

    const audit = await ctx.app.inject({ method: 'GET', url: '/api/admin/audit?action=roster.import', headers: { cookie: admin } });
    const [entry] = AuditPageSchema.parse(audit.json()).entries;
    expect(entry).toMatchObject({
      actor: 'roster-admin@test.university.edu',
      action: 'roster.import',
      target: 'roster',
      detail: { added: 1, updated: 1, moved: 1, unchanged: 1, notInFile: counts.notInFile, withdrawn: 0, returned: 0, emails: 0 },
    });

    // The same file again changes nothing.
    const again = RosterImportResultSchema.parse((await post('import', file)).json());
    expect(again).toMatchObject({ added: 0, updated: 0, moved: 0, unchanged: 4, withdrawn: 0 });
  });

  it('?withdraw=true withdraws the students not in the file, keeping their record; a later file brings them back', async () => {
    // Only the R students matter here: keep everyone else in the file, so that only R004 is left out.
    const others = (await studentTable()).filter((s) => !s.pin.startsWith('R') && !s.withdrawnAt);
    const lines = others.map((s) => `${s.pin},${s.name},${s.className}`);
    const keep = `${file}${lines.join('\n')}\n`;
    const cookie = await ctx.signIn('faculty');
    const marked = await ctx.app.inject({
      method: 'PUT',
      url: '/api/attendance/CSE3/2026-01-05',
      headers: { cookie },
      payload: { records: [{ pin: 'R004', present: true }] },
    });
    expect(marked.statusCode).toBe(200);

    const previewed = await preview(keep);
    expect(previewed.notInFile).toEqual({ count: 1, rows: [{ pin: 'R004', name: 'Gone Student', className: 'CSE3' }] });
    const answer = await post('import', keep, '?withdraw=true');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(RosterImportResultSchema.parse(answer.json())).toMatchObject({ notInFile: 1, withdrawn: 1 });

    expect(await classRoster('CSE3')).toEqual(['R001', 'R002']);
    const classes = await ctx.app.inject({ method: 'GET', url: '/api/classes', headers: { cookie } });
    expect((classes.json() as { name: string; studentCount: number }[]).find((c) => c.name === 'CSE3')?.studentCount).toBe(2);
    const register = await ctx.app.inject({ method: 'GET', url: '/api/attendance/CSE3/2026-01-06', headers: { cookie } });
    expect((register.json() as { records: { pin: string }[] }).records.map((r) => r.pin)).toEqual(['R001', 'R002']);
    // Their past register and record stay.
    const past = await ctx.app.inject({ method: 'GET', url: '/api/attendance/CSE3/2026-01-05', headers: { cookie } });
    expect((past.json() as { records: { pin: string; present: boolean }[] }).records).toContainEqual(expect.objectContaining({ pin: 'R004', present: true }));
    const record = await ctx.app.inject({ method: 'GET', url: '/api/students/R004', headers: { cookie } });
    expect(record.statusCode).toBe(200);
    expect(StudentRecordSchema.parse(record.json()).history).toEqual([{ date: '2026-01-05', period: 0, class: 'CSE3', subject: null, status: 'present', present: true }]);
    // Not in the export either, so that exporting and importing keeps them withdrawn.
    const exported = await ctx.app.inject({ method: 'GET', url: '/api/admin/roster.csv', headers: { cookie: admin } });
    expect(exported.body).not.toContain('R004');

    // Withdrawn students are not "not in the file" again, and a file that names them brings them back.
    expect((await preview(keep)).notInFile.count).toBe(0);
    const back = `${keep}R004,Gone Student,CSE3\n`;
    const backPreview = await preview(back);
    expect(backPreview.added.rows).toEqual([{ pin: 'R004', name: 'Gone Student', className: 'CSE3', returning: true }]);
    const returned = RosterImportResultSchema.parse((await post('import', back)).json());
    expect(returned).toMatchObject({ added: 1, returned: 1, withdrawn: 0 });
    expect(await classRoster('CSE3')).toEqual(['R001', 'R002', 'R004']);
    expect((await studentTable()).find((s) => s.pin === 'R004')?.withdrawnAt).toBeNull();
  });
});

describe('a withdrawn student', () => {
  it('leaves every list of current students and keeps their record', async () => {
    const leaving = { pin: 'WD1', name: 'Leaving Student' };
    const staying = { pin: 'WD2', name: 'Staying Student' };
    await putStudents(ctx.database.db, [leaving, staying].map((s) => ({ ...s, className: 'CSE6' })));
    await ctx.database.db.insert(subjects).values({ code: 'WDS', name: 'Withdrawal studies' });
    // Both absent from a whole-day register and from a lecture: both under 75%.
    const absent = [leaving, staying].map((s) => ({ ...s, present: false }));
    await seedRegister(ctx.database, { className: 'CSE6', date: '2026-03-02' }, absent);
    await seedRegister(ctx.database, { className: 'CSE6', date: '2026-03-03', period: 1, subjectCode: 'WDS' }, absent);
    const cookie = await ctx.signIn('faculty');
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie } });
    const studentLists = ['?below=75', '?below=75&subject=WDS', '?below=75&class=CSE6', '?below=75&class=CSE6&subject=WDS', '', '?class=CSE6'];
    const listed = async (query: string) => {
      const answer = await get(`/api/reports/students${query}${query ? '&' : '?'}term=all`);
      expect(answer.statusCode, query).toBe(200);
      return StudentSummaryListSchema.parse(answer.json()).map((s) => s.pin).filter((pin) => pin.startsWith('WD'));
    };
    const cse6 = async () => {
      const dashboard = DashboardSchema.parse((await get('/api/reports/dashboard?class=CSE6&term=all')).json());
      const classes = ClassListSchema.parse((await get('/api/classes')).json());
      return { totalStudents: dashboard.classWiseAttendance[0]?.totalStudents, studentCount: classes.find((c) => c.name === 'CSE6')?.studentCount };
    };
    for (const query of studentLists) expect(await listed(query), query).toEqual(['WD1', 'WD2']);
    const before = await cse6();

    const current = (await studentTable()).filter((s) => s.pin !== leaving.pin && !s.withdrawnAt);
    const file = `pin,name,class\n${current.map((s) => `${s.pin},${s.name},${s.className}\n`).join('')}`;
    const imported = await post('import', file, '?withdraw=true');
    expect(RosterImportResultSchema.parse(imported.json())).toMatchObject({ withdrawn: 1 });

    // Off the reports' student lists, the class's counts and its register.
    for (const query of studentLists) expect(await listed(query), query).toEqual(['WD2']);
    expect(await cse6()).toEqual({ totalStudents: before.totalStudents! - 1, studentCount: before.studentCount! - 1 });
    expect(await classRoster('CSE6')).not.toContain(leaving.pin);
    // No longer on the roster for a new profile or a new student account.
    const registration = (pin: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/registrations', payload: { name: 'Someone', designation: 'Student', pin } });
    const refused = await registration(leaving.pin);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: NOT_ON_ROSTER_MESSAGE });
    expect((await registration(staying.pin)).statusCode).toBe(201);
    const account = (pin: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/admin/users',
        headers: { cookie: admin },
        payload: { email: `${pin.toLowerCase()}@test.university.edu`, name: 'Someone', role: 'student', pin },
      });
    const noAccount = await account(leaving.pin);
    expect(noAccount.statusCode).toBe(400);
    expect(noAccount.json()).toEqual({ message: `PIN ${leaving.pin} is not on the roster` });
    expect((await account(staying.pin)).statusCode).toBe(201);
    // Their record and their marks in past registers stay.
    const record = await get(`/api/students/${leaving.pin}?term=all`);
    expect(record.statusCode).toBe(200);
    expect(StudentRecordSchema.parse(record.json())).toMatchObject({ name: leaving.name, summary: { totalDays: 2, absentDays: 2 } });
    const past = await get('/api/attendance/CSE6/2026-03-02');
    expect((past.json() as { records: { pin: string }[] }).records.map((r) => r.pin)).toContain(leaving.pin);
  });
});

describe('an archived class', () => {
  it('keeps the students it has and takes no new ones', async () => {
    await putStudents(ctx.database.db, [{ pin: 'ARC1', name: 'Stays Put', className: 'CSE7' }]);
    const archive = (archived: boolean) =>
      ctx.app.inject({ method: 'PATCH', url: '/api/admin/classes/CSE7', headers: { cookie: admin }, payload: { archived } });
    expect((await archive(true)).statusCode).toBe(200);
    try {
      const file = 'pin,name,class\nARC1,Stays Put,CSE7\nARC2,New Arrival,CSE7\n';
      const previewed = await preview(file);
      expect(previewed.errors).toEqual([{ line: 3, message: 'class CSE7 is archived: it takes no new students' }]);
      const refused = await post('import', file);
      expect(refused.statusCode).toBe(400);
      expect((await preview('pin,name,class\nARC1,Stays Put,CSE7\n')).errors).toEqual([]);
    } finally {
      expect((await archive(false)).statusCode).toBe(200);
    }
  });
});

describe('moving a student', () => {
  it('keeps their past marks under the class they had that day; the next register of the new class lists them', async () => {
    await putStudents(ctx.database.db, [
      { pin: 'MV1', name: 'Mover', className: 'CSE1' },
      { pin: 'MV2', name: 'Stayer', className: 'CSE1' },
    ]);
    const cookie = await ctx.signIn('faculty');
    const taken = await ctx.app.inject({
      method: 'PUT',
      url: '/api/attendance/CSE1/2026-02-02',
      headers: { cookie },
      payload: { records: [{ pin: 'MV1', present: true }] },
    });
    expect(taken.statusCode).toBe(200);

    const moved = await post('import', 'pin,name,class\nMV1,Mover,CSE2\n');
    expect(moved.statusCode, moved.body).toBe(200);
    expect(RosterImportResultSchema.parse(moved.json())).toMatchObject({ moved: 1, withdrawn: 0 });

    const record = StudentRecordSchema.parse((await ctx.app.inject({ method: 'GET', url: '/api/students/MV1', headers: { cookie } })).json());
    expect(record.history).toEqual([{ date: '2026-02-02', period: 0, class: 'CSE1', subject: null, status: 'present', present: true }]);
    const oldRegister = await ctx.app.inject({ method: 'GET', url: '/api/attendance/CSE1/2026-02-02', headers: { cookie } });
    expect((oldRegister.json() as { records: { pin: string; class: string }[] }).records).toContainEqual(
      expect.objectContaining({ pin: 'MV1', class: 'CSE1' }),
    );
    const nextCse1 = await ctx.app.inject({ method: 'GET', url: '/api/attendance/CSE1/2026-02-03', headers: { cookie } });
    expect((nextCse1.json() as { records: { pin: string }[] }).records.map((r) => r.pin)).not.toContain('MV1');
    const nextCse2 = await ctx.app.inject({ method: 'GET', url: '/api/attendance/CSE2/2026-02-03', headers: { cookie } });
    expect((nextCse2.json() as { records: { pin: string }[] }).records.map((r) => r.pin)).toContain('MV1');
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: '/api/attendance/CSE2/2026-02-03',
      headers: { cookie },
      payload: { records: [{ pin: 'MV1', present: false }] },
    });
    expect(saved.statusCode).toBe(200);
    const after = StudentRecordSchema.parse((await ctx.app.inject({ method: 'GET', url: '/api/students/MV1', headers: { cookie } })).json());
    expect(after.history).toEqual([
      { date: '2026-02-03', period: 0, class: 'CSE2', subject: null, status: 'absent', present: false },
      { date: '2026-02-02', period: 0, class: 'CSE1', subject: null, status: 'present', present: true },
    ]);
  });
});

describe('the request body', () => {
  it('takes text/plain as well as text/csv, and the email column makes student accounts', async () => {
    const answer = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/roster/import',
      headers: { 'content-type': 'text/plain; charset=utf-8', cookie: admin },
      payload: 'pin,name,class,email\nEM1,Emma,CSE7,emma@test.university.edu\n',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(RosterImportResultSchema.parse(answer.json())).toMatchObject({ added: 1, accounts: { created: 1, updated: 0, unchanged: 0 } });
  });

  it('refuses JSON bodies and other media types with a clear message', async () => {
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/roster/preview',
      headers: { cookie: admin },
      payload: { pin: 'X1' },
    });
    expect(json.statusCode).toBe(400);
    const xml = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/roster/preview',
      headers: { 'content-type': 'application/xml', cookie: admin },
      payload: '<roster/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toEqual({ message: 'Send the roster file as text/csv' });
    const withdraw = await post('import', 'pin,name,class\nQ1,Q,CSE1\n', '?withdraw=yes');
    expect(withdraw.statusCode).toBe(400);
  });

  it('takes files up to 10 MB and answers 413 above', async () => {
    const line = 'BIG0000001,Someone With A Long Enough Name,CSE8\n';
    const big = `pin,name,class\n${line.repeat(Math.ceil((ROSTER_UPLOAD_MAX_BYTES + 1) / line.length))}`;
    const tooLarge = await post('preview', big);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().message).toMatch(/larger than 10 MB/);
    // Over the API's usual 256 KB, under 10 MB: read (and here refused for its duplicate PINs, by line).
    const medium = `pin,name,class\n${line.repeat(10_000)}`;
    const read = await post('preview', medium);
    expect(read.statusCode).toBe(200);
    expect(RosterPreviewSchema.parse(read.json()).errors[0]).toMatchObject({ line: 3 });
  });
});
