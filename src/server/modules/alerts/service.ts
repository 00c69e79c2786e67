/**
 * Alerts (decision 44): rules evaluated after saves and every minute, each firing once per episode
 * (rule, student, scope, term: a unique index holds it, however many processes evaluate), notices
 * in the portal's bell, and e-mail as each account chooses: at once, in a daily or weekly digest,
 * or never, every message with a one-click unsubscribe.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { percentage } from '../../../shared/attendance-rules';
import {
  ALERT_RULES,
  BELOW_THRESHOLD_MIN_HELD,
  CONSECUTIVE_ABSENCES,
  DEFAULT_EMAIL_CHOICE,
  REARM_POINTS,
  REGISTER_GRACE_MINUTES,
  DEFAULT_ALERT_THRESHOLD,
  type AlertRule,
  type AlertSettings,
  type EmailChoice,
  type MarkRead,
  type Notification,
  type NotificationList,
} from '../../../shared/schemas/alerts';
import { todayIn } from '../../../shared/dates';
import type { Language } from '../../../shared/languages';
import type { Database, Db, Executor } from '../../db/client';
import { signingKeys } from '../../db/secrets';
import { badRequest } from '../../http-error';
import { translator, type Translator } from '../../i18n';
import { actorOf, recordAudit } from '../audit/service';
import { ATTENDANCE_CHANNEL } from '../attendance/service';
import { queueMail } from '../mail/service';
import { periodTimes, slotsWithTeachers } from '../timetable/service';
import { datesText, noticeText, storedNoticeText, type NoticeContent } from './notices';
import * as repo from './repository';
import type { NotificationRow, Recipient } from './repository';

/** Notified (with the account's id) when an account gets a notice, so that its open pages hear it at once. */
export const NOTIFICATION_CHANNEL = 'notifications';

/** What the alerts need of the portal's settings. */
export interface AlertContext {
  /** PORTAL_THRESHOLD. */
  threshold: number;
  timeZone: string;
  /** The portal's address for links in e-mails; unset: links are paths. */
  publicUrl: string | undefined;
  /** E-mail is sent only when SMTP is configured. */
  mail: boolean;
  /** The keys that sign unsubscribe links: the first signs, any verifies. */
  keys: readonly string[];
  /** A clock the tests control. */
  now?: () => Date;
}

const nowOf = (context: AlertContext) => context.now?.() ?? new Date();

/**
 * The alerts' context from the portal's settings: its keys are read from the database (or
 * PORTAL_SECRET) at the first use, once the database is open.
 */
export function alertContextOf(
  db: Db,
  config: { alertThreshold?: number | undefined; timeZone: string; publicUrl?: string | undefined; smtp?: unknown; secret?: string[] | undefined },
): () => Promise<AlertContext> {
  let made: Promise<AlertContext> | undefined;
  return () => {
    made ??= signingKeys(db, 'unsubscribe', config.secret).then((keys) => ({
      threshold: config.alertThreshold ?? DEFAULT_ALERT_THRESHOLD,
      timeZone: config.timeZone,
      publicUrl: config.publicUrl,
      mail: config.smtp !== undefined,
      keys,
    }));
    made.catch(() => {
      made = undefined;
    });
    return made;
  };
}

// ---- settings ----

export async function alertSettings(db: Executor, threshold: number): Promise<AlertSettings> {
  const switches = new Map((await repo.listRuleSwitches(db)).map((row) => [row.rule, row.enabled]));
  return { threshold, rules: ALERT_RULES.map((rule) => ({ rule, enabled: switches.get(rule) ?? true })) };
}

export async function updateAlertRules(
  database: Pick<Database, 'db'>,
  user: { id: string; email: string },
  threshold: number,
  rules: { rule: AlertRule; enabled: boolean }[],
): Promise<AlertSettings> {
  return database.db.transaction(async (tx) => {
    for (const { rule, enabled } of rules) await repo.setRuleSwitch(tx, rule, enabled);
    await recordAudit(tx, actorOf(user), 'alerts.update', 'alerts', Object.fromEntries(rules.map((r) => [r.rule, r.enabled])));
    return alertSettings(tx, threshold);
  });
}

async function enabledRules(db: Executor): Promise<Set<AlertRule>> {
  const settings = await alertSettings(db, 0);
  return new Set(settings.rules.filter((r) => r.enabled).map((r) => r.rule));
}

// ---- notices ----

function toNotification(tr: Translator, row: NotificationRow): Notification {
  const { title, body } = storedNoticeText(tr, row);
  return {
    id: String(row.id),
    kind: row.kind as AlertRule,
    title,
    body,
    link: row.link,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}

/** The account's newest notices, written in `language` (the reader's). */
export async function listNotifications(db: Executor, userId: string, language: Language, limit = 30): Promise<NotificationList> {
  const [rows, unread] = await Promise.all([repo.listNotifications(db, userId, limit), repo.unreadCount(db, userId)]);
  const tr = translator(language);
  return { unread, items: rows.map((row) => toNotification(tr, row)) };
}

export async function markNotificationsRead(db: Executor, userId: string, body: MarkRead): Promise<{ unread: number }> {
  await repo.markRead(db, userId, 'all' in body ? 'all' : body.ids.map(Number));
  return { unread: await repo.unreadCount(db, userId) };
}

export async function emailChoice(db: Executor, userId: string): Promise<EmailChoice> {
  return ((await repo.emailChoiceOf(db, userId)) as EmailChoice | undefined) ?? DEFAULT_EMAIL_CHOICE;
}

export async function setEmailChoice(db: Executor, userId: string, choice: EmailChoice): Promise<EmailChoice> {
  await repo.setEmailChoice(db, userId, choice);
  return choice;
}

// ---- unsubscribe links ----

function mac(key: string, userId: string): string {
  return createHmac('sha256', key).update(`unsubscribe\u0000${userId}`).digest('base64url');
}

/** The signed token of an account's one-click unsubscribe link. */
export function unsubscribeToken(keys: readonly string[], userId: string): string {
  return `${userId}.${mac(keys[0]!, userId)}`;
}

/** The account a token was signed for, or null for a token no key signed. */
function tokenAccount(keys: readonly string[], token: string): string | null {
  const [userId, given] = token.split('.');
  const ok =
    userId !== undefined &&
    given !== undefined &&
    /^[0-9a-f-]{36}$/.test(userId) &&
    keys.some((key) => {
      const expected = Buffer.from(mac(key, userId));
      const actual = Buffer.from(given);
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    });
  return ok ? userId : null;
}

/** Turns e-mail off for the token's account; 400 for a token no key signed. */
export async function unsubscribe(db: Executor, keys: readonly string[], token: string): Promise<void> {
  const userId = tokenAccount(keys, token);
  if (!userId) throw badRequest('This unsubscribe link is not valid. Sign in and choose on your account page how you get alerts.');
  if (await repo.findAccount(db, userId)) await repo.setEmailChoice(db, userId, 'never');
}

/** The language the token's account chose (null: none chosen, or no such account or token): its unsubscribe pages speak it. */
export async function unsubscribeLanguage(db: Executor, keys: readonly string[], token: string): Promise<Language | null> {
  const userId = tokenAccount(keys, token);
  return userId ? ((await repo.findAccount(db, userId))?.language ?? null) : null;
}

function link(context: AlertContext, path: string): string {
  return `${context.publicUrl ?? ''}${path}`;
}

function unsubscribeHeaders(context: AlertContext, userId: string): Record<string, string> {
  const url = link(context, `/api/notifications/unsubscribe?t=${encodeURIComponent(unsubscribeToken(context.keys, userId))}`);
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** The foot of every alert e-mail. */
const footer = (context: AlertContext, tr: Translator) =>
  `\n\n--\n${tr.t('alertMail.footer.choose', { url: link(context, '/account') })}\n${tr.t('alertMail.footer.unsubscribe')}`;

/**
 * Gives an account a notice for an episode (once: a second call for the same episode adds
 * nothing) and, when it wants e-mail at once, queues it. Returns whether a notice was added.
 */
async function notify(
  announce: string[],
  db: Executor,
  context: AlertContext,
  recipient: Recipient,
  notice: NoticeContent & { episodeId: number; link: string },
): Promise<boolean> {
  const english = noticeText(translator('en'), notice);
  const row = await repo.insertNotification(db, { userId: recipient.id, ...notice, ...english });
  if (!row) return false;
  if (context.mail && (await emailChoice(db, recipient.id)) === 'immediate') {
    const tr = translator(recipient.language);
    const { title, body } = noticeText(tr, notice);
    await queueMail(db, {
      to: recipient.email,
      subject: title,
      text: `${body}\n\n${link(context, notice.link)}${footer(context, tr)}`,
      headers: unsubscribeHeaders(context, recipient.id),
    });
    await repo.markEmailed(db, [row.id]);
  }
  announce.push(recipient.id);
  return true;
}

/** Tells the accounts' open pages (in every process) that a notice arrived: after the commit that made it. */
async function announceTo(database: Pick<Database, 'notify'>, userIds: readonly string[]): Promise<void> {
  for (const userId of new Set(userIds)) await database.notify(NOTIFICATION_CHANNEL, JSON.stringify({ userId }));
}

// ---- the student rules ----

export interface EvaluationResult {
  fired: number;
  rearmed: number;
}

/**
 * Evaluates the student rules for some students in one term bucket (the term of the register just
 * saved): below-threshold overall and per subject, consecutive absences in the subjects given
 * ('' whole-day registers). Safe to run any number of times, in any number of processes.
 */
export async function evaluateStudents(
  database: Pick<Database, 'db' | 'notify'>,
  context: AlertContext,
  input: {
    pins: readonly string[];
    termId: string | null;
    subjects: readonly string[];
    /**
     * When the evaluation is of one saved register: its students absent or excused there. Only
     * they can complete a run of absences (an excused mark is skipped, so it can join two), and of
     * the others only those with a run's episode open can end one, so only theirs are read.
     */
    mayCompleteRun?: ReadonlySet<string>;
  },
): Promise<EvaluationResult> {
  const result: EvaluationResult = { fired: 0, rearmed: 0 };
  if (input.pins.length === 0) return result;
  const db = database.db;
  // The episodes open in this term: only those can be closed, and none is opened again (most
  // evaluations change none, and ask nothing more of the database for them).
  const [rules, counters, accounts, names, open] = await Promise.all([
    enabledRules(db),
    repo.countersOf(db, input.pins, input.termId),
    repo.studentAccounts(db, input.pins),
    repo.subjectNames(db),
    repo.openStudentEpisodeKeys(db, input.pins, input.termId),
  ]);
  const latestBySubject = new Map(
    await Promise.all(
      input.subjects.map(async (subject) => {
        const candidates = input.mayCompleteRun;
        const pins = candidates ? input.pins.filter((pin) => candidates.has(pin) || open.has(repo.episodeKey({ rule: 'consecutive-absences', pin, scope: subject }))) : input.pins;
        return [subject, await repo.latestMarksOf(db, pins, subject === '' ? null : subject, input.termId, CONSECUTIVE_ABSENCES)] as const;
      }),
    ),
  );
  // What the evaluation closes and opens, written together once every student is seen: one
  // statement for the closed, one transaction for the opened and their notices.
  const closing: repo.StudentEpisodeKey[] = [];
  const opening: (repo.StudentEpisodeKey & { detail: Record<string, unknown>; notice: NoticeContent })[] = [];
  const close = (rule: AlertRule, pin: string, scope: string) => {
    if (open.has(repo.episodeKey({ rule, pin, scope }))) closing.push({ rule, pin, scope });
  };
  const accountsOf = new Map<string, Recipient[]>();
  for (const account of accounts) accountsOf.set(account.pin!, [...(accountsOf.get(account.pin!) ?? []), account]);
  /** A lecture register's subject by its name (its code when it has none); null: the whole-day registers. */
  const subjectName = (code: string) => (code === '' ? null : (names.get(code) ?? code));
  const threshold = context.threshold;

  const fire = (rule: AlertRule, pin: string, scope: string, detail: Record<string, unknown>, notice: NoticeContent) => {
    opening.push({ rule, pin, scope, detail, notice });
  };

  for (const pin of input.pins) {
    const rows = counters.filter((row) => row.pin === pin);
    // Overall ('' scope) and each subject of a lecture register.
    const scopes = [
      { scope: '', attended: rows.reduce((n, r) => n + r.attended, 0), held: rows.reduce((n, r) => n + r.attended + r.absent, 0) },
      ...rows.filter((r) => r.subjectCode !== '').map((r) => ({ scope: r.subjectCode, attended: r.attended, held: r.attended + r.absent })),
    ];
    for (const { scope, attended, held } of scopes) {
      const percent = percentage(attended, held);
      if (held >= BELOW_THRESHOLD_MIN_HELD && percent < threshold && rules.has('below-threshold')) {
        // Already told: the episode stays open, and nothing more is asked of the database.
        if (open.has(repo.episodeKey({ rule: 'below-threshold', pin, scope }))) continue;
        const absences = await repo.absenceDates(db, pin, scope === '' ? null : scope, input.termId, 10);
        fire(
          'below-threshold',
          pin,
          scope,
          { percentage: Number(percent.toFixed(2)), attended, held, absences },
          { kind: 'below-threshold', params: { threshold, percent, attended, held, subject: subjectName(scope), absences } },
        );
      } else if (percent >= threshold + REARM_POINTS || held === 0) {
        close('below-threshold', pin, scope);
      }
    }
    for (const subject of input.subjects) {
      const latest = latestBySubject.get(subject)?.get(pin) ?? [];
      const newest = latest[0];
      if (!newest) continue;
      if (newest.status === 'present' || newest.status === 'late') {
        close('consecutive-absences', pin, subject);
        continue;
      }
      if (
        latest.length === CONSECUTIVE_ABSENCES &&
        latest.every((m) => m.status === 'absent') &&
        rules.has('consecutive-absences') &&
        !open.has(repo.episodeKey({ rule: 'consecutive-absences', pin, scope: subject }))
      ) {
        const dates = latest.map((m) => m.date).reverse();
        fire(
          'consecutive-absences',
          pin,
          subject,
          { dates },
          { kind: 'consecutive-absences', params: { count: CONSECUTIVE_ABSENCES, subject: subjectName(subject), dates } },
        );
      }
    }
  }
  result.rearmed += await repo.closeStudentEpisodes(db, closing, input.termId);
  if (opening.length > 0) {
    const announce: string[] = [];
    const notices = new Map(opening.map((episode) => [repo.episodeKey(episode), episode.notice]));
    const opened = await db.transaction(async (tx) => {
      // Those open already (another evaluation's, meanwhile) are left as they are.
      const rows = await repo.openStudentEpisodes(tx, opening, input.termId);
      for (const row of rows) {
        const notice = notices.get(repo.episodeKey(row))!;
        for (const account of accountsOf.get(row.pin) ?? []) await notify(announce, tx, context, account, { episodeId: row.id, ...notice, link: '/student' });
      }
      return rows.length;
    });
    result.fired += opened;
    await announceTo(database, announce);
  }
  return result;
}

/**
 * Evaluates the student rules for every current student in a term bucket, class by class: the
 * episodes a term's saves would have opened, for data that came without them (an import from the
 * Firebase app, demo data). Like every evaluation, it opens only what is not open, and notifies
 * as a save's evaluation does.
 */
export async function evaluateTerm(
  database: Pick<Database, 'db' | 'notify'>,
  context: AlertContext,
  termId: string | null,
  onProgress?: (done: number, total: number) => void,
): Promise<EvaluationResult & { students: number }> {
  const classes = await repo.studentsWithSubjects(database.db, termId);
  const result = { fired: 0, rearmed: 0, students: 0 };
  for (const [index, { pins, subjects }] of classes.entries()) {
    const evaluated = await evaluateStudents(database, context, { pins, termId, subjects });
    result.fired += evaluated.fired;
    result.rearmed += evaluated.rearmed;
    result.students += pins.length;
    onProgress?.(index + 1, classes.length);
  }
  return result;
}

/** Evaluates the students of one saved register (its term and subject). */
export async function evaluateRegister(
  database: Pick<Database, 'db' | 'notify'>,
  context: AlertContext,
  register: { className: string; date: string; period: number },
): Promise<EvaluationResult> {
  const found = await repo.registerForEvaluation(database.db, register);
  if (!found) return { fired: 0, rearmed: 0 };
  return evaluateStudents(database, context, { pins: found.pins, termId: found.termId, subjects: [found.subjectCode ?? ''], mayCompleteRun: found.mayCompleteRun });
}

// ---- register-missing ----

/** Minutes since midnight of an `HH:MM`. */
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The local date, ISO weekday and minute of the day of an instant in a zone. */
export function localTime(instant: Date, timeZone: string): { date: string; weekday: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(get('weekday')) + 1;
  return { date: todayIn(timeZone, instant), weekday, minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

/**
 * Reminds of the timetabled lectures of today whose period ended at least 30 minutes ago and
 * whose register is not saved: once per lecture, to the slot's teacher, else to every admin. A
 * whole-day register counts for every period of its class.
 */
export async function checkMissingRegisters(database: Pick<Database, 'db' | 'notify'>, context: AlertContext): Promise<number> {
  const db = database.db;
  if (!(await enabledRules(db)).has('register-missing')) return 0;
  const now = localTime(nowOf(context), context.timeZone);
  const times = new Map((await periodTimes(db)).map((p) => [p.period, p]));
  if (times.size === 0) return 0;
  const [lectures, taken, names] = await Promise.all([slotsWithTeachers(db, now.weekday), repo.registersTakenOn(db, now.date), repo.subjectNames(db)]);
  const done = new Set(taken.map((r) => `${r.className}/${r.period}`));
  let fired = 0;
  let admins: Recipient[] | null = null;
  for (const lecture of lectures) {
    const time = times.get(lecture.period);
    if (!time || minutesOf(time.endsAt) + REGISTER_GRACE_MINUTES > now.minute) continue;
    if (done.has(`${lecture.className}/${lecture.period}`) || done.has(`${lecture.className}/0`)) continue;
    const scope = `${lecture.className}/${now.date}/${lecture.period}`;
    const teacher = lecture.teacherId ? await repo.findAccount(db, lecture.teacherId) : undefined;
    const recipients = teacher ? [teacher] : (admins ??= await repo.activeAdmins(db));
    const subject = names.get(lecture.subjectCode) ?? lecture.subjectCode;
    const announce: string[] = [];
    await db.transaction(async (tx) => {
      const episodeId = await repo.openEpisode(tx, { rule: 'register-missing', pin: null, scope, termId: null, detail: {} });
      if (episodeId === null) return;
      fired += 1;
      for (const recipient of recipients) {
        await notify(announce, tx, context, recipient, {
          episodeId,
          kind: 'register-missing',
          params: { className: lecture.className, period: lecture.period, subject, startsAt: time.startsAt, endsAt: time.endsAt, date: now.date },
          link: `/attendance/${encodeURIComponent(lecture.className)}?date=${now.date}&period=${lecture.period}`,
        });
      }
    });
    await announceTo(database, announce);
  }
  return fired;
}

// ---- digests ----

/**
 * Sends each account that chose this digest (the daily one is the default) one e-mail with its
 * notices not e-mailed yet, then marks them e-mailed, account by account in one transaction each:
 * a digest run again (a second process, a restart) finds nothing left to send.
 */
export async function sendDigests(database: Pick<Database, 'db'>, context: AlertContext, kind: 'daily' | 'weekly'): Promise<number> {
  if (!context.mail) return 0;
  const recipients = await repo.digestRecipients(database.db, kind);
  let sent = 0;
  for (const recipient of recipients) {
    const text = await database.db.transaction(async (tx) => {
      const pending = await repo.unemailed(tx, recipient.id);
      if (pending.length === 0) return null;
      const tr = translator(recipient.language);
      const body = await digestText(tx, context, tr, recipient, pending);
      await queueMail(tx, {
        to: recipient.email,
        subject: tr.t('digest.subject', { count: pending.length }),
        text: body,
        headers: unsubscribeHeaders(context, recipient.id),
      });
      await repo.markEmailed(tx, pending.map((n) => n.id));
      return body;
    });
    if (text !== null) sent += 1;
  }
  return sent;
}

/** A student's subjects below the threshold now, with what is still possible this term, and the absence dates. */
async function studentSection(db: Executor, context: AlertContext, tr: Translator, pin: string): Promise<string[]> {
  const episodes = await repo.openEpisodes(db, 'below-threshold', [pin]);
  if (episodes.length === 0) return [];
  const names = await repo.subjectNames(db);
  const lines = [tr.t('digest.student.heading')];
  const student = await repo.studentOf(db, pin);
  const today = todayIn(context.timeZone, nowOf(context));
  for (const episode of episodes) {
    const counters = await repo.countersOf(db, [pin], episode.termId);
    const rows = episode.scope === '' ? counters : counters.filter((r) => r.subjectCode === episode.scope);
    const attended = rows.reduce((n, r) => n + r.attended, 0);
    const held = rows.reduce((n, r) => n + r.attended + r.absent, 0);
    const percent = percentage(attended, held);
    const label = episode.scope === '' ? tr.t('digest.student.overall') : (names.get(episode.scope) ?? episode.scope);
    let outlook = '';
    const termEnd = episode.termId ? await repo.termEnd(db, episode.termId) : null;
    if (student && termEnd && termEnd > today) {
      const remaining = await repo.remainingLectures(db, student.className, today, termEnd);
      const left = episode.scope === '' ? [...remaining.values()].reduce((a, b) => a + b, 0) : (remaining.get(episode.scope) ?? 0);
      // The most of the remaining lectures that may be missed and still end the term at the threshold.
      const canMiss = Math.floor(attended + left - (context.threshold / 100) * (held + left));
      outlook = ` ${canMiss >= 0 ? tr.t('digest.student.canMiss', { left, canMiss }) : tr.t('digest.student.unreachable', { threshold: context.threshold })}`;
    }
    const absences = await repo.absenceDates(db, pin, episode.scope === '' ? null : episode.scope, episode.termId);
    const dates = datesText(tr, absences.slice(-10));
    const absent =
      absences.length === 0 ? '' : `\n  ${absences.length > 10 ? tr.t('alert.absentOnLast', { dates, count: absences.length }) : tr.t('alert.absentOn', { dates })}`;
    lines.push(`${tr.t('digest.student.line', { label, percent: tr.number(percent, 1), attended, held })}${outlook}${absent}`);
  }
  lines.push(tr.t('digest.student.record', { url: link(context, '/student') }));
  return lines;
}

/** Faculty: the students of their classes below the threshold now. */
async function facultySection(db: Executor, context: AlertContext, tr: Translator, userId: string): Promise<string[]> {
  const classNames = await repo.classesTaughtBy(db, userId);
  const roster = await repo.studentsOf(db, classNames);
  if (roster.length === 0) return [];
  const byPin = new Map(roster.map((s) => [s.pin, s]));
  const episodes = await repo.openEpisodes(db, 'below-threshold', [...byPin.keys()]);
  if (episodes.length === 0) return [];
  const names = await repo.subjectNames(db);
  const lines = [tr.t('digest.faculty.heading', { threshold: context.threshold })];
  for (const episode of episodes) {
    const student = byPin.get(episode.pin!)!;
    const who = {
      name: student.name,
      pin: student.pin,
      className: student.className,
      scope: episode.scope === '' ? tr.t('digest.faculty.overall') : (names.get(episode.scope) ?? episode.scope),
    };
    const fell = episode.detail.percentage;
    lines.push(
      typeof fell === 'number' ? tr.t('digest.faculty.lineWithFigure', { ...who, percent: tr.number(fell, 1) }) : tr.t('digest.faculty.line', who),
    );
  }
  lines.push(tr.t('digest.faculty.search', { url: link(context, '/faculty') }));
  return lines;
}

async function digestText(db: Executor, context: AlertContext, tr: Translator, recipient: Recipient, pending: NotificationRow[]): Promise<string> {
  const lines = [tr.t('mail.hello', { name: recipient.name }), '', tr.t('digest.newSince')];
  for (const notice of pending) {
    const { title, body } = storedNoticeText(tr, notice);
    lines.push(`- ${title}: ${body}${notice.link ? ` ${link(context, notice.link)}` : ''}`);
  }
  const section =
    recipient.role === 'student' && recipient.pin ? await studentSection(db, context, tr, recipient.pin) : await facultySection(db, context, tr, recipient.id);
  if (section.length > 0) lines.push('', ...section);
  return lines.join('\n') + footer(context, tr);
}

/** The job that evaluates a saved register's students; its payload is the register's key. */
export const EVALUATE_ALERTS_TASK = 'evaluate-alerts';

export interface RegisterKey {
  className: string;
  date: string;
  period: number;
}

/** A job's payload as a register's key, or null when it is not one. */
export function registerKeyOf(payload: Record<string, unknown>): RegisterKey | null {
  const { className, date, period } = payload;
  return typeof className === 'string' && typeof date === 'string' && typeof period === 'number' ? { className, date, period } : null;
}

/**
 * Hands every register this process saved (the save's notification names its sender) to
 * `handle`, one after another: one process queues a save's evaluation, not each of those that
 * hear it. A notification that names no sender (a process of an earlier version) is handed over
 * by every process, as before. Returns the function that stops listening and waits for the
 * hand-over under way.
 */
export function onRegisterSaved(
  database: Pick<Database, 'listen' | 'instance'>,
  handle: (register: RegisterKey) => Promise<void>,
  log: { warn(obj: object, message: string): void },
): { stop(): Promise<void> } {
  let chain: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const listening = database.listen(ATTENDANCE_CHANNEL, (payload) => {
    let register: { class?: unknown; date?: unknown; period?: unknown; from?: unknown };
    try {
      register = JSON.parse(payload) as typeof register;
    } catch {
      return;
    }
    if (register.from !== undefined && register.from !== database.instance) return;
    const key = registerKeyOf({ className: register.class, date: register.date, period: register.period ?? 0 });
    if (!key) return;
    chain = chain
      .then(async () => {
        if (!stopped) await handle(key);
      })
      .catch((err: unknown) => log.warn({ err }, 'alerts: handing a saved register over failed'));
  });
  listening.catch((err: unknown) => log.warn({ err }, 'alerts: could not listen for saved registers'));
  return {
    async stop() {
      stopped = true;
      await (await listening.catch(() => null))?.();
      await chain;
    },
  };
}
