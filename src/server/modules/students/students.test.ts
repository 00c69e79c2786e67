import { PDFParse } from 'pdf-parse';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../shared/dates';
import type { StudentRecord } from '../../../shared/schemas/students';
import { profiles, students } from '../../db/schema';
import { seedRegister as seedPastRegister, type SeedMark } from '../../test/registers';
import { withFacultyApp, type TestContext } from '../../test/test-app';

let ctx: TestContext;
let faculty: string;

withFacultyApp((made) => ({ ctx, faculty } = made));

/** One submitted register, with its counters, as the attendance screen leaves it. */
function seedRegister(className: string, date: string, marks: SeedMark[]): Promise<void> {
  return seedPastRegister(ctx.database, { className, date }, marks);
}

function getRecord(pin: string, cookie: string | null = faculty) {
  return ctx.app.inject({ method: 'GET', url: `/api/students/${pin}`, headers: cookie ? { cookie } : {} });
}

async function pdfText(buffer: Buffer): Promise<{ text: string; pages: string[] }> {
  const parser = new PDFParse({ data: new Uint8Array(buffer) });
  try {
    const result = await parser.getText();
    return { text: result.text, pages: result.pages.map((p) => p.text) };
  } finally {
    await parser.destroy();
  }
}

// Classes are seeded by the migrations; each scenario uses its own class and days so registers never collide.
const PIN_MARKS = '21A91A0501';
const PIN_PROFILE = '21A91A0502';
const PIN_BOTH = '21A91A0503';
const PIN_ROSTER = '21A91A0504';

beforeAll(async () => {
  // Marks only: three registers in CSE2, 2 present of 3; the name changed between days.
  await seedRegister('CSE2', '2026-03-02', [{ pin: PIN_MARKS, name: 'Old Name', present: true }]);
  await seedRegister('CSE2', '2026-03-03', [{ pin: PIN_MARKS, name: 'Kiran Kumar', present: false }]);
  await seedRegister('CSE2', '2026-03-04', [{ pin: PIN_MARKS, name: 'Kiran Kumar', present: true }]);

  await ctx.database.db.insert(profiles).values({ pin: PIN_PROFILE, name: 'Profile Only', designation: 'MBA', status: 'approved' });

  // Both: 3 of 4 present (exactly 75%), one day in another class.
  await ctx.database.db.insert(students).values({ pin: PIN_BOTH, name: 'Roster Name', className: 'CSE3' });
  await ctx.database.db.insert(profiles).values({
    pin: PIN_BOTH,
    name: 'Meghana Iyer',
    designation: 'CSE, 2nd year',
    linkedin: 'https://www.linkedin.com/in/meghana',
    github: 'https://github.com/meghana',
    status: 'approved',
  });
  const days: [string, string, boolean][] = [
    ['CSE3', '2026-03-02', true],
    ['CSE3', '2026-03-03', true],
    ['CSE4', '2026-03-03', false],
    ['CSE3', '2026-03-05', true],
  ];
  for (const [className, date, present] of days) {
    await seedRegister(className, date, [
      { pin: PIN_BOTH, name: 'Roster Name', present },
      { pin: 'SOMEONE-ELSE', name: 'Other', present: !present },
    ]);
  }

  await ctx.database.db.insert(students).values({ pin: PIN_ROSTER, name: 'Only On Roster', className: 'CSE5' });
});

describe('GET /api/students/:pin', () => {
  it('finds a student by attendance marks alone, named as in the latest mark', async () => {
    const res = await getRecord(PIN_MARKS);
    expect(res.statusCode).toBe(200);
    const body: StudentRecord = res.json();
    expect(body.pin).toBe(PIN_MARKS);
    expect(body.name).toBe('Kiran Kumar');
    expect(body.profile).toBeNull();
    expect(body.summary).toMatchObject({ totalDays: 3, presentDays: 2, absentDays: 1, status: 'Low' });
    expect(body.summary.percentage).toBeCloseTo(66.6667, 3);
    expect(body.summary.needToAttend).toBe(1);
    const whole = { period: 0, class: 'CSE2', subject: null };
    expect(body.history).toEqual([
      { date: '2026-03-04', ...whole, status: 'present', present: true },
      { date: '2026-03-03', ...whole, status: 'absent', present: false },
      { date: '2026-03-02', ...whole, status: 'present', present: true },
    ]);
    expect(body.subjects).toEqual([]);
    expect(body.nextBefore).toBeNull();
  });

  it('finds a student by profile alone, with zero days', async () => {
    const res = await getRecord(PIN_PROFILE);
    expect(res.statusCode).toBe(200);
    const body: StudentRecord = res.json();
    expect(body.name).toBe('Profile Only');
    expect(body.profile).toMatchObject({ pin: PIN_PROFILE, designation: 'MBA' });
    expect(body.summary).toEqual({
      totalDays: 0,
      presentDays: 0,
      absentDays: 0,
      percentage: 0,
      status: 'Low',
      canMiss: 0,
      needToAttend: 0,
    });
    expect(body.history).toEqual([]);
  });

  it('combines profile and marks: the roster name wins over a typed profile name, 75% exactly is Good, history newest first', async () => {
    const body: StudentRecord = (await getRecord(PIN_BOTH)).json();
    expect(body.name).toBe('Roster Name');
    expect(body.profile?.name).toBe('Meghana Iyer');
    expect(body.summary).toEqual({
      totalDays: 4,
      presentDays: 3,
      absentDays: 1,
      percentage: 75,
      status: 'Good',
      canMiss: 0,
      needToAttend: 0,
    });
    expect(body.history.map((h) => `${h.date} ${h.class}`)).toEqual([
      '2026-03-05 CSE3',
      '2026-03-03 CSE3',
      '2026-03-03 CSE4',
      '2026-03-02 CSE3',
    ]);
  });

  it('finds a student who is on the roster but has no marks yet, with zero days', async () => {
    const res = await getRecord(PIN_ROSTER);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Only On Roster', profile: null, history: [], summary: { totalDays: 0 } });
  });

  it('answers 404 with the specification message when nothing is known of the PIN', async () => {
    const res = await getRecord('99Z99Z9999');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'No student records found for this PIN' });
  });

  it('matches the whole PIN, never a prefix; case and spaces around it do not matter', async () => {
    expect((await getRecord(PIN_MARKS.slice(0, -1))).statusCode).toBe(404);
    const lower = await getRecord(PIN_MARKS.toLowerCase());
    expect(lower.statusCode).toBe(200);
    expect(lower.json().pin).toBe(PIN_MARKS);
    const spaced = await getRecord(`%20${PIN_MARKS}%20`);
    expect(spaced.statusCode).toBe(200);
    expect(spaced.json().pin).toBe(PIN_MARKS);
  });

  it('asks for a PIN when the PIN is blank', async () => {
    for (const url of ['/api/students/', '/api/students/%20%20', '/api/students/%20/report.pdf', '/api/students//report.pdf']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { cookie: faculty } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toBe('Please enter a PIN number');
    }
  });

  it('shows a student their own record and refuses another PIN', async () => {
    const own = await ctx.signIn('student', { pin: PIN_BOTH });
    const mine = await getRecord(PIN_BOTH, own);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().summary.totalDays).toBe(4);
    expect(mine.headers['cache-control']).toBe('private, no-cache');

    const other = await getRecord(PIN_MARKS, own);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ message: 'Students can only see their own attendance and profile' });
    // A PIN that does not exist is refused the same way: a student cannot probe which PINs exist.
    expect((await getRecord('99Z99Z9999', own)).statusCode).toBe(403);
  });

  it('needs a sign-in', async () => {
    const res = await getRecord(PIN_MARKS, null);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Please sign in' });
  });
});

describe('GET /api/students/:pin/report.pdf', () => {
  const getPdf = (pin: string, cookie: string | null = faculty) =>
    ctx.app.inject({ method: 'GET', url: `/api/students/${pin}/report.pdf`, headers: cookie ? { cookie } : {} });

  it('downloads a PDF with the portal name, profile, summary with 2 decimals and history', async () => {
    const res = await getPdf(PIN_MARKS);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="attendance-${PIN_MARKS}.pdf"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const { text } = await pdfText(res.rawPayload);
    for (const line of [
      'University Portal',
      'Attendance Report',
      'Name: Kiran Kumar',
      `PIN: ${PIN_MARKS}`,
      'Designation: Student',
      'Total Days: 3',
      'Present: 2',
      'Absent: 1',
      'Percentage: 66.67%',
      'Status: Low',
      'below the required 75%',
    ]) {
      expect(text).toContain(line);
    }
    expect(text).toMatch(/2026-03-03\s+CSE2\s+Absent/);
    expect(text).toMatch(/2026-03-04\s+CSE2\s+Present/);
    expect(text).toMatch(/Generated on \d{4}-\d{2}-\d{2}/);
  });

  it('prints the profile and its links as plain text', async () => {
    const { text } = await pdfText((await getPdf(PIN_BOTH)).rawPayload);
    for (const line of [
      'Name: Roster Name',
      'Designation: CSE, 2nd year',
      'LinkedIn: https://www.linkedin.com/in/meghana',
      'GitHub: https://github.com/meghana',
      'Percentage: 75.00%',
      'Status: Good',
    ]) {
      expect(text).toContain(line);
    }
  });

  it('runs the history over as many pages as it needs, repeating the table header', async () => {
    const pin = '21A91A0599';
    await ctx.database.db.insert(profiles).values({ pin, name: 'Long History', designation: 'CSE', status: 'approved' });
    const start = '2025-06-02';
    for (let day = 0; day < 120; day += 1) {
      await seedRegister('CSE6', addDays(start, day), [{ pin, name: 'Long History', present: day % 4 !== 0 }]);
    }
    const res = await getPdf(pin);
    const { text, pages } = await pdfText(res.rawPayload);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages.slice(1)) {
      expect(page).toMatch(/Date\s+Class\s+Status/);
    }
    expect(text).toContain('Total Days: 120');
    expect(text).toContain('Percentage: 75.00%');
    // Every day is in the table: the first, the last and all between.
    for (let day = 0; day < 120; day += 1) expect(text).toContain(addDays(start, day));
    expect(text).toContain(`Page ${pages.length} of ${pages.length}`);
  });

  it('has the same access rules as the record', async () => {
    const own = await ctx.signIn('student', { pin: PIN_ROSTER });
    expect((await getPdf(PIN_ROSTER, own)).statusCode).toBe(200);
    const other = await getPdf(PIN_MARKS, own);
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe('Students can only see their own attendance and profile');
    expect((await getPdf(PIN_MARKS, null)).statusCode).toBe(401);
    const missing = await getPdf('99Z99Z9999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'No student records found for this PIN' });
  });

  it('keeps a PIN with a slash out of the file path', async () => {
    const pin = '21/CSE/7';
    await ctx.database.db.insert(profiles).values({ pin, name: 'Slash Pin', designation: 'CSE', status: 'approved' });
    const res = await getPdf(encodeURIComponent(pin));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="attendance-21-CSE-7.pdf"');
    expect((await pdfText(res.rawPayload)).text).toContain('PIN: 21/CSE/7');
  });
});
