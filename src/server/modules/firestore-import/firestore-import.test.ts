import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../shared/dates';
import { FirestoreImportResultSchema, type FirestoreImportResult } from '../../../shared/schemas/firestore-import';
import { queryRows } from '../../db/client';
import { attendanceMarks, auditLog, classes, profiles, registers, students } from '../../db/schema';
import { withStaffApp, type TestContext } from '../../test/test-app';
import { expectAdminOnly } from '../../test/admin-access';
import { findCounterDifferences } from '../counters/service';
import { putStudents } from '../roster/service';

let ctx: TestContext;
let admin: string;
let faculty: string;
withStaffApp((made) => ({ ctx, admin, faculty } = made));

type Data = Record<string, unknown>;
type Collections = Record<string, Record<string, Data>>;

const today = todayIn('UTC');
const day = (n: number) => addDays(today, -n);
/** Noon UTC of a day, as a Firestore timestamp's parts. */
const noon = (date: string, minutes = 0) => Math.floor(Date.parse(`${date}T12:00:00Z`) / 1000) + minutes * 60;

/**
 * An export of the original app's collections, as the original app's data model has them: for one shape its
 * own PINs and classes, so that the three shapes import side by side. `ts` is a timestamp in
 * seconds, written the way each shape writes timestamps.
 */
function fixture(tag: string, [classA, classB]: [string, string], unknownClass: string) {
  const pin = (n: number) => `${tag}${String(n).padStart(3, '0')}`;
  const roster = [
    { pin: pin(1), name: 'Asha Rao', className: classA },
    { pin: pin(2), name: 'Bala Iyer', className: classA },
    { pin: pin(3), name: 'Chitra N', className: classB },
  ];
  const record = (n: number, name: string, className: string, status: Data) => ({ pin: pin(n), name, class: className, ...status });
  const attendance = {
    [`${tag}-a1`]: {
      date: day(3),
      ts: noon(day(3)),
      class: classA,
      records: [
        record(1, 'Asha Rao', classA, { present: true }),
        record(2, 'Bala Iyer', classA, { present: false }),
        // A lower-case PIN not on the roster: the student joins it, with this name.
        { ...record(4, 'Devi K', classA, { present: 'Present' }), pin: ` ${pin(4).toLowerCase()} ` },
      ],
      stats: { total: 3, present: 2, absent: 1 },
    },
    // The same class and date submitted again later: one register, this record winning.
    [`${tag}-a2`]: { date: day(3), ts: noon(day(3), 30), class: classA, records: [record(2, 'Bala Iyer', classA, { status: 'Present' })] },
    [`${tag}-a3`]: {
      date: day(3),
      ts: noon(day(3)),
      class: classB,
      records: [record(3, 'Chitra N', classB, { present: 'Absent' }), record(5, 'Esha P', classB, { status: 'Present' })],
    },
    [`${tag}-a4`]: {
      date: day(2),
      ts: noon(day(2)),
      class: classA,
      // Text statuses: only 'Present' is present.
      records: [record(1, 'Asha Rao', classA, { present: 'Present' }), record(2, 'Bala Iyer', classA, { present: 'present' }), record(4, 'Devi K', classA, { present: true })],
    },
    [`${tag}-a5`]: { date: day(2), ts: noon(day(2)), class: unknownClass, records: [record(6, 'Farah S', unknownClass, { present: true })] },
    // No date field: the day of its timestamp.
    [`${tag}-a6`]: { ts: noon(day(1)), class: classB, records: [record(3, 'Chitra N', classB, { present: true }), record(5, 'Esha P', classB, { present: false })] },
    [`${tag}-a7`]: { date: day(1), ts: noon(day(1)), class: classA, records: [] },
  };
  const registrations = {
    [`${tag}-g1`]: {
      name: 'Asha Rao',
      designation: 'Student',
      Pinnumber: pin(1).toLowerCase(),
      src: 'https://example.edu/asha.png',
      alt: 'Profile image of Asha Rao',
      linkedin: 'linkedin.com/in/asha',
      github: 'https://github.com/asha',
      ts: noon(day(30)),
    },
    [`${tag}-g2`]: { name: 'Zoya', designation: 'Alumna', Pinnumber: pin(99), ts: noon(day(20)) },
    [`${tag}-g3`]: { name: 'Asha again', designation: 'Student', Pinnumber: pin(1), ts: noon(day(10)) },
    [`${tag}-g4`]: { name: 'No designation', Pinnumber: pin(2), ts: noon(day(10)) },
  };
  const cards = { [`${tag}-c1`]: { Pinnumber: pin(1), designation: 'Student' }, [`${tag}-c2`]: { Pinnumber: pin(2), designation: 'Student' } };
  const users = { [`${tag}-u1`]: { email: 'someone@example.edu' } };
  return { pin, roster, attendance, registrations, cards, users };
}

type Fixture = ReturnType<typeof fixture>;

/** A document with its `ts` written as `stamp` writes a timestamp, under the field its collection uses. */
function withStamp(data: Data, field: string, stamp: (seconds: number) => unknown): Data {
  const { ts, ...rest } = data;
  return { ...rest, [field]: stamp(ts as number) };
}

function collectionsOf(f: Fixture, stamp: (seconds: number) => unknown): Collections {
  const map = (docs: Record<string, Data>, field: string) =>
    Object.fromEntries(Object.entries(docs).map(([id, data]) => [id, 'ts' in data ? withStamp(data, field, stamp) : data]));
  return { attendance: map(f.attendance, 'timestamp'), registrations: map(f.registrations, 'createdAt'), cards: f.cards, users: f.users };
}

const SHAPES = {
  'firestore-export': (f: Fixture) =>
    JSON.stringify({
      __collections__: Object.fromEntries(
        Object.entries(collectionsOf(f, (s) => ({ __datatype__: 'timestamp', value: { _seconds: s, _nanoseconds: 0 } }))).map(([name, docs]) => [
          name,
          Object.fromEntries(Object.entries(docs).map(([id, data]) => [id, { ...data, __collections__: {} }])),
        ]),
      ),
    }),
  collections: (f: Fixture) => JSON.stringify(collectionsOf(f, (s) => ({ _seconds: s, _nanoseconds: 0 }))),
  ndjson: (f: Fixture) =>
    Object.entries(collectionsOf(f, (s) => ({ _seconds: s, _nanoseconds: 0 })))
      .flatMap(([name, docs]) => Object.entries(docs).map(([id, data]) => JSON.stringify({ path: `${name}/${id}`, data })))
      .join('\n'),
} as const;

/**
 * What the fixture's attendance comes to, worked out on its own from the original app's rules: per class and
 * date the later document's record wins; present when present is true or 'Present', or status
 * is 'Present'; PINs trimmed and upper case; documents without records or of an unknown class
 * (unless created) left out.
 */
function recompute(f: Fixture, known: Set<string>) {
  const registersByDay = new Map<string, Map<string, boolean>>();
  const docs = Object.values(f.attendance).sort((a, b) => (a.ts as number) - (b.ts as number));
  for (const doc of docs) {
    if (!known.has(doc.class) || doc.records.length === 0) continue;
    const date = 'date' in doc && doc.date ? doc.date : new Date((doc.ts as number) * 1000).toISOString().slice(0, 10);
    const key = `${doc.class}|${date}`;
    const marks = registersByDay.get(key) ?? new Map<string, boolean>();
    for (const r of doc.records as Data[]) {
      marks.set(String(r.pin).trim().toUpperCase(), r.present === true || r.present === 'Present' || r.status === 'Present');
    }
    registersByDay.set(key, marks);
  }
  const perPin = new Map<string, { present: number; absent: number }>();
  for (const marks of registersByDay.values()) {
    for (const [pin, present] of marks) {
      const counts = perPin.get(pin) ?? { present: 0, absent: 0 };
      counts[present ? 'present' : 'absent'] += 1;
      perPin.set(pin, counts);
    }
  }
  const all = [...registersByDay.values()].flatMap((m) => [...m.values()]);
  return { registers: registersByDay.size, present: all.filter(Boolean).length, absent: all.filter((p) => !p).length, perPin };
}

const post = (body: string, query = '', cookie = admin, type = 'application/json') =>
  ctx.app.inject({ method: 'POST', url: `/api/admin/import/firestore${query}`, headers: { cookie, 'content-type': type }, payload: body });

function resultOf(response: { statusCode: number; body: string }): FirestoreImportResult {
  expect(response.statusCode, response.body).toBe(200);
  return FirestoreImportResultSchema.parse(JSON.parse(response.body));
}

const CASES = [
  { shape: 'firestore-export', tag: 'FA', classes: ['CSE1', 'CSE2'], unknown: 'IMP-X1' },
  { shape: 'collections', tag: 'FB', classes: ['CSE3', 'CSE4'], unknown: 'IMP-X2' },
  { shape: 'ndjson', tag: 'FC', classes: ['CSE5', 'CSE6'], unknown: 'IMP-X3' },
] as const;

describe.each(CASES)('importing the Firebase app’s export as $shape', ({ shape, tag, classes: pair, unknown }) => {
  const f = fixture(tag, [...pair], unknown);
  const file = SHAPES[shape](f);
  const type = shape === 'ndjson' ? 'application/x-ndjson' : 'application/json';

  it('checks the file without changing anything, and refuses to apply while a class is missing', async () => {
    await putStudents(ctx.database.db, f.roster);
    const checked = resultOf(await post(file, '', admin, type));
    const expected = recompute(f, new Set(pair));
    expect(checked).toMatchObject({
      applied: false,
      shape,
      documents: { attendance: 7, registrations: 4, cards: 2, other: 1 },
      alreadyImported: 0,
      registers: expected.registers,
      merged: 1,
      marks: { total: expected.present + expected.absent, present: expected.present, absent: expected.absent },
      students: 2,
      classes: [],
      profiles: { approved: 1, pending: 1 },
      cards: 2,
    });
    expect(checked.errors.rows).toEqual([{ collection: 'attendance', id: `${tag}-a5`, reason: expect.stringContaining(`Class ${unknown} is not in the portal`) }]);
    expect(checked.skipped.rows).toEqual(
      expect.arrayContaining([
        { collection: 'attendance', id: `${tag}-a7`, reason: 'It has no records' },
        { collection: 'registrations', id: `${tag}-g3`, reason: 'User with this PIN already exists' },
        { collection: 'registrations', id: `${tag}-g4`, reason: 'Name, Designation, and PIN Number are required' },
        { collection: 'registrations', id: `${tag}-g1`, reason: expect.stringContaining('The LinkedIn URL was left out') },
      ]),
    );
    const refused = await post(file, '?apply=true', admin, type);
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body).message).toContain('Nothing was imported: 1 document names a class not in the portal');
    const written = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(registers).where(inArray(registers.className, [...pair]));
    expect(written[0]!.n).toBe(0);
  });

  it('imports it in one go, every figure as the fixture recomputed, and importing it again adds nothing', async () => {
    const result = resultOf(await post(file, '?apply=true&createClasses=true', admin, type));
    const expected = recompute(f, new Set([...pair, unknown]));
    expect(result).toMatchObject({
      applied: true,
      registers: expected.registers,
      marks: { total: expected.present + expected.absent, present: expected.present, absent: expected.absent },
      students: 3,
      classes: [unknown],
      profiles: { approved: 1, pending: 1 },
      errors: { count: 0, rows: [] },
    });
    const db = ctx.database.db;
    expect(await db.select({ name: classes.name }).from(classes).where(eq(classes.name, unknown))).toHaveLength(1);

    // Each student's counts, as the portal's own summary reads them, against the recomputation.
    for (const [pin, counts] of expected.perPin) {
      const record = await ctx.app.inject({ method: 'GET', url: `/api/students/${pin}`, headers: { cookie: faculty } });
      expect(record.statusCode, pin).toBe(200);
      const { summary } = JSON.parse(record.body) as { summary: { presentDays: number; absentDays: number } };
      expect({ pin, present: summary.presentDays, absent: summary.absentDays }).toEqual({ pin, ...counts });
    }
    const marks = await db
      .select({ present: sql<number>`count(*) filter (where ${attendanceMarks.status} = 'present')::int`, all: sql<number>`count(*)::int` })
      .from(attendanceMarks)
      .where(inArray(attendanceMarks.className, [...pair, unknown]));
    expect(marks[0]).toEqual({ present: expected.present, all: expected.present + expected.absent });
    expect(await findCounterDifferences(db)).toEqual([]);
    // Analyzed once imported: the planner counts every mark there is.
    const [table] = await queryRows<{ rows: number; count: number }>(
      db,
      sql`select reltuples::int as rows, (select count(*)::int from attendance_marks) as count from pg_class where relname = 'attendance_marks'`,
    );
    expect(table!.rows).toBe(table!.count);

    // The students the records named, with their records' names and the class of their latest register.
    const added = await db.select().from(students).where(inArray(students.pin, [f.pin(4), f.pin(5), f.pin(6)]));
    expect(added.map((s) => [s.pin, s.name, s.className]).sort()).toEqual([
      [f.pin(4), 'Devi K', pair[0]],
      [f.pin(5), 'Esha P', pair[1]],
      [f.pin(6), 'Farah S', unknown],
    ]);
    const made = await db.select().from(profiles).where(inArray(profiles.pin, [f.pin(1), f.pin(99)]));
    expect(made.map((p) => [p.pin, p.status, p.imageUrl, p.linkedin, p.github]).sort()).toEqual([
      [f.pin(1), 'approved', 'https://example.edu/asha.png', null, 'https://github.com/asha'],
      [f.pin(99), 'pending', null, null, null],
    ]);

    const again = resultOf(await post(file, '?apply=true&createClasses=true', admin, type));
    expect(again).toMatchObject({ registers: 0, students: 0, profiles: { approved: 0, pending: 0 }, alreadyImported: 8, classes: [] });
    const entries = await db.select().from(auditLog).where(eq(auditLog.action, 'import.firestore'));
    expect(entries.at(-1)?.detail).toMatchObject({ registers: 0, marks: 0 });
    expect(JSON.stringify(entries.map((e) => e.detail))).not.toContain(f.pin(1));
  });
});

describe('a Firebase export and the registers the portal has', () => {
  it('leaves a register already taken for that class and date as it is, and reports it', async () => {
    const f = fixture('FD', ['CSE7', 'CSE8'], 'CSE7');
    await putStudents(ctx.database.db, f.roster);
    const taken = await ctx.app.inject({
      method: 'PUT',
      url: `/api/attendance/CSE7/${day(2)}`,
      headers: { cookie: faculty },
      payload: { records: [{ pin: f.pin(1), status: 'late' }] },
    });
    expect(taken.statusCode).toBe(200);
    const result = resultOf(await post(SHAPES.collections(f), '?apply=true'));
    expect(result.skipped.rows).toContainEqual({ collection: 'attendance', id: 'FD-a4', reason: `CSE7 has a register on ${day(2)} already: it is left as it is` });
    const marks = await ctx.database.db.select({ status: attendanceMarks.status, date: attendanceMarks.date }).from(attendanceMarks).where(eq(attendanceMarks.pin, f.pin(1)));
    expect(marks).toContainEqual({ status: 'late', date: day(2) });
    expect(await findCounterDifferences(ctx.database.db)).toEqual([]);
  });

  it('refuses a file in no accepted shape, naming the shapes', async () => {
    for (const body of ['{"CSE1": [{"pin": "1", "name": "A"}]}', '[1, 2]', 'pin,name,class\n1,A,CSE1\n', '']) {
      const response = await post(body, '', admin, 'text/plain');
      expect(response.statusCode, body).toBe(400);
      const { message } = JSON.parse(response.body) as { message: string };
      expect(message).toContain('{"__collections__": {...}}');
      expect(message).toContain('{"path": "attendance/<id>", "data": {...}}');
    }
  });

  it('is for admins only', async () => {
    await expectAdminOnly(ctx, { method: 'POST', url: '/api/admin/import/firestore', headers: { 'content-type': 'application/json' }, payload: '{}' });
  });
});
