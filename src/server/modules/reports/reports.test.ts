import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_NAMES } from '../../../shared/constants';
import { addDays, todayIn } from '../../../shared/dates';
import type { Dashboard, StudentSummary } from '../../../shared/schemas/reports';
import { students } from '../../db/schema';
import { createTestContext, type TestContext } from '../../test/test-app';
import { bumpDataVersion } from '../data-version/service';
import { getDashboard } from './service';

let ctx: TestContext;
let faculty: string;
let student: string;
const today = todayIn('UTC');
const day = (back: number) => addDays(today, -back);

/** CSE1 has 4 students, CSE2 3, CSE5 2; the other classes none (the student account adds one to CSE8). */
const ROSTER: Record<string, string[]> = {
  CSE1: ['A1', 'A2', 'A3', 'A4'],
  CSE2: ['B1', 'B2', 'B3'],
  CSE5: ['C1', 'C2'],
};

/** The registers, each saved through the attendance API: class, days back, the PINs marked present. */
const REGISTERS: [string, number, string[]][] = [
  ['CSE1', 0, ['A1', 'A2', 'A3']], //   3 present, 1 absent
  ['CSE2', 0, ['B1']], //               1 / 2
  ['CSE1', 6, ['A1', 'A2', 'A3', 'A4']], // 4 / 0
  ['CSE2', 7, []], //                   0 / 3
  ['CSE1', 29, ['A1']], //              1 / 3
  ['CSE2', 30, ['B1', 'B2', 'B3']], //  3 / 0
  ['CSE5', 1, ['C1', 'C2']], //         2 / 0
  ['CSE5', 2, ['C1']], //               1 / 1
  ['CSE5', 3, ['C1']], //               1 / 1
  ['CSE5', 8, []], //                   0 / 2
];

function get(url: string, cookie: string | null = faculty) {
  return ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
}

async function save(className: string, back: number, present: string[]) {
  const records = ROSTER[className]!.map((pin) => ({ pin, present: present.includes(pin) }));
  const response = await ctx.app.inject({
    method: 'PUT',
    url: `/api/attendance/${className}/${day(back)}`,
    payload: { records },
    headers: { cookie: faculty },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function dashboard(query = ''): Promise<Dashboard> {
  const response = await get(`/api/reports/dashboard${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Dashboard;
}

async function summaries(query = ''): Promise<StudentSummary[]> {
  const response = await get(`/api/reports/students${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as StudentSummary[];
}

const pct = (part: number, whole: number) => (part / whole) * 100;
const row = (back: number, present: number, absent: number) => ({ date: day(back), present, absent, total: present + absent });

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.database.db
    .insert(students)
    .values(Object.entries(ROSTER).flatMap(([className, pins]) => pins.map((pin) => ({ pin, name: `Name ${pin}`, className }))));
  faculty = await ctx.signIn('faculty');
  student = await ctx.signIn('student', { pin: 'S1', className: 'CSE8' });
});
afterAll(async () => ctx.close());

describe('who may read the reports', () => {
  it.each(['/api/reports/dashboard', '/api/reports/students'])('%s asks a signed-out caller to sign in and refuses students', async (url) => {
    const anonymous = await get(url, null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'Please sign in' });
    const refused = await get(url, student);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'This page is for faculty only' });
  });
});

describe('GET /api/reports/dashboard before any register', () => {
  it('gives zeros, every class with its roster size, and empty series', async () => {
    const body = await dashboard();
    expect(body.overallAttendance).toEqual({ present: 0, absent: 0, total: 0, presentPercentage: 0, absentPercentage: 0 });
    expect(body.classWiseAttendance).toEqual(
      CLASS_NAMES.map((className) => ({
        className,
        totalStudents: className === 'CSE8' ? 1 : (ROSTER[className]?.length ?? 0),
        presentCount: 0,
        absentCount: 0,
        presentPercentage: 0,
        absentPercentage: 0,
      })),
    );
    expect(body.weeklyReport).toEqual([]);
    expect(body.monthlyReport).toEqual([]);
    expect(body.today).toBe(today);
  });

  it('lists no student summaries', async () => {
    expect(await summaries()).toEqual([]);
  });
});

describe('GET /api/reports/dashboard with registers', () => {
  beforeAll(async () => {
    for (const [className, back, present] of REGISTERS) await save(className, back, present);
  });

  it('sums every register into the overall totals', async () => {
    const { overallAttendance } = await dashboard();
    expect(overallAttendance).toEqual({
      present: 16,
      absent: 13,
      total: 29,
      presentPercentage: pct(16, 29),
      absentPercentage: pct(13, 29),
    });
  });

  it('gives each class its roster size, its totals and its percentages of marks', async () => {
    const { classWiseAttendance } = await dashboard();
    expect(classWiseAttendance.map((c) => c.className)).toEqual([...CLASS_NAMES]);
    const byName = new Map(classWiseAttendance.map((c) => [c.className, c]));
    expect(byName.get('CSE1')).toEqual({
      className: 'CSE1',
      totalStudents: 4,
      presentCount: 8,
      absentCount: 4,
      presentPercentage: pct(8, 12),
      absentPercentage: pct(4, 12),
    });
    expect(byName.get('CSE2')).toEqual({
      className: 'CSE2',
      totalStudents: 3,
      presentCount: 4,
      absentCount: 5,
      presentPercentage: pct(4, 9),
      absentPercentage: pct(5, 9),
    });
    expect(byName.get('CSE5')).toEqual({
      className: 'CSE5',
      totalStudents: 2,
      presentCount: 4,
      absentCount: 4,
      presentPercentage: 50,
      absentPercentage: 50,
    });
    expect(byName.get('CSE3')).toEqual({
      className: 'CSE3',
      totalStudents: 0,
      presentCount: 0,
      absentCount: 0,
      presentPercentage: 0,
      absentPercentage: 0,
    });
  });

  it('the weekly report holds today-6 to today, one merged row per date, oldest first', async () => {
    const { weeklyReport } = await dashboard();
    expect(weeklyReport).toEqual([row(6, 4, 0), row(3, 1, 1), row(2, 1, 1), row(1, 2, 0), row(0, 4, 3)]);
  });

  it('the monthly report holds today-29 to today and leaves out today-30', async () => {
    const { monthlyReport } = await dashboard();
    expect(monthlyReport).toEqual([
      row(29, 1, 3),
      row(8, 0, 2),
      row(7, 0, 3),
      row(6, 4, 0),
      row(3, 1, 1),
      row(2, 1, 1),
      row(1, 2, 0),
      row(0, 4, 3),
    ]);
  });

  it('with ?class= gives that class\'s figures only', async () => {
    const body = await dashboard('?class=CSE2');
    expect(body.overallAttendance).toEqual({
      present: 4,
      absent: 5,
      total: 9,
      presentPercentage: pct(4, 9),
      absentPercentage: pct(5, 9),
    });
    expect(body.classWiseAttendance.map((c) => [c.className, c.totalStudents, c.presentCount, c.absentCount])).toEqual([
      ['CSE2', 3, 4, 5],
    ]);
    expect(body.weeklyReport).toEqual([row(0, 1, 2)]);
    expect(body.monthlyReport).toEqual([row(7, 0, 3), row(0, 1, 2)]);
  });

  it('answers 404 for a class the portal does not have', async () => {
    const response = await get('/api/reports/dashboard?class=CSE9');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Class CSE9 does not exist' });
  });

  it('counts a replaced register once, with its new marks', async () => {
    await save('CSE2', 0, ['B1', 'B2', 'B3']);
    const body = await dashboard();
    expect(body.weeklyReport.at(-1)).toEqual(row(0, 6, 1));
    expect(body.overallAttendance).toMatchObject({ present: 18, absent: 11, total: 29 });
    expect(body.classWiseAttendance.find((c) => c.className === 'CSE2')).toMatchObject({ presentCount: 6, absentCount: 3 });
    await save('CSE2', 0, ['B1']);
    expect((await dashboard()).overallAttendance).toMatchObject({ present: 16, absent: 13, total: 29 });
  });

  it('ends the windows on today in the portal\'s time zone', async () => {
    // Late evening UTC is already tomorrow in India: the window moves on by a day there.
    const now = new Date(`${today}T23:00:00Z`);
    const utc = await getDashboard(ctx.database.db, { timeZone: 'UTC', now });
    const india = await getDashboard(ctx.database.db, { timeZone: 'Asia/Kolkata', now });
    expect(utc.today).toBe(today);
    expect(india.today).toBe(day(-1));
    expect(utc.weeklyReport[0]).toEqual(row(6, 4, 0));
    expect(india.weeklyReport[0]).toEqual(row(3, 1, 1));
    expect(india.monthlyReport[0]).toEqual(row(8, 0, 2));
  });
});

describe('GET /api/reports/students', () => {
  const summary = (pin: string, className: string, presentDays: number, absentDays: number) => {
    const percentage = pct(presentDays, presentDays + absentDays);
    return { pin, name: `Name ${pin}`, className, presentDays, absentDays, percentage, present: percentage >= 75 ? 'Good' : 'Low' };
  };
  const everyone = [
    summary('C2', 'CSE5', 1, 3),
    summary('A4', 'CSE1', 1, 2),
    summary('B2', 'CSE2', 1, 2),
    summary('B3', 'CSE2', 1, 2),
    summary('A2', 'CSE1', 2, 1),
    summary('A3', 'CSE1', 2, 1),
    summary('B1', 'CSE2', 2, 1),
    summary('C1', 'CSE5', 3, 1),
    summary('A1', 'CSE1', 3, 0),
  ];

  it('lists every student with marks, lowest percentage first, with Good at 75% and above', async () => {
    expect(await summaries()).toEqual(everyone);
  });

  it('with ?below=75 keeps only those under 75% (exactly 75% is not below)', async () => {
    const list = await summaries('?below=75');
    expect(list).toEqual(everyone.filter((s) => s.pin !== 'C1' && s.pin !== 'A1'));
    expect(list.every((s) => s.present === 'Low')).toBe(true);
  });

  it('with ?class= keeps that class\'s students', async () => {
    expect(await summaries('?class=CSE2')).toEqual(everyone.filter((s) => s.className === 'CSE2'));
    expect(await summaries('?class=CSE5&below=75')).toEqual([summary('C2', 'CSE5', 1, 3)]);
    expect(await summaries('?class=CSE3')).toEqual([]);
  });

  it('refuses a threshold that is not a percentage and a class that does not exist', async () => {
    for (const query of ['?below=abc', '?below=150', '?below=-1']) {
      const response = await get(`/api/reports/students${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message).toBe('below must be a percentage from 0 to 100');
    }
    expect((await get('/api/reports/students?class=XYZ')).statusCode).toBe(404);
  });

  it('follows a student who moved class, and keeps one who left the roster under their last class', async () => {
    await ctx.database.db.update(students).set({ className: 'CSE3' }).where(eq(students.pin, 'B3'));
    await ctx.database.db.delete(students).where(eq(students.pin, 'B2'));
    // Written behind the services' back: bump the reports' data version as a roster import does.
    await bumpDataVersion(ctx.database.db);
    // Every mark counts wherever it was taken; the class is today's roster class.
    expect(await summaries('?class=CSE3')).toEqual([summary('B3', 'CSE3', 1, 2)]);
    expect(await summaries('?class=CSE2')).toEqual([summary('B2', 'CSE2', 1, 2), summary('B1', 'CSE2', 2, 1)]);
    const { classWiseAttendance } = await dashboard();
    expect(classWiseAttendance.find((c) => c.className === 'CSE2')?.totalStudents).toBe(1);
    expect(classWiseAttendance.find((c) => c.className === 'CSE3')?.totalStudents).toBe(1);
  });
});
