import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AttendanceChange, AttendanceRegister } from '../../../shared/schemas/attendance';
import { addDays, todayIn } from '../../../shared/dates';
import { attendanceChanges, attendanceMarks, registers, students } from '../../db/schema';
import { createTestContext, type TestContext } from '../../test/test-app';
import { findCounterDifferences } from '../counters/service';
import { ATTENDANCE_CHANNEL } from './service';

let ctx: TestContext;
let faculty: string;
let otherFaculty: string;
const today = todayIn('UTC');

/** CSE3 has five students, CSE4 three, CSE7 none. */
const CSE3 = ['C3-01', 'C3-02', 'C3-03', 'C3-04', 'C3-05'];
const CSE4 = ['C4-01', 'C4-02', 'C4-03'];

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.database.db.insert(students).values([
    // Inserted out of order: the API lists by PIN.
    ...[...CSE3].reverse().map((pin) => ({ pin, name: `Name ${pin}`, className: 'CSE3' })),
    ...CSE4.map((pin) => ({ pin, name: `Name ${pin}`, className: 'CSE4' })),
  ]);
  faculty = await ctx.signIn('faculty');
  otherFaculty = await ctx.signIn('admin');
});
afterAll(async () => ctx.close());

function put(className: string, date: string, payload: unknown, cookie = faculty) {
  return ctx.app.inject({ method: 'PUT', url: `/api/attendance/${className}/${date}`, payload: payload as object, headers: { cookie } });
}
function get(url: string, cookie = faculty) {
  return ctx.app.inject({ method: 'GET', url, headers: { cookie } });
}
const marksOf = (pins: string[], present: (pin: string, index: number) => boolean) =>
  pins.map((pin, index) => ({ pin, present: present(pin, index) }));

async function sessionRows(className: string, date: string) {
  return ctx.database.db
    .select()
    .from(registers)
    .where(and(eq(registers.className, className), eq(registers.date, date)));
}

async function expectCountersMatchMarks(className: string, date: string) {
  const sessions = await sessionRows(className, date);
  expect(sessions).toHaveLength(1);
  const session = sessions[0]!;
  const marks = await ctx.database.db.select().from(attendanceMarks).where(eq(attendanceMarks.registerId, session.id));
  expect(session.presentCount).toBe(marks.filter((m) => m.status === 'present').length);
  expect(session.absentCount).toBe(marks.filter((m) => m.status === 'absent').length);
  // The student counters, too, agree with a recomputation from every mark.
  expect(await findCounterDifferences(ctx.database.db)).toEqual([]);
  return { session, marks };
}

describe('GET /api/classes', () => {
  it('lists CSE1 to CSE8 in order with roster sizes and whether today is taken', async () => {
    const before = await get('/api/classes');
    expect(before.statusCode).toBe(200);
    const list = before.json() as { name: string; studentCount: number; todayTaken: boolean; today: unknown }[];
    expect(list.map((c) => c.name)).toEqual(['CSE1', 'CSE2', 'CSE3', 'CSE4', 'CSE5', 'CSE6', 'CSE7', 'CSE8']);
    expect(list.find((c) => c.name === 'CSE3')).toEqual({ name: 'CSE3', studentCount: 5, todayTaken: false, today: null });

    expect((await put('CSE4', today, { records: [{ pin: 'C4-01', status: 'late' }, { pin: 'C4-02', status: 'excused' }] })).statusCode).toBe(200);
    const after = (await get('/api/classes')).json() as typeof list;
    // Who took it, when, and the share that attends: late attends, excused is not held.
    expect(after.find((c) => c.name === 'CSE4')).toEqual({
      name: 'CSE4',
      studentCount: 3,
      todayTaken: true,
      today: { registers: 1, lastBy: expect.any(String), lastAt: expect.any(String), attended: 1, held: 2, percentage: 50 },
    });
    expect(after.find((c) => c.name === 'CSE3')?.todayTaken).toBe(false);
  });
});

describe('GET /api/classes/:class/students', () => {
  it('gives the roster ordered by PIN', async () => {
    const res = await get('/api/classes/CSE3/students');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(CSE3.map((pin) => ({ pin, name: `Name ${pin}`, class: 'CSE3' })));
  });
  it('answers 404 for a class that does not exist', async () => {
    const res = await get('/api/classes/CSE9/students');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Class CSE9 does not exist' });
  });
});

describe('GET /api/attendance/:class/:date', () => {
  it('starts a day that is not taken with the whole roster absent', async () => {
    const res = await get(`/api/attendance/CSE3/${addDays(today, -30)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      class: 'CSE3',
      date: addDays(today, -30),
      submitted: false,
      period: 0,
      subject: null,
      records: CSE3.map((pin) => ({ pin, name: `Name ${pin}`, class: 'CSE3', status: 'absent', present: false })),
      stats: { total: 5, present: 0, absent: 5, late: 0, excused: 0 },
    });
  });
});

describe('GET /api/attendance/:class/:date/previous', () => {
  it('gives the marks of the class\'s register taken last before the date and period, or null', async () => {
    const [first, second, later] = [addDays(today, -60), addDays(today, -58), addDays(today, -50)];
    expect((await get(`/api/attendance/CSE4/${first}/previous`)).json()).toBeNull();
    expect((await put('CSE4', first, { records: marksOf(CSE4, () => true) })).statusCode).toBe(200);
    expect((await put('CSE4', second, { records: [{ pin: 'C4-01', status: 'late' }, { pin: 'C4-02', status: 'excused' }] })).statusCode).toBe(200);

    const res = await get(`/api/attendance/CSE4/${later}/previous`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      date: second,
      period: 0,
      marks: [
        { pin: 'C4-01', status: 'late' },
        { pin: 'C4-02', status: 'excused' },
        { pin: 'C4-03', status: 'absent' },
      ],
    });
    // Not the register itself: the one before it.
    expect((await get(`/api/attendance/CSE4/${second}/previous`)).json()).toMatchObject({ date: first });
    // Another class's registers are not this class's.
    expect((await get(`/api/attendance/CSE3/${first}/previous`)).json()).toBeNull();
    expect((await get(`/api/attendance/CSE9/${later}/previous`)).statusCode).toBe(404);
  });
});

describe('PUT /api/attendance/:class/:date', () => {
  const date = addDays(today, -1);

  it('creates the register: marks, counters, who and when, and a history row for every mark', async () => {
    const res = await put('CSE3', date, { records: marksOf(CSE3, (_pin, i) => i < 3) });
    expect(res.statusCode).toBe(200);
    const body = res.json() as AttendanceRegister;
    expect(body).toMatchObject({
      class: 'CSE3',
      date,
      submitted: true,
      takenBy: 'Test faculty',
      stats: { total: 5, present: 3, absent: 2 },
    });
    expect(body.records.map((r) => [r.pin, r.present])).toEqual(CSE3.map((pin, i) => [pin, i < 3]));
    expect(body.records[0]).toEqual({ pin: 'C3-01', name: 'Name C3-01', class: 'CSE3', status: 'present', present: true });
    expect(Date.parse(body.takenAt!)).not.toBeNaN();
    expect(body.updatedAt).toBeDefined();

    await expectCountersMatchMarks('CSE3', date);
    expect(await get(`/api/attendance/CSE3/${date}`).then((r) => r.json())).toEqual(body);

    const history = (await get(`/api/attendance/CSE3/${date}/history`)).json() as AttendanceChange[];
    expect(history).toHaveLength(5);
    expect(history.every((c) => c.oldValue === null && c.changedBy === 'Test faculty' && c.reason === null)).toBe(true);
    expect(history.map((c) => [c.pin, c.name, c.newValue])).toEqual(CSE3.map((pin, i) => [pin, `Name ${pin}`, i < 3]));
  });

  it('replaces the register on a second submission and records only the marks that changed', async () => {
    const first = (await get(`/api/attendance/CSE3/${date}`)).json() as AttendanceRegister;
    const res = await put(
      'CSE3',
      date,
      { records: marksOf(CSE3, (pin) => pin === 'C3-01' || pin === 'C3-05'), reason: '  Late arrivals corrected ' },
      otherFaculty,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json() as AttendanceRegister;
    expect(body.stats).toEqual({ total: 5, present: 2, absent: 3, late: 0, excused: 0 });
    // The register keeps who first took it; updatedAt says when it last changed.
    expect(body.takenBy).toBe(first.takenBy);
    expect(body.takenAt).toBe(first.takenAt);
    expect(Date.parse(body.updatedAt!)).toBeGreaterThan(Date.parse(first.updatedAt!));

    const { marks } = await expectCountersMatchMarks('CSE3', date);
    expect(marks).toHaveLength(5);

    const history = (await get(`/api/attendance/CSE3/${date}/history`)).json() as AttendanceChange[];
    expect(history).toHaveLength(8);
    // Newest first: the correction's three changes, then the five of the first save.
    expect(history.slice(0, 3)).toEqual([
      { pin: 'C3-02', name: 'Name C3-02', oldStatus: 'present', newStatus: 'absent', oldValue: true, newValue: false, changedBy: 'Test admin', changedAt: body.updatedAt, reason: 'Late arrivals corrected', source: 'faculty' },
      { pin: 'C3-03', name: 'Name C3-03', oldStatus: 'present', newStatus: 'absent', oldValue: true, newValue: false, changedBy: 'Test admin', changedAt: body.updatedAt, reason: 'Late arrivals corrected', source: 'faculty' },
      { pin: 'C3-05', name: 'Name C3-05', oldStatus: 'absent', newStatus: 'present', oldValue: false, newValue: true, changedBy: 'Test admin', changedAt: body.updatedAt, reason: 'Late arrivals corrected', source: 'faculty' },
    ]);
    expect(history.slice(3).every((c) => c.oldValue === null)).toBe(true);
  });

  it('adds no history when a submission changes nothing', async () => {
    const before = (await get(`/api/attendance/CSE3/${date}/history`)).json() as AttendanceChange[];
    const current = (await get(`/api/attendance/CSE3/${date}`)).json() as AttendanceRegister;
    const res = await put('CSE3', date, { records: current.records.map(({ pin, present }) => ({ pin, present })) });
    expect(res.statusCode).toBe(200);
    const after = (await get(`/api/attendance/CSE3/${date}/history`)).json() as AttendanceChange[];
    expect(after).toEqual(before);
  });

  it('records roster students missing from the body as absent', async () => {
    const d = addDays(today, -2);
    const res = await put('CSE3', d, { records: [{ pin: 'C3-02', present: true }] });
    expect(res.statusCode).toBe(200);
    const body = res.json() as AttendanceRegister;
    expect(body.records.map((r) => [r.pin, r.present])).toEqual(CSE3.map((pin) => [pin, pin === 'C3-02']));
    expect(body.stats).toEqual({ total: 5, present: 1, absent: 4, late: 0, excused: 0 });
  });

  it('keeps the mark of a student who has left the class since, with the name and class of that day', async () => {
    const d = addDays(today, -3);
    await ctx.database.db.insert(students).values({ pin: 'MOVER', name: 'Old Name', className: 'CSE4' });
    expect((await put('CSE4', d, { records: [{ pin: 'MOVER', present: true }] })).statusCode).toBe(200);
    await ctx.database.db.update(students).set({ className: 'CSE5', name: 'New Name' }).where(eq(students.pin, 'MOVER'));

    const res = await put('CSE4', d, { records: marksOf(CSE4, () => true) });
    expect(res.statusCode).toBe(200);
    const body = res.json() as AttendanceRegister;
    expect(body.records.find((r) => r.pin === 'MOVER')).toEqual({ pin: 'MOVER', name: 'Old Name', class: 'CSE4', status: 'present', present: true });
    expect(body.stats).toEqual({ total: 4, present: 4, absent: 0, late: 0, excused: 0 });
    // The old register can still be corrected for that student.
    const fix = await put('CSE4', d, { records: [...marksOf(CSE4, () => true), { pin: 'MOVER', present: false }] });
    expect(fix.statusCode).toBe(200);
    expect((fix.json() as AttendanceRegister).stats).toEqual({ total: 4, present: 3, absent: 1, late: 0, excused: 0 });
    // The save's answer is the register as it is read afterwards: marks in PIN order, counters, who and when.
    expect(fix.json()).toEqual((await get(`/api/attendance/CSE4/${d}`)).json());
    // But a new register of CSE4 no longer includes them.
    const next = await put('CSE4', addDays(today, -2), { records: [] });
    expect((next.json() as AttendanceRegister).records.map((r) => r.pin)).toEqual(CSE4);
    await expectCountersMatchMarks('CSE4', d);
  });

  it('accepts today and refuses a future date', async () => {
    expect((await put('CSE3', today, { records: [] })).statusCode).toBe(200);
    const res = await put('CSE3', addDays(today, 1), { records: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`Attendance cannot be taken for a future date (today is ${today})`);
    expect(await sessionRows('CSE3', addDays(today, 1))).toHaveLength(0);
  });

  it('refuses malformed and impossible dates', async () => {
    for (const bad of ['2026-13-01', '2025-02-29', '22-11-2026', 'yesterday', '2026-1-5']) {
      const res = await put('CSE3', bad, { records: [] });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toBe('Dates are written YYYY-MM-DD');
      expect((await get(`/api/attendance/CSE3/${bad}`)).statusCode, bad).toBe(400);
    }
  });

  it('answers 404 for an unknown class, before and after the date is checked', async () => {
    for (const url of [`/api/attendance/CSE9/${date}`, `/api/attendance/cse3/${date}`, `/api/attendance/CSE9/${date}/history`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
    }
    const res = await put('CSE9', date, { records: [] });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Class CSE9 does not exist' });
  });

  it('names a PIN that is not on the class roster and saves nothing', async () => {
    const d = addDays(today, -4);
    const res = await put('CSE3', d, { records: [...marksOf(CSE3, () => true), { pin: 'C4-01', present: true }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('PIN C4-01 is not on the CSE3 roster');
    expect(await sessionRows('CSE3', d)).toHaveLength(0);

    const many = await put('CSE3', d, { records: [{ pin: 'NOPE1', present: true }, { pin: 'NOPE2', present: false }] });
    expect(many.json().message).toBe('PINs NOPE1, NOPE2 are not on the CSE3 roster');
  });

  it('refuses a PIN given twice', async () => {
    const res = await put('CSE3', addDays(today, -4), { records: [{ pin: 'C3-01', present: true }, { pin: 'C3-01', present: false }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('PIN C3-01 appears more than once');
  });

  it('refuses a body without records or with a non-boolean mark', async () => {
    expect((await put('CSE3', addDays(today, -4), {})).statusCode).toBe(400);
    expect((await put('CSE3', addDays(today, -4), { records: [{ pin: 'C3-01', present: 'Present' }] })).statusCode).toBe(400);
  });

  it('refuses to save an empty register for a class without students', async () => {
    const res = await put('CSE7', addDays(today, -1), { records: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Class CSE7 has no students on its roster');
    expect(await sessionRows('CSE7', addDays(today, -1))).toHaveLength(0);
  });
});

describe('history', () => {
  it('is empty for a day that has not been taken', async () => {
    const res = await get(`/api/attendance/CSE3/${addDays(today, -100)}/history`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });
});

describe('notifications', () => {
  it('announces each saved register to every listener on the database', async () => {
    const heard: string[] = [];
    const stop = await ctx.database.listen(ATTENDANCE_CHANNEL, (payload) => heard.push(payload));
    try {
      const d = addDays(today, -5);
      expect((await put('CSE4', d, { records: [] })).statusCode).toBe(200);
      // Naming the process that saved it.
      await vi.waitFor(() => expect(heard).toContain(JSON.stringify({ class: 'CSE4', date: d, period: 0, from: ctx.database.instance })));
    } finally {
      await stop();
    }
  });

  it('still saves when the notification fails', async () => {
    const spy = vi.spyOn(ctx.database, 'notify').mockRejectedValueOnce(new Error('listener connection lost'));
    try {
      const res = await put('CSE4', addDays(today, -6), { records: [] });
      expect(res.statusCode).toBe(200);
      expect(spy).toHaveBeenCalledOnce();
    } finally {
      spy.mockRestore();
    }
  });
});

describe('access', () => {
  const urls = (date: string) => [
    ['GET', '/api/classes'],
    ['GET', '/api/classes/CSE3/students'],
    ['GET', '/api/attendance/today'],
    ['GET', `/api/attendance/CSE3/${date}`],
    ['PUT', `/api/attendance/CSE3/${date}`],
    ['GET', `/api/attendance/CSE3/${date}/history`],
    ['GET', `/api/attendance/CSE3/${date}/previous`],
  ] as const;

  it('refuses a student with 403 and a signed-out client with 401', async () => {
    const student = await ctx.signIn('student', { className: 'CSE8' });
    for (const [method, url] of urls(addDays(today, -7))) {
      const asStudent = await ctx.app.inject({ method, url, headers: { cookie: student }, ...(method === 'PUT' ? { payload: { records: [] } } : {}) });
      expect(asStudent.statusCode, `${method} ${url}`).toBe(403);
      expect(asStudent.json()).toEqual({ message: 'This page is for faculty only' });
      const anonymous = await ctx.app.inject({ method, url, ...(method === 'PUT' ? { payload: { records: [] } } : {}) });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await sessionRows('CSE3', addDays(today, -7))).toHaveLength(0);
  });

  it('tells faculty today\'s date in the portal time zone', async () => {
    const res = await get('/api/attendance/today');
    expect(res.json()).toEqual({ date: today, timeZone: 'UTC' });
  });
});

describe('concurrent saves of one register', () => {
  it('end with one register, counters equal to the marks, and every save in the history', async () => {
    const className = 'CSE3';
    const date = addDays(today, -10);
    // Each save marks a different number of students present, so every save changes something
    // whatever order they commit in.
    const saves = CSE3.map((_, n) => ({
      cookie: n % 2 === 0 ? faculty : otherFaculty,
      records: marksOf(CSE3, (_pin, i) => i <= n),
    }));
    saves.push({ cookie: otherFaculty, records: marksOf(CSE3, () => false) });

    const responses = await Promise.all(saves.map((s) => put(className, date, { records: s.records }, s.cookie)));
    expect(responses.map((r) => r.statusCode)).toEqual(saves.map(() => 200));

    const { session, marks } = await expectCountersMatchMarks(className, date);
    expect(marks).toHaveLength(CSE3.length);

    const history = (await get(`/api/attendance/${className}/${date}/history`)).json() as AttendanceChange[];
    // Replaying the history oldest first must chain without gaps and end at the saved marks.
    const state = new Map<string, boolean | null>(CSE3.map((pin) => [pin, null]));
    for (const change of [...history].reverse()) {
      expect(change.oldValue).toBe(state.get(change.pin));
      state.set(change.pin, change.newValue);
    }
    for (const mark of marks) expect(state.get(mark.pin)).toBe(mark.status === 'present');

    const [saveCount] = await ctx.database.db
      .select({ n: sql<number>`count(distinct ${attendanceChanges.changedAt})::int` })
      .from(attendanceChanges)
      .where(eq(attendanceChanges.registerId, session.id));
    expect(saveCount?.n).toBe(saves.length);

    // The last save to commit is the register everyone now sees.
    const final = (await get(`/api/attendance/${className}/${date}`)).json() as AttendanceRegister;
    const lastSaved = responses.map((r) => r.json() as AttendanceRegister).sort((a, b) => a.updatedAt!.localeCompare(b.updatedAt!)).at(-1)!;
    expect(final.records).toEqual(lastSaved.records);
  });
});

describe('a register larger than a statement keeps parameters for', () => {
  it('writes every mark, its history and the counters, whatever the names hold', async () => {
    // 70 students (more marks than one statement keeps parameters for, decision 20), with names
    // that an array of text must carry unchanged: commas, quotes, braces, backslashes, NULL.
    const awkward = ['O\'Brien, Jr.', 'Said "Sid" Khan', '{braced}', 'back\\slash', 'NULL', ' spaced '];
    const pins = Array.from({ length: 70 }, (_, index) => `C6-${String(index + 1).padStart(2, '0')}`);
    await ctx.database.db.insert(students).values(pins.map((pin, index) => ({ pin, name: awkward[index % awkward.length]!, className: 'CSE6' })));
    const date = addDays(today, -3);

    const first = await put('CSE6', date, { records: pins.map((pin, index) => ({ pin, status: index % 3 === 0 ? 'absent' : 'present' })) });
    expect(first.statusCode).toBe(200);
    const second = await put('CSE6', date, {
      records: pins.map((pin, index) => ({ pin, status: index % 5 === 0 ? 'late' : 'present' })),
      reason: 'Re-taken after the lab',
    });
    expect(second.statusCode).toBe(200);

    const { session, marks } = await expectCountersMatchMarks('CSE6', date);
    expect(session.lateCount).toBe(14);
    expect(new Map(marks.map((m) => [m.pin, m.name]))).toEqual(new Map(pins.map((pin, index) => [pin, awkward[index % awkward.length]])));
    expect(marks.every((m) => m.date === date && m.period === 0 && m.className === 'CSE6')).toBe(true);

    // The first save changed all 70 marks (none before), the second those whose status moved.
    const moved = pins.filter((_, index) => (index % 5 === 0 ? 'late' : 'present') !== (index % 3 === 0 ? 'absent' : 'present'));
    const history = (await get(`/api/attendance/CSE6/${date}/history`)).json() as AttendanceChange[];
    expect(history).toHaveLength(70 + moved.length);
    const latest = history.slice(0, moved.length);
    expect(latest.map((c) => c.pin).sort()).toEqual(moved);
    expect(new Set(latest.map((c) => c.reason))).toEqual(new Set(['Re-taken after the lab']));
  });
});
