import { and, eq, like, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../shared/dates';
import { NotificationListSchema } from '../../../shared/schemas/alerts';
import { backgroundJobs } from '../../background-jobs';
import { loadConfig } from '../../config';
import { openDatabase, type Database, type Executor } from '../../db/client';
import { InProcessJobRunner } from '../../jobs/runner';
import { alertEpisodes, mailOutbox, notificationPrefs, notifications, periods, registers, subjects, timetableSlots, users } from '../../db/schema';
import { onPostgres } from '../../test/postgres';
import { startSmtp, unusedPort } from '../../test/smtp';
import { createTestContext, type TestContext } from '../../test/test-app';
import { createPostgresCopy } from '../../test/test-db';
import { addUser } from '../accounts/service';
import { saveRegister } from '../attendance/service';
import { MailSender } from '../mail/sender';
import { putStudents } from '../roster/service';
import { absenceDates, latestMarksOf } from './repository';
import { ATTENDANCE_CHANNEL } from '../attendance/service';
import { alertContextOf, checkMissingRegisters, evaluateRegister, evaluateTerm, onRegisterSaved, sendDigests, type AlertContext } from './service';

const PUBLIC_URL = 'https://attendance.example.edu';
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

let ctx: TestContext;
let context: AlertContext;
let faculty: string;

beforeAll(async () => {
  ctx = await createTestContext({ publicUrl: PUBLIC_URL, smtp: { url: 'smtp://127.0.0.1:25', from: 'office@example.edu' } });
  context = await alertContextOf(ctx.database.db, { timeZone: 'UTC', publicUrl: PUBLIC_URL, smtp: {}, alertThreshold: 75 })();
  faculty = await ctx.signIn('faculty');
}, 60_000);
afterAll(async () => ctx?.close());

const today = todayIn('UTC');

/** Saves a class's whole-day register on a past day with these PINs present, as faculty do, then evaluates it as the running portal does. */
async function take(className: string, daysAgo: number, marks: Record<string, 'present' | 'absent' | 'excused'>) {
  const date = addDays(today, -daysAgo);
  const saved = await ctx.app.inject({
    method: 'PUT',
    url: `/api/attendance/${className}/${date}`,
    headers: { cookie: faculty },
    payload: { records: Object.entries(marks).map(([pin, status]) => ({ pin, status })) },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  await evaluateRegister(ctx.database, context, { className, date, period: 0 });
  return date;
}

async function noticesOf(cookie: string) {
  const answer = await ctx.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie } });
  expect(answer.statusCode).toBe(200);
  return NotificationListSchema.parse(answer.json());
}

async function userId(email: string): Promise<string> {
  const [row] = await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

const mailsTo = (email: string) => ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(mailOutbox.id);

describe('below-threshold', () => {
  const email = 'below.student@test.university.edu';
  let student: string;

  it('tells a student who falls below 75% once, in the portal and by e-mail, with the figures and dates, and a one-click unsubscribe', async () => {
    student = await ctx.signIn('student', { email, pin: 'AL1', className: 'CSE5' });
    const chosen = await ctx.app.inject({ method: 'PUT', url: '/api/me/notification-settings', headers: { cookie: student }, payload: { email: 'immediate' } });
    expect(chosen.json()).toEqual({ email: 'immediate' });
    await take('CSE5', 40, { AL1: 'present' });
    const first = await take('CSE5', 39, { AL1: 'absent' });
    await take('CSE5', 38, { AL1: 'present' });
    const second = await take('CSE5', 37, { AL1: 'absent' });
    expect((await noticesOf(student)).items).toEqual([]); // 2 of 4: fewer than 5 lectures held
    const third = await take('CSE5', 36, { AL1: 'absent' });

    const { unread, items } = await noticesOf(student);
    expect(unread).toBe(1);
    expect(items).toMatchObject([
      {
        kind: 'below-threshold',
        title: 'Attendance below 75%',
        body: `Your attendance this term is 40.0%: 2 of 5 lectures attended, below the 75% required. Absent on ${first}, ${second} and ${third}.`,
        link: '/student',
        read: false,
      },
    ]);
    const [mail] = await mailsTo(email);
    expect(mail).toMatchObject({ subject: 'Attendance below 75%' });
    expect(mail!.body).toContain(`Absent on ${first}, ${second} and ${third}.`);
    expect(mail!.body).toContain(`${PUBLIC_URL}/student`);
    expect(mail!.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail!.headers['List-Unsubscribe']).toMatch(new RegExp(`^<${PUBLIC_URL}/api/notifications/unsubscribe\\?t=[^>]+>$`));

    // Sent through a real SMTP server that is down at first, then comes up on its port.
    const port = await unusedPort();
    const sender = new MailSender({ database: ctx.database, smtp: { url: `smtp://127.0.0.1:${port}`, from: 'office@example.edu' }, log: quiet, retryBaseMs: 1, retryMaxMs: 200, pollIntervalMs: 50 });
    await sender.start();
    try {
      await expect.poll(async () => (await mailsTo(email))[0]!.attempts, { timeout: 10_000 }).toBeGreaterThan(0);
      const smtp = await startSmtp({ port });
      try {
        await expect.poll(() => smtp.received.length, { timeout: 15_000 }).toBe(1);
        expect(smtp.received[0]!.to).toEqual([email]);
        expect(smtp.received[0]!.data).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
        expect(smtp.received[0]!.data).toContain('40.0%: 2 of 5 lectures attended');
      } finally {
        await smtp.close();
      }
    } finally {
      await sender.stop();
    }
  }, 60_000);

  it('adds nothing for further absences in the same episode', async () => {
    await take('CSE5', 35, { AL1: 'absent' });
    await take('CSE5', 34, { AL1: 'absent' });
    expect((await noticesOf(student)).items.filter((n) => n.kind === 'below-threshold')).toHaveLength(1);
    // The third absence in a row is news of its own (consecutive absences), the fall below 75% is not.
    expect((await mailsTo(email)).map((m) => m.subject)).toEqual(['Attendance below 75%', 'Absent 3 times in a row']);
  });

  it('re-arms once the student is back at 77%, and fires again on a new fall', async () => {
    // 2 of 7 so far: 16 presents in a row bring it to 18 of 23, 78.3%; 15 give 17 of 22, 77.3%.
    for (let day = 33; day > 18; day--) await take('CSE5', day, { AL1: 'present' });
    const rearmed = await ctx.database.db.select().from(notifications).where(and(eq(notifications.userId, await userId(email)), eq(notifications.kind, 'below-threshold')));
    expect(rearmed).toHaveLength(1);
    // Below again: a new episode, a new notice.
    for (let day = 18; day > 12; day--) await take('CSE5', day, { AL1: 'absent' });
    const kinds = (await noticesOf(student)).items.map((n) => n.kind).filter((k) => k === 'below-threshold');
    expect(kinds).toHaveLength(2);
  }, 60_000);

  it('turns e-mail off through the unsubscribe link, without a sign-in', async () => {
    const [mail] = await mailsTo(email);
    const url = /<[^>]+(\/api\/notifications\/unsubscribe\?t=[^>]+)>/.exec(mail!.headers['List-Unsubscribe']!)![1]!;
    const page = await ctx.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Stop alert e-mails');
    const done = await ctx.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode, done.body).toBe(200);
    const settings = await ctx.app.inject({ method: 'GET', url: '/api/me/notification-settings', headers: { cookie: student } });
    expect(settings.json()).toEqual({ email: 'never' });
    const forged = await ctx.app.inject({ method: 'POST', url: `${url.slice(0, -4)}AAAA`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(forged.statusCode).toBe(400);
  });
});

describe('consecutive absences, digests and privacy', () => {
  it('fires after 3 absences in a row with their dates, once, and re-arms after a present mark', async () => {
    const student = await ctx.signIn('student', { email: 'row.student@test.university.edu', pin: 'AL2', className: 'CSE6' });
    const dates = [await take('CSE6', 30, { AL2: 'absent' }), await take('CSE6', 29, { AL2: 'absent' }), await take('CSE6', 28, { AL2: 'absent' })];
    await take('CSE6', 27, { AL2: 'absent' });
    const row = (await noticesOf(student)).items.filter((n) => n.kind === 'consecutive-absences');
    expect(row).toEqual([
      expect.objectContaining({ title: 'Absent 3 times in a row', body: expect.stringContaining(`on ${dates[0]}, ${dates[1]} and ${dates[2]}.`) }),
    ]);
    await take('CSE6', 26, { AL2: 'present' });
    for (const day of [25, 24, 23]) await take('CSE6', day, { AL2: 'absent' });
    expect((await noticesOf(student)).items.filter((n) => n.kind === 'consecutive-absences')).toHaveLength(2);
  });

  it('fires when an excused mark closes the gap between absences, though the student is not absent in that save', async () => {
    const student = await ctx.signIn('student', { email: 'gap.student@test.university.edu', pin: 'AL7', className: 'CSE7' });
    await take('CSE7', 40, { AL7: 'absent' });
    await take('CSE7', 39, { AL7: 'absent' });
    await take('CSE7', 38, { AL7: 'present' });
    await take('CSE7', 37, { AL7: 'absent' });
    expect((await noticesOf(student)).items.filter((n) => n.kind === 'consecutive-absences')).toHaveLength(0);
    // The present mark turned excused: the three latest counted marks are absences.
    await take('CSE7', 38, { AL7: 'excused' });
    expect((await noticesOf(student)).items.filter((n) => n.kind === 'consecutive-absences')).toHaveLength(1);
  });

  it("sends the daily digest once, with each subject below the threshold, its figures and absence dates; never another student's", async () => {
    const email = 'row.student@test.university.edu';
    expect(await sendDigests(ctx.database, context, 'daily')).toBeGreaterThanOrEqual(1);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Attendance alerts: \d+ new$/);
    expect(mails[0]!.body).toContain('Absent 3 times in a row');
    expect(mails[0]!.body).toContain('Below the threshold now:');
    expect(mails[0]!.body).toMatch(/- Overall: 12\.5% \(1 of 8\)\./);
    expect(mails[0]!.body).toContain(`${PUBLIC_URL}/student`);
    expect(mails[0]!.body).not.toContain('AL1');
    // A second run (another process, a restart) finds nothing left to send.
    await sendDigests(ctx.database, context, 'daily');
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('shows a student only their own notices, and marks only their own as read', async () => {
    const other = await ctx.signIn('student', { email: 'quiet.student@test.university.edu', pin: 'AL3', className: 'CSE7' });
    expect(await noticesOf(other)).toEqual({ unread: 0, items: [] });
    const [theirs] = await ctx.database.db.select().from(notifications).where(eq(notifications.userId, await userId('row.student@test.university.edu')));
    const read = await ctx.app.inject({ method: 'POST', url: '/api/notifications/read', headers: { cookie: other }, payload: { ids: [String(theirs!.id)] } });
    expect(read.json()).toEqual({ unread: 0 });
    const [after] = await ctx.database.db.select().from(notifications).where(eq(notifications.id, theirs!.id));
    expect(after!.readAt).toBeNull();
    expect((await ctx.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
  });
});

describe('the digests on the job runner', () => {
  it('sends the 07:30 digest at its time, not twice after a restart, and catches up a missed one', async () => {
    const email = 'digest.student@test.university.edu';
    const student = await ctx.signIn('student', { email, pin: 'AL4', className: 'CSE4' });
    for (const day of [60, 59, 58]) await take('CSE4', day, { AL4: 'absent' });
    expect((await noticesOf(student)).unread).toBe(1);
    const config = {
      ...loadConfig({ PORTAL_RETAIN_MESSAGES_DAYS: 'off', PORTAL_TIMEZONE: 'Asia/Kolkata', PORTAL_PUBLIC_URL: PUBLIC_URL }),
      smtp: { url: 'smtp://127.0.0.1:25', from: 'office@example.edu' },
    };
    const jobs = backgroundJobs({ database: ctx.database, config });
    const log = { info: () => undefined, warn: () => undefined };
    // 07:31 in Kolkata is 02:01 UTC: the digest goes (the runs of the last 24 hours, yesterday's too, find one notice to send).
    let now = new Date('2026-12-02T02:01:00Z');
    const runner = new InProcessJobRunner({ database: ctx.database, timeZone: config.timeZone, ...jobs, clock: () => now, log });
    await runner.tick();
    expect((await mailsTo(email)).map((m) => m.subject)).toEqual(['Attendance alerts: 1 new']);
    // A restart: a new runner on the same database, the same morning.
    const restarted = new InProcessJobRunner({ database: ctx.database, timeZone: config.timeZone, ...jobs, clock: () => now, log });
    await restarted.tick();
    expect(await mailsTo(email)).toHaveLength(1);
    // A new notice, then the portal is down over the next 07:30 and back at 11:00: the missed digest goes.
    for (const day of [57, 56]) await take('CSE4', day, { AL4: 'absent' });
    now = new Date('2026-12-02T10:00:00Z');
    await restarted.tick();
    expect(await mailsTo(email)).toHaveLength(1); // it waits for the next digest
    now = new Date('2026-12-03T05:30:00Z');
    await new InProcessJobRunner({ database: ctx.database, timeZone: config.timeZone, ...jobs, clock: () => now, log }).tick();
    expect((await mailsTo(email)).map((m) => m.subject)).toEqual(['Attendance alerts: 1 new', 'Attendance alerts: 1 new']);
  });
});

describe('personal data', () => {
  it("exports a student's alerts and notices, and an erasure leaves their episodes under the pseudonym", async () => {
    const admin = await ctx.signIn('admin');
    const exported = await ctx.app.inject({ method: 'GET', url: '/api/admin/students/AL2/export', headers: { cookie: admin } });
    expect(exported.statusCode).toBe(200);
    const data = exported.json() as { alerts: { rule: string }[]; notifications: { title: string }[] };
    expect(data.alerts.map((a) => a.rule)).toContain('consecutive-absences');
    expect(data.notifications.map((n) => n.title)).toContain('Absent 3 times in a row');
    const erased = await ctx.app.inject({ method: 'POST', url: '/api/admin/students/AL2/erase', headers: { cookie: admin }, payload: { confirm: 'AL2' } });
    expect(erased.statusCode, erased.body).toBe(200);
    const left = await ctx.database.db.select().from(alertEpisodes).where(eq(alertEpisodes.pin, 'AL2'));
    expect(left).toEqual([]);
    expect(await ctx.database.db.select().from(alertEpisodes).where(like(alertEpisodes.pin, 'ERASED-%'))).not.toHaveLength(0);
  });
});

describe('register-missing', () => {
  it("reminds the slot's teacher 30 minutes after the period ends, once; a slot without a teacher reminds the admins", async () => {
    const db = ctx.database.db;
    const teacher = await addUser(db, { email: 'slot.teacher@test.university.edu', name: 'Slot Teacher', role: 'faculty', password: 'correct horse battery' });
    await ctx.signIn('admin', { email: 'alerts.admin@test.university.edu' });
    await db.insert(subjects).values({ code: 'ALG', name: 'Algebra' }).onConflictDoNothing();
    await db.insert(periods).values([{ period: 1, startsAt: '09:00', endsAt: '09:50' }, { period: 2, startsAt: '10:00', endsAt: '10:50' }]);
    // 2026-11-23 is a Monday.
    await db.insert(timetableSlots).values([
      { className: 'CSE8', weekday: 1, period: 1, subjectCode: 'ALG', teacherId: teacher.id },
      { className: 'CSE8', weekday: 1, period: 2, subjectCode: 'ALG' },
    ]);
    await putStudents(db, [{ pin: 'AL9', name: 'Missing Register Student', className: 'CSE8' }]);
    const at = (time: string) => ({ ...context, now: () => new Date(`2026-11-23T${time}:00Z`) });
    expect(await checkMissingRegisters(ctx.database, at('10:19'))).toBe(0);
    expect(await checkMissingRegisters(ctx.database, at('10:21'))).toBe(1);
    expect(await checkMissingRegisters(ctx.database, at('10:40'))).toBe(0);
    const toTeacher = await db.select().from(notifications).where(eq(notifications.userId, teacher.id));
    expect(toTeacher).toMatchObject([
      { kind: 'register-missing', title: 'Register not taken: CSE8, period 1', link: '/attendance/CSE8?date=2026-11-23&period=1' },
    ]);
    expect(await checkMissingRegisters(ctx.database, at('11:21'))).toBe(1);
    const admin = await userId('alerts.admin@test.university.edu');
    const toAdmin = await db.select().from(notifications).where(and(eq(notifications.userId, admin), eq(notifications.kind, 'register-missing')));
    expect(toAdmin.map((n) => n.title)).toEqual(['Register not taken: CSE8, period 2']);
  });
});

describe('a term evaluated at once', () => {
  it('opens the episodes that saves never evaluated would have, with their notices, and nothing more a second time', async () => {
    await putStudents(ctx.database.db, [
      { pin: 'EV1', name: 'Often Away', className: 'CSE2' },
      { pin: 'EV2', name: 'Always Here', className: 'CSE2' },
    ]);
    const student = await ctx.signIn('student', { email: 'often.away@test.university.edu', pin: 'EV1', className: 'CSE2' });
    // Saved as data that came without alerts: no evaluation after each register.
    for (const [daysAgo, status] of [[50, 'present'], [49, 'absent'], [48, 'present'], [47, 'absent'], [46, 'absent'], [45, 'absent']] as const) {
      const saved = await ctx.app.inject({
        method: 'PUT',
        url: `/api/attendance/CSE2/${addDays(today, -daysAgo)}`,
        headers: { cookie: faculty },
        payload: { records: [{ pin: 'EV1', status }, { pin: 'EV2', status: 'present' }] },
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const episodesOf = (pin: string) => ctx.database.db.select().from(alertEpisodes).where(eq(alertEpisodes.pin, pin));
    expect(await episodesOf('EV1')).toEqual([]);
    const [register] = await ctx.database.db.select({ termId: registers.termId }).from(registers).where(eq(registers.className, 'CSE2')).limit(1);

    const progress: number[] = [];
    const first = await evaluateTerm(ctx.database, context, register!.termId, (done) => progress.push(done));
    expect(first.fired).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)).toBeGreaterThan(0);
    expect((await episodesOf('EV1')).map((e) => e.rule).sort()).toEqual(['below-threshold', 'consecutive-absences']);
    expect(await episodesOf('EV2')).toEqual([]);
    const notices = (await noticesOf(student)).items.map((n) => n.kind).sort();
    expect(notices).toEqual(['below-threshold', 'consecutive-absences']);

    const again = await evaluateTerm(ctx.database, context, register!.termId);
    expect(again.fired).toBe(0);
    expect((await noticesOf(student)).items).toHaveLength(2);
  });
});

describe('queueing the evaluation of a save', () => {
  it('is done by the process that saved, not by every process that hears of it', async () => {
    const handed: string[] = [];
    const listener = onRegisterSaved(ctx.database, async (register) => void handed.push(`${register.className}/${register.period}`), quiet);
    try {
      await putStudents(ctx.database.db, [{ pin: 'QU1', name: 'Queued Once', className: 'CSE3' }]);
      const date = addDays(today, -60);
      const saved = await ctx.app.inject({
        method: 'PUT',
        url: `/api/attendance/CSE3/${date}`,
        headers: { cookie: faculty },
        payload: { records: [{ pin: 'QU1', status: 'present' }] },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      // Another process's save, and one from a process that names no sender (an earlier version).
      await ctx.database.notify(ATTENDANCE_CHANNEL, JSON.stringify({ class: 'CSE3', date, period: 1, from: 'another-process' }));
      await ctx.database.notify(ATTENDANCE_CHANNEL, JSON.stringify({ class: 'CSE3', date, period: 2 }));
      await expect.poll(() => handed, { timeout: 5_000 }).toEqual(['CSE3/0', 'CSE3/2']);
    } finally {
      await listener.stop();
    }
  });
});

describe('reading the latest marks', () => {
  it('gives the latest absence dates, oldest first, the same as the end of all of them', async () => {
    const [register] = await ctx.database.db.select({ termId: registers.termId }).from(registers).where(and(eq(registers.className, 'CSE5'), eq(registers.date, addDays(today, -39))));
    const all = await absenceDates(ctx.database.db, 'AL1', null, register!.termId);
    expect(all.length).toBeGreaterThan(3);
    expect(await absenceDates(ctx.database.db, 'AL1', null, register!.termId, 3)).toEqual(all.slice(-3));
    expect(await absenceDates(ctx.database.db, 'AL1', '', register!.termId, 100)).toEqual(all);
  });

  it('counts days, not lectures, when a student was absent from several lectures a day', async () => {
    await ctx.database.db.insert(subjects).values({ code: 'LT', name: 'Latest Dates' }).onConflictDoNothing();
    await putStudents(ctx.database.db, [{ pin: 'LT1', name: 'Away All Day', className: 'CSE4' }]);
    const days = [addDays(today, -70), addDays(today, -69)];
    for (const date of days) {
      for (const period of [1, 2, 3]) {
        const saved = await ctx.app.inject({
          method: 'PUT',
          url: `/api/attendance/CSE4/${date}?period=${period}`,
          headers: { cookie: faculty },
          payload: { records: [{ pin: 'LT1', status: 'absent' }], subject: 'LT' },
        });
        expect(saved.statusCode, saved.body).toBe(200);
      }
    }
    const [register] = await ctx.database.db.select({ termId: registers.termId }).from(registers).where(and(eq(registers.className, 'CSE4'), eq(registers.date, days[0]!)));
    expect(await absenceDates(ctx.database.db, 'LT1', null, register!.termId, 2)).toEqual(days);
    expect(await absenceDates(ctx.database.db, 'LT1', 'LT', register!.termId, 1)).toEqual([days[1]]);
  });

  it("walks each student's marks newest first through the history index, never sorting all of them", async () => {
    const plan = await ctx.database.db.transaction(async (tx) => {
      // As on a large term, where walking the history index in its order is the way in: sorting is
      // allowed where nothing else can give the order.
      for (const setting of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort']) await tx.execute(sql.raw(`set local ${setting} = off`));
      // The very statement the evaluation sends, explained instead of run.
      let explained: { 'QUERY PLAN': string }[] = [];
      const explaining = {
        execute: async (query: SQL) => {
          const result = (await tx.execute(sql`explain ${query}`)) as unknown as { rows: { 'QUERY PLAN': string }[] };
          explained = result.rows;
          return { rows: [] };
        },
      } as unknown as Executor;
      await latestMarksOf(explaining, ['AL1', 'AL2'], null, null, 3);
      return explained.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/attendance_marks_history_idx/);
    // Only the answer's rows are put in order; a student's own marks come from the index in order.
    expect(plan).not.toMatch(/Sort Key: attendance_marks\.date/);
  });
});

describe.runIf(onPostgres)('two processes on PostgreSQL', () => {
  /** Two server processes' databases on a copy of the test database, closed and dropped afterwards. */
  async function twoProcesses(test: (one: Database, two: Database) => Promise<void>) {
    const copy = await createPostgresCopy(process.env.TEST_DATABASE_URL!);
    const databases: Database[] = [];
    try {
      for (let i = 0; i < 2; i++) databases.push(await openDatabase({ databaseUrl: copy.url }));
      await test(databases[0]!, databases[1]!);
    } finally {
      for (const database of databases) await database.close();
      await copy.drop();
    }
  }

  it('give one notice and one e-mail for one event, however many of them evaluate it', () =>
    twoProcesses(async (one, two) => {
      await putStudents(one.db, [{ pin: 'PG1', name: 'Twice Evaluated', className: 'CSE1' }]);
      const account = await addUser(one.db, { email: 'twice@test.university.edu', name: 'Twice', role: 'student', pin: 'PG1', password: 'correct horse battery' });
      const saver = await addUser(one.db, { email: 'saver@test.university.edu', name: 'Saver', role: 'faculty', password: 'correct horse battery' });
      await one.db.insert(notificationPrefs).values({ userId: account.id, email: 'immediate' });
      for (let day = 10; day > 7; day--) {
        const date = addDays(today, -day);
        await saveRegister(one, { className: 'CSE1', date, user: saver, body: { records: [{ pin: 'PG1', status: 'absent' }] }, timeZone: 'UTC' });
        // Both processes hear the save and evaluate it at once.
        await Promise.all([
          evaluateRegister(one, context, { className: 'CSE1', date, period: 0 }),
          evaluateRegister(two, context, { className: 'CSE1', date, period: 0 }),
        ]);
      }
      const notices = await one.db.select().from(notifications).where(eq(notifications.userId, account.id));
      expect(notices.map((n) => n.kind)).toEqual(['consecutive-absences']);
      expect(await one.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'twice@test.university.edu'))).toHaveLength(1);
    }), 60_000);

  it("open and close a register's episodes together, once each, while the other process evaluates the same", () =>
    twoProcesses(async (one, two) => {
      const pins = ['PB1', 'PB2', 'PB3', 'PB4', 'PB5', 'PB6'];
      await putStudents(one.db, pins.map((pin) => ({ pin, name: `Student ${pin}`, className: 'CSE3' })));
      const accounts = await Promise.all(
        pins.map((pin) => addUser(one.db, { email: `${pin.toLowerCase()}@test.university.edu`, name: pin, role: 'student', pin, password: 'correct horse battery' })),
      );
      const saver = await addUser(one.db, { email: 'batch.saver@test.university.edu', name: 'Saver', role: 'faculty', password: 'correct horse battery' });
      const evaluateBoth = async (date: string, status: 'absent' | 'present') => {
        await saveRegister(one, { className: 'CSE3', date, user: saver, body: { records: pins.map((pin) => ({ pin, status })) }, timeZone: 'UTC' });
        return Promise.all([evaluateRegister(one, context, { className: 'CSE3', date, period: 0 }), evaluateRegister(two, context, { className: 'CSE3', date, period: 0 })]);
      };
      for (let day = 20; day > 17; day--) await evaluateBoth(addDays(today, -day), 'absent');
      const openRuns = () =>
        one.db
          .select({ pin: alertEpisodes.pin })
          .from(alertEpisodes)
          .where(and(eq(alertEpisodes.rule, 'consecutive-absences'), like(alertEpisodes.pin, 'PB%'), sql`${alertEpisodes.closedAt} is null`));
      expect((await openRuns()).map((row) => row.pin).sort()).toEqual(pins);
      for (const account of accounts) {
        const kinds = (await one.db.select().from(notifications).where(eq(notifications.userId, account.id))).map((n) => n.kind);
        expect(kinds.filter((kind) => kind === 'consecutive-absences'), account.email).toHaveLength(1);
      }
      // A present day ends every run: closed once, by one of the two.
      const closed = await evaluateBoth(addDays(today, -17), 'present');
      expect(await openRuns()).toEqual([]);
      expect(closed[0].rearmed + closed[1].rearmed).toBe(pins.length);
    }), 60_000);
});
