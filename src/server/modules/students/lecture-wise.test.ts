import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attends, isHeld, summarize, type MarkStatus } from '../../../shared/attendance-rules';
import { StudentSummaryListSchema, SubjectReportSchema } from '../../../shared/schemas/reports';
import { StudentRecordSchema, type StudentRecord } from '../../../shared/schemas/students';
import { students, subjects } from '../../db/schema';
import { seedRegister } from '../../test/registers';
import { createTestContext, type TestContext } from '../../test/test-app';

/**
 * Every per-subject figure (decision 13) against a recomputation from the marks written here:
 * the record's subjects and summary, the subject report and the below-75 list per subject.
 */
let ctx: TestContext;
let faculty: string;

const PINS = ['LW-01', 'LW-02', 'LW-03', 'LW-04', 'LW-05'];
const SUBJECTS = ['ALG', 'NET', 'ML'] as const;
interface Mark {
  pin: string;
  subject: string | null;
  status: MarkStatus;
  date: string;
  period: number;
}
const written: Mark[] = [];

/** A fixed pseudo-random sequence: the same marks every run. */
function sequence(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

beforeAll(async () => {
  ctx = await createTestContext();
  faculty = await ctx.signIn('faculty');
  await ctx.database.db.insert(students).values(PINS.map((pin) => ({ pin, name: `Name ${pin}`, className: 'CSE5' })));
  await ctx.database.db.insert(subjects).values(SUBJECTS.map((code) => ({ code, name: `Subject ${code}` })));
  const random = sequence(7);
  for (let day = 1; day <= 12; day += 1) {
    const date = `2026-05-${String(day).padStart(2, '0')}`;
    // Most days have three lectures; every fourth is a whole-day register.
    const periods: { period: number; subject: string | null }[] =
      day % 4 === 0 ? [{ period: 0, subject: null }] : SUBJECTS.map((subject, index) => ({ period: index + 1, subject }));
    for (const { period, subject } of periods) {
      const marks = PINS.map((pin, index) => {
        // Each student leans to their own rate; some statuses are late or excused.
        const roll = random() + index * 0.08;
        const status: MarkStatus = roll < 0.35 ? 'absent' : roll < 0.45 ? 'excused' : roll < 0.6 ? 'late' : 'present';
        return { pin, name: `Name ${pin}`, status };
      });
      await seedRegister(ctx.database, { className: 'CSE5', date, period, subjectCode: subject }, marks);
      for (const mark of marks) written.push({ pin: mark.pin, subject, status: mark.status, date, period });
    }
  }
}, 120_000);
afterAll(async () => ctx.close());

const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie: faculty } });

function held(marks: Mark[]) {
  return marks.filter((m) => isHeld(m.status)).length;
}
function attended(marks: Mark[]) {
  return marks.filter((m) => attends(m.status)).length;
}

describe('per-subject figures', () => {
  it('each student record: the summary and every subject equal a recomputation from the marks', async () => {
    for (const pin of PINS) {
      const record: StudentRecord = StudentRecordSchema.parse((await get(`/api/students/${pin}?term=all`)).json());
      const mine = written.filter((m) => m.pin === pin);
      const expected = summarize(attended(mine), mine.filter((m) => m.status === 'absent').length);
      expect(record.summary, pin).toEqual(expected);
      const perSubject = SUBJECTS.map((code) => {
        const marks = mine.filter((m) => m.subject === code);
        const figures = summarize(attended(marks), marks.filter((m) => m.status === 'absent').length);
        return {
          code,
          name: `Subject ${code}`,
          held: held(marks),
          attended: attended(marks),
          percentage: figures.percentage,
          status: figures.status,
          canMiss: figures.canMiss,
        };
      })
        .filter((s) => s.held > 0)
        .sort((a, b) => a.code.localeCompare(b.code));
      expect(record.subjects, pin).toEqual(perSubject);
    }
  });

  it('names a renamed subject by its new name in the next record', async () => {
    const admin = await ctx.signIn('admin');
    const rename = (name: string) =>
      ctx.app.inject({ method: 'PATCH', url: '/api/admin/subjects/NET', headers: { cookie: admin }, payload: { name } });
    const namesOf = async () =>
      StudentRecordSchema.parse((await get(`/api/students/${PINS[0]}?term=all`)).json()).subjects.map((subject) => subject.name);
    expect(await namesOf()).toContain('Subject NET');
    expect((await rename('Computer Networks')).statusCode).toBe(200);
    try {
      const names = await namesOf();
      expect(names).toContain('Computer Networks');
      expect(names).not.toContain('Subject NET');
    } finally {
      expect((await rename('Subject NET')).statusCode).toBe(200);
    }
    expect(await namesOf()).toContain('Subject NET');
  });

  it('the subject report per class equals the sums over its registers (excused left out)', async () => {
    const rows = SubjectReportSchema.parse((await get('/api/reports/subjects?class=CSE5&term=all')).json());
    const expected = [...SUBJECTS]
      .sort()
      .map((code) => {
        const marks = written.filter((m) => m.subject === code);
        const lectures = new Set(marks.map((m) => `${m.date}/${m.period}`)).size;
        const h = held(marks);
        const a = attended(marks);
        return { code, name: `Subject ${code}`, lectures, held: h, attended: a, percentage: h > 0 ? (a / h) * 100 : 0 };
      });
    expect(rows).toEqual(expected);
    // Another class has no lectures.
    expect((await get('/api/reports/subjects?class=CSE6&term=all')).json()).toEqual([]);
  });

  it('the below-75 list per subject holds exactly the students under 75% in it', async () => {
    for (const code of SUBJECTS) {
      const list = StudentSummaryListSchema.parse((await get(`/api/reports/students?below=75&subject=${code}&term=all`)).json());
      const expected = PINS.filter((pin) => {
        const marks = written.filter((m) => m.pin === pin && m.subject === code);
        const h = held(marks);
        return h > 0 && attended(marks) * 100 < 75 * h;
      });
      expect(list.map((row) => row.pin).sort(), code).toEqual(expected.sort());
    }
    const unknown = await get('/api/reports/students?below=75&subject=NOPE');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'There is no subject with the code NOPE' });
  });

  it('pages through the history: every mark exactly once, newest first, several lectures a day', async () => {
    const pin = PINS[2]!;
    const seen: string[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const query: string = before === null ? '' : `&before=${encodeURIComponent(before)}`;
      const page: StudentRecord = StudentRecordSchema.parse((await get(`/api/students/${pin}?term=all&limit=7${query}`)).json());
      expect(page.history.length).toBeLessThanOrEqual(7);
      seen.push(...page.history.map((h) => `${h.date}/${h.period}/${h.status}`));
      before = page.nextBefore;
      pages += 1;
    } while (before !== null && pages < 50);
    const expected = written
      .filter((m) => m.pin === pin)
      .sort((a, b) => (a.date === b.date ? b.period - a.period : a.date < b.date ? 1 : -1))
      .map((m) => `${m.date}/${m.period}/${m.status}`);
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 7));
  });

  it('refuses a page size out of bounds and a cursor it did not give', async () => {
    for (const limit of [0, 501, 'x']) {
      const res = await get(`/api/students/${PINS[0]}?limit=${limit}`);
      expect(res.statusCode, String(limit)).toBe(400);
    }
    expect((await get(`/api/students/${PINS[0]}?limit=500`)).statusCode).toBe(200);
    const bad = await get(`/api/students/${PINS[0]}?before=not-a-cursor`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'before must be the nextBefore of an earlier page' });
  });

  it('prints the subjects and each mark\'s status and lecture in the PDF', async () => {
    const res = await get(`/api/students/${PINS[0]}/report.pdf?term=all`);
    expect(res.statusCode).toBe(200);
    const parser = new PDFParse({ data: new Uint8Array(res.rawPayload) });
    const text = (await parser.getText().finally(() => parser.destroy())).text;
    expect(text).toContain('Attendance by Subject');
    expect(text).toMatch(/Subject ALG \(ALG\): \d+ of \d+ attended/);
    expect(text).toMatch(/CSE5 - P3 ML\s+(Present|Absent|Late|Excused)/);
    expect(text).toMatch(/2026-05-04\s+CSE5\s+(Present|Absent|Late|Excused)/);
    const statuses = new Set(written.filter((m) => m.pin === PINS[0]).map((m) => m.status));
    for (const status of statuses) expect(text).toContain(status[0]!.toUpperCase() + status.slice(1));
  });
});
