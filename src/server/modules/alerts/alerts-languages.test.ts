import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../shared/dates';
import { INTL_LOCALES, type Language } from '../../../shared/languages';
import { NotificationListSchema } from '../../../shared/schemas/alerts';
import { notifications, users } from '../../db/schema';
import { startSmtp, readMail, type TestSmtp } from '../../test/smtp';
import { createTestContext, type TestContext } from '../../test/test-app';
import { MailSender } from '../mail/sender';
import { alertContextOf, evaluateRegister, sendDigests, unsubscribeToken, type AlertContext } from './service';

const PUBLIC_URL = 'https://attendance.example.edu';
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const today = todayIn('UTC');

let smtp: TestSmtp;
let sender: MailSender;
let ctx: TestContext;
let context: AlertContext;
let faculty: string;

/** Each student: their language (null: none chosen) and how they get e-mail. */
const STUDENTS = [
  { pin: 'LNG1', email: 'hindi.student@test.university.edu', language: 'hi', choice: 'immediate' },
  { pin: 'LNG2', email: 'telugu.student@test.university.edu', language: 'te', choice: 'immediate' },
  { pin: 'LNG3', email: 'english.student@test.university.edu', language: null, choice: 'immediate' },
  { pin: 'LNG4', email: 'telugu.digest@test.university.edu', language: 'te', choice: 'daily' },
] as const;
const cookies = new Map<string, string>();
const absences: string[] = [];

beforeAll(async () => {
  smtp = await startSmtp();
  const settings = { url: smtp.url, from: 'office@example.edu' };
  ctx = await createTestContext({ publicUrl: PUBLIC_URL, smtp: settings });
  context = await alertContextOf(ctx.database.db, { timeZone: 'UTC', publicUrl: PUBLIC_URL, smtp: settings, alertThreshold: 75 })();
  faculty = await ctx.signIn('faculty');
  sender = new MailSender({ database: ctx.database, smtp: settings, log: quiet, retryBaseMs: 1, retryMaxMs: 200, pollIntervalMs: 50 });
  await sender.start();

  for (const student of STUDENTS) {
    const cookie = await ctx.signIn('student', { email: student.email, pin: student.pin, className: 'CSE2' });
    cookies.set(student.pin, cookie);
    // Each chooses as a person does: their language, and how they get alerts by e-mail.
    if (student.language) {
      const chosen = await ctx.app.inject({ method: 'PUT', url: '/api/me/language', headers: { cookie }, payload: { language: student.language } });
      expect(chosen.statusCode, chosen.body).toBe(200);
    }
    const email = await ctx.app.inject({ method: 'PUT', url: '/api/me/notification-settings', headers: { cookie }, payload: { email: student.choice } });
    expect(email.statusCode, email.body).toBe(200);
  }
  // Five lectures, two of them attended: 40%, below 75%, with the three absence dates.
  const marks = ['present', 'absent', 'present', 'absent', 'absent'] as const;
  for (const [index, status] of marks.entries()) {
    const date = addDays(today, index - 20);
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/attendance/CSE2/${date}`,
      headers: { cookie: faculty },
      payload: { records: STUDENTS.map((s) => ({ pin: s.pin, status })) },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await evaluateRegister(ctx.database, context, { className: 'CSE2', date, period: 0 });
    if (status === 'absent') absences.push(date);
  }
}, 120_000);

afterAll(async () => {
  await sender?.stop();
  await ctx?.close();
  await smtp?.close();
});

/** A date as the language writes it in a notice: as it is in English, else with the month's name. */
function dateIn(language: Language, iso: string): string {
  if (language === 'en') return iso;
  const month = new Intl.DateTimeFormat(INTL_LOCALES[language], { month: 'short', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
  return `${Number(iso.slice(8, 10))} ${month} ${iso.slice(0, 4)}`;
}
const datesIn = (language: Language) => new Intl.ListFormat(INTL_LOCALES[language], { type: 'conjunction' }).format(absences.map((d) => dateIn(language, d)));

const EXPECTED: Record<Language, { title: string; body: () => string; footer: string }> = {
  en: {
    title: 'Attendance below 75%',
    body: () => `Your attendance this term is 40.0%: 2 of 5 lectures attended, below the 75% required. Absent on ${datesIn('en')}.`,
    footer: `Choose how you get these e-mails on your account page: ${PUBLIC_URL}/account`,
  },
  hi: {
    title: 'उपस्थिति 75% से कम',
    body: () => `इस सत्र में आपकी उपस्थिति 40.0% है: 5 में से 2 व्याख्यानों में उपस्थित, आवश्यक 75% से कम। ${datesIn('hi')} को अनुपस्थित।`,
    footer: `ये ईमेल आपको कैसे मिलें, यह अपने खाते के पेज पर चुनें: ${PUBLIC_URL}/account`,
  },
  te: {
    title: 'హాజరు 75% కంటే తక్కువ',
    body: () => `ఈ టర్మ్‌లో మీ హాజరు 40.0%: 5 లెక్చర్లలో 2కి హాజరయ్యారు, అవసరమైన 75% కంటే తక్కువ. గైర్హాజరైన తేదీలు: ${datesIn('te')}.`,
    footer: `ఈ ఈమెయిల్‌లు మీకు ఎలా రావాలో మీ ఖాతా పేజీలో ఎంచుకోండి: ${PUBLIC_URL}/account`,
  },
};

async function noticesOf(pin: string, acceptLanguage?: string) {
  const answer = await ctx.app.inject({
    method: 'GET',
    url: '/api/notifications',
    headers: { cookie: cookies.get(pin)!, ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) },
  });
  expect(answer.statusCode).toBe(200);
  return NotificationListSchema.parse(answer.json()).items;
}

describe("alerts in the recipient's language", () => {
  it('e-mails each student the alert in the language of their account, through a real SMTP server; English without a choice', async () => {
    await expect.poll(() => smtp.received.length, { timeout: 15_000 }).toBe(3);
    for (const student of STUDENTS.filter((s) => s.choice === 'immediate')) {
      const language = student.language ?? 'en';
      const received = smtp.received.find((mail) => mail.to.includes(student.email));
      expect(received, student.email).toBeDefined();
      const mail = readMail(received!);
      expect(mail.subject).toBe(EXPECTED[language].title);
      expect(mail.text).toContain(EXPECTED[language].body());
      expect(mail.text).toContain(`${PUBLIC_URL}/student`);
      expect(mail.text).toContain(EXPECTED[language].footer);
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    }
  }, 30_000);

  it("keeps each notice's English with it, and shows it to each reader in their language: the account's, else their browser's", async () => {
    const [row] = await ctx.database.db.select().from(notifications).innerJoin(users, eq(users.id, notifications.userId)).where(eq(users.email, STUDENTS[0].email));
    expect(row!.notifications).toMatchObject({ title: EXPECTED.en.title, body: EXPECTED.en.body() });

    expect(await noticesOf('LNG1')).toMatchObject([{ kind: 'below-threshold', title: EXPECTED.hi.title, body: EXPECTED.hi.body(), link: '/student' }]);
    expect(await noticesOf('LNG2')).toMatchObject([{ title: EXPECTED.te.title, body: EXPECTED.te.body() }]);
    expect(await noticesOf('LNG3')).toMatchObject([{ title: EXPECTED.en.title, body: EXPECTED.en.body() }]);
    // No choice of their own: the browser's languages decide, by their weights.
    expect(await noticesOf('LNG3', 'fr-FR, te;q=0.8, hi;q=0.5')).toMatchObject([{ title: EXPECTED.te.title }]);
    expect(await noticesOf('LNG3', 'en-GB, hi;q=0.9')).toMatchObject([{ title: EXPECTED.en.title }]);
    // The account's choice comes first.
    expect(await noticesOf('LNG1', 'te')).toMatchObject([{ title: EXPECTED.hi.title }]);
  });

  it("sends the digest in the recipient's language", async () => {
    const before = smtp.received.length;
    expect(await sendDigests(ctx.database, context, 'daily')).toBe(1);
    await expect.poll(() => smtp.received.length, { timeout: 15_000 }).toBe(before + 1);
    const mail = readMail(smtp.received.at(-1)!);
    expect(smtp.received.at(-1)!.to).toEqual([STUDENTS[3].email]);
    expect(mail.subject).toBe('హాజరు అలర్ట్‌లు: 1 కొత్తది');
    expect(mail.text).toContain('నమస్తే Test student,');
    expect(mail.text).toContain('చివరి ఈమెయిల్ తర్వాత కొత్తవి:');
    expect(mail.text).toContain(`- ${EXPECTED.te.title}: ${EXPECTED.te.body()} ${PUBLIC_URL}/student`);
    expect(mail.text).toContain('ప్రస్తుతం కనీస పరిమితి కంటే తక్కువ:');
    expect(mail.text).toContain('- మొత్తం: 40.0% (5లో 2).');
    expect(mail.text).toContain(`మీ రికార్డు: ${PUBLIC_URL}/student`);
    expect(mail.text).toContain(EXPECTED.te.footer);
  }, 30_000);

  it("opens the unsubscribe link's pages in the account's language, else the browser's", async () => {
    const [hindi] = await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, STUDENTS[0].email));
    const url = `/api/notifications/unsubscribe?t=${encodeURIComponent(unsubscribeToken(context.keys, hindi!.id))}`;
    const page = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="hi">');
    expect(page.body).toContain('<h1 style="font-size: 1.5rem">अलर्ट ईमेल बंद करें</h1>');
    const done = await ctx.app.inject({ method: 'POST', url, headers: { 'accept-language': 'en' } });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('अब आपको कोई अलर्ट ईमेल नहीं मिलेगा।');

    const unknown = await ctx.app.inject({ method: 'GET', url: '/api/notifications/unsubscribe?t=made-up', headers: { 'accept-language': 'te-IN,te;q=0.9' } });
    expect(unknown.body).toContain('<html lang="te">');
    expect(unknown.body).toContain('అలర్ట్ ఈమెయిల్‌లను ఆపండి');
    const english = await ctx.app.inject({ method: 'GET', url: '/api/notifications/unsubscribe?t=made-up' });
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain('You will still see alerts when you sign in to the portal.');
  });
});
