import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client';
import {
  alertEpisodes,
  alertRules,
  attendanceMarks,
  newestFirst,
  notificationPrefs,
  notifications,
  registers,
  students,
  subjects,
  terms,
  timetableSlots,
  users,
} from '../../db/schema';

export type EpisodeRow = typeof alertEpisodes.$inferSelect;
type MarkStatus = (typeof attendanceMarks.$inferSelect)['status'];
export type NotificationRow = typeof notifications.$inferSelect;

export function listRuleSwitches(db: Executor): Promise<{ rule: string; enabled: boolean }[]> {
  return db.select({ rule: alertRules.rule, enabled: alertRules.enabled }).from(alertRules);
}

export async function setRuleSwitch(db: Executor, rule: string, enabled: boolean): Promise<void> {
  await db
    .insert(alertRules)
    .values({ rule, enabled })
    .onConflictDoUpdate({ target: alertRules.rule, set: { enabled, updatedAt: sql`now()` } });
}

/** The registers a class may have on a day, periods 0 to 12 (the registers' check); a student is in one class a day. */
const REGISTERS_A_DAY = 13;

/** A term's condition that treats "outside every term" (null) as a bucket of its own. */
const sameTerm = (column: typeof alertEpisodes.termId | typeof registers.termId, termId: string | null) =>
  termId === null ? isNull(column) : eq(column, termId);

/** The same condition on a `term_id` column named in a statement's text (`c.term_id`, say). */
const inTermBucket = (column: string, termId: string | null) =>
  termId === null ? sql`${sql.raw(column)} is null` : sql`${sql.raw(column)} = ${termId}::uuid`;

/** Students' counts per subject ('' whole-day registers) in one term bucket. */
export function countersOf(db: Executor, pins: readonly string[], termId: string | null) {
  if (pins.length === 0) return Promise.resolve([]);
  return queryRows<{ pin: string; subjectCode: string; attended: number; absent: number }>(
    db,
    sql`select pin, subject_code as "subjectCode", (present + late)::int as attended, absent::int as absent
        from student_counters
        where pin = any(${sql.param([...pins])}::text[]) and ${inTermBucket('term_id', termId)}`,
  );
}

/**
 * Students' latest marks in one subject's registers (null: the whole-day ones) of a term, newest
 * first, at most `limit` each: one statement for a register's students, each read through the
 * marks' history index.
 */
export async function latestMarksOf(
  db: Executor,
  pins: readonly string[],
  subjectCode: string | null,
  termId: string | null,
  limit: number,
): Promise<Map<string, { status: MarkStatus; date: string }[]>> {
  const latest = new Map<string, { status: MarkStatus; date: string }[]>();
  if (pins.length === 0) return latest;
  const rows = await queryRows<{ pin: string; status: MarkStatus; date: string }>(
    db,
    sql`select p.pin, l.status, l.date
        from unnest(${sql.param([...pins])}::text[]) as p(pin)
        cross join lateral (
          select ${attendanceMarks.status} as status, ${attendanceMarks.date}::text as date, ${attendanceMarks.period} as period
          from ${attendanceMarks}
          join ${registers} on ${registers.id} = ${attendanceMarks.registerId}
          where ${attendanceMarks.pin} = p.pin
            and ${subjectCode === null ? isNull(registers.subjectCode) : eq(registers.subjectCode, subjectCode)}
            and ${sameTerm(registers.termId, termId)}
            and ${attendanceMarks.status} <> 'excused'
          order by ${newestFirst(attendanceMarks.date)}, ${newestFirst(attendanceMarks.period)}
          limit ${limit}
        ) l
        order by p.pin, l.date desc, l.period desc`,
  );
  for (const row of rows) latest.set(row.pin, [...(latest.get(row.pin) ?? []), { status: row.status, date: row.date }]);
  return latest;
}

/**
 * The dates a student was absent in a subject ('' whole-day; null every subject) in a term, oldest
 * first; with `latest`, only that many of the newest, read newest first through the history index
 * and no further than they need.
 */
export async function absenceDates(
  db: Executor,
  pin: string,
  subjectCode: string | null,
  termId: string | null,
  latest?: number,
): Promise<string[]> {
  const query = () =>
    db
      .select({ date: attendanceMarks.date })
      .from(attendanceMarks)
      .innerJoin(registers, eq(registers.id, attendanceMarks.registerId))
      .where(
        and(
          eq(attendanceMarks.pin, pin),
          eq(attendanceMarks.status, 'absent'),
          subjectCode === null ? undefined : subjectCode === '' ? isNull(registers.subjectCode) : eq(registers.subjectCode, subjectCode),
          sameTerm(registers.termId, termId),
        ),
      );
  if (latest === undefined) return [...new Set((await query().orderBy(attendanceMarks.date)).map((row) => row.date))];
  // Most often a subject's absences are a day apart: `latest` rows, then more only while days are
  // missing, up to enough for `latest` days of REGISTERS_A_DAY marks each.
  for (let limit = latest; ; limit = Math.min(limit * 4, latest * REGISTERS_A_DAY)) {
    const rows = await query().orderBy(newestFirst(attendanceMarks.date), newestFirst(attendanceMarks.period)).limit(limit);
    const dates = [...new Set(rows.map((row) => row.date))];
    if (dates.length >= latest || rows.length < limit || limit === latest * REGISTERS_A_DAY) return dates.slice(0, latest).reverse();
  }
}

/** Opens an episode unless one is open for the same rule, PIN, scope and term: its id, or null. */
export async function openEpisode(
  db: Executor,
  episode: { rule: string; pin: string | null; scope: string; termId: string | null; detail: Record<string, unknown> },
): Promise<number | null> {
  const [row] = await db.insert(alertEpisodes).values(episode).onConflictDoNothing().returning({ id: alertEpisodes.id });
  return row?.id ?? null;
}

/** A student rule's episode: its rule, PIN and scope ('' overall or whole-day registers, else a subject's code). */
export interface StudentEpisodeKey {
  rule: string;
  pin: string;
  scope: string;
}

/** A student episode's key as text (`rule|pin|scope`), as `openStudentEpisodeKeys` gives them. */
export const episodeKey = ({ rule, pin, scope }: StudentEpisodeKey): string => `${rule}|${pin}|${scope}`;

/** Keys in one order, so that two evaluations take the rows' locks alike. */
const inKeyOrder = <T extends StudentEpisodeKey>(keys: readonly T[]) =>
  keys.map((key) => ({ key, text: episodeKey(key) })).sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0)).map(({ key }) => key);

/**
 * Opens the episodes of one term bucket that are not open already, in one statement, in key
 * order: the ids and keys of those it opened.
 */
export async function openStudentEpisodes(
  db: Executor,
  episodes: readonly (StudentEpisodeKey & { detail: Record<string, unknown> })[],
  termId: string | null,
): Promise<(StudentEpisodeKey & { id: number })[]> {
  if (episodes.length === 0) return [];
  return db
    .insert(alertEpisodes)
    .values(inKeyOrder(episodes).map((episode) => ({ ...episode, termId })))
    .onConflictDoNothing()
    .returning({ id: alertEpisodes.id, rule: alertEpisodes.rule, pin: sql<string>`${alertEpisodes.pin}`, scope: alertEpisodes.scope });
}

/**
 * Closes the open episodes of these keys in one term bucket, in one statement (their rows locked
 * in id order, so that two evaluations never wait for each other crosswise): how many were open.
 */
export async function closeStudentEpisodes(db: Executor, keys: readonly StudentEpisodeKey[], termId: string | null): Promise<number> {
  if (keys.length === 0) return 0;
  const closed = await queryRows<{ id: number }>(
    db,
    sql`with target as (
          select e.id from alert_episodes e
          join unnest(${sql.param(keys.map((key) => key.rule))}::text[], ${sql.param(keys.map((key) => key.pin))}::text[],
            ${sql.param(keys.map((key) => key.scope))}::text[]) as k(rule, pin, scope)
            on e.rule = k.rule and e.pin = k.pin and e.scope = k.scope
          where e.closed_at is null and ${inTermBucket('e.term_id', termId)}
          order by e.id
          for update of e
        )
        update alert_episodes set closed_at = now() where id in (select id from target) returning id`,
  );
  return closed.length;
}

/** Open episodes of a rule, for some PINs or every one. */
export function openEpisodes(db: Executor, rule: string, pins?: readonly string[]): Promise<EpisodeRow[]> {
  return db
    .select()
    .from(alertEpisodes)
    .where(and(eq(alertEpisodes.rule, rule), isNull(alertEpisodes.closedAt), pins ? inArray(alertEpisodes.pin, [...pins]) : undefined))
    .orderBy(alertEpisodes.id);
}

/**
 * The open episodes of the student rules for some students in one term bucket, as keys
 * (`episodeKey`): what an evaluation may close, and must not open again.
 */
export async function openStudentEpisodeKeys(db: Executor, pins: readonly string[], termId: string | null): Promise<Set<string>> {
  if (pins.length === 0) return new Set();
  const rows = await queryRows<{ key: string }>(
    db,
    sql`select rule || '|' || pin || '|' || scope as key
          from ${alertEpisodes}
         where rule in ('below-threshold', 'consecutive-absences') and closed_at is null
           and pin = any(${sql.param([...pins])}::text[])
           and ${inTermBucket('term_id', termId)}`,
  );
  return new Set(rows.map((row) => row.key));
}

export interface Recipient {
  id: string;
  email: string;
  name: string;
  role: 'faculty' | 'student' | 'admin';
  pin: string | null;
  /** The language the account chose for its e-mails; null: none (English). */
  language: 'en' | 'hi' | 'te' | null;
}

const recipientColumns = { id: users.id, email: users.email, name: users.name, role: users.role, pin: users.pin, language: users.language };

/** The active student accounts of these PINs. */
export function studentAccounts(db: Executor, pins: readonly string[]): Promise<Recipient[]> {
  if (pins.length === 0) return Promise.resolve([]);
  return db
    .select(recipientColumns)
    .from(users)
    .where(and(eq(users.role, 'student'), inArray(users.pin, [...pins]), isNull(users.disabledAt)));
}

export function activeAdmins(db: Executor): Promise<Recipient[]> {
  return db.select(recipientColumns).from(users).where(and(eq(users.role, 'admin'), isNull(users.disabledAt)));
}

export async function findAccount(db: Executor, id: string): Promise<Recipient | undefined> {
  const [row] = await db.select(recipientColumns).from(users).where(and(eq(users.id, id), isNull(users.disabledAt)));
  return row;
}

/** A notice, unless the account has one for the episode already: the row, or null. */
export async function insertNotification(db: Executor, row: typeof notifications.$inferInsert): Promise<NotificationRow | null> {
  const [inserted] = await db.insert(notifications).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

export function listNotifications(db: Executor, userId: string, limit: number): Promise<NotificationRow[]> {
  return db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.id)).limit(limit);
}

export async function unreadCount(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

export async function markRead(db: Executor, userId: string, ids: number[] | 'all'): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), ids === 'all' ? undefined : inArray(notifications.id, ids)))
    .returning({ id: notifications.id });
  return rows.length;
}

export async function markEmailed(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.update(notifications).set({ emailedAt: sql`now()` }).where(inArray(notifications.id, [...ids]));
}

/** An account's notices not e-mailed yet, oldest first. */
export function unemailed(db: Executor, userId: string): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.emailedAt)))
    .orderBy(notifications.id);
}

export async function emailChoiceOf(db: Executor, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ email: notificationPrefs.email }).from(notificationPrefs).where(eq(notificationPrefs.userId, userId));
  return row?.email;
}

export async function setEmailChoice(db: Executor, userId: string, email: string): Promise<void> {
  await db
    .insert(notificationPrefs)
    .values({ userId, email })
    .onConflictDoUpdate({ target: notificationPrefs.userId, set: { email, updatedAt: sql`now()` } });
}

/** Accounts whose notices are due in a digest of this kind (no row means the daily one), with something not e-mailed yet. */
export function digestRecipients(db: Executor, choice: 'daily' | 'weekly'): Promise<Recipient[]> {
  const chosen = choice === 'daily' ? sql`coalesce(p.email, 'daily') = 'daily'` : sql`p.email = 'weekly'`;
  return queryRows<Recipient>(
    db,
    sql`select u.id, u.email, u.name, u.role, u.pin, u.language
        from users u left join notification_prefs p on p.user_id = u.id
        where u.disabled_at is null and ${chosen}
          and exists (select 1 from notifications n where n.user_id = u.id and n.emailed_at is null)
        order by u.id`,
  );
}

export async function subjectNames(db: Executor): Promise<Map<string, string>> {
  const rows = await db.select({ code: subjects.code, name: subjects.name }).from(subjects);
  return new Map(rows.map((row) => [row.code, row.name]));
}

/** Which (class, period) have a register on a date; a whole-day register counts for every period. */
export async function registersTakenOn(db: Executor, date: string): Promise<{ className: string; period: number }[]> {
  return db.select({ className: registers.className, period: registers.period }).from(registers).where(eq(registers.date, date));
}

/** The classes a faculty member teaches a lecture of. */
export async function classesTaughtBy(db: Executor, userId: string): Promise<string[]> {
  const rows = await db.selectDistinct({ className: timetableSlots.className }).from(timetableSlots).where(eq(timetableSlots.teacherId, userId));
  return rows.map((row) => row.className);
}

/** The current students of some classes. */
export function studentsOf(db: Executor, classNames: readonly string[]) {
  if (classNames.length === 0) return Promise.resolve([]);
  return db
    .select({ pin: students.pin, name: students.name, className: students.className })
    .from(students)
    .where(and(inArray(students.className, [...classNames]), isNull(students.withdrawnAt)));
}

/**
 * The current students of every class with any, class by class in name order, each with the
 * subjects ('' the whole-day registers) they have counters for in a term bucket.
 */
export async function studentsWithSubjects(db: Executor, termId: string | null) {
  return queryRows<{ className: string; pins: string[]; subjects: string[] }>(
    db,
    sql`select s.class_name as "className",
               array_agg(distinct s.pin) as pins,
               coalesce(array_agg(distinct c.subject_code) filter (where c.subject_code is not null), '{}') as subjects
          from ${students} s
          left join student_counters c on c.pin = s.pin and ${inTermBucket('c.term_id', termId)}
         where s.withdrawn_at is null
         group by s.class_name
         order by s.class_name collate "C"`,
  );
}

/** Remaining timetabled lectures of a class after a date up to a term's end, per subject. */
export async function remainingLectures(db: Executor, className: string, after: string, until: string): Promise<Map<string, number>> {
  const rows = await queryRows<{ subjectCode: string; n: number }>(
    db,
    sql`select s.subject_code as "subjectCode", count(*)::int as n
        from generate_series(${after}::date + 1, ${until}::date, interval '1 day') as d(day)
        join timetable_slots s on s.class_name = ${className} and s.weekday = extract(isodow from d.day)::int
        group by s.subject_code`,
  );
  return new Map(rows.map((row) => [row.subjectCode, row.n]));
}

/** A saved register's term, subject and the PINs of its marks. */
export async function registerForEvaluation(db: Executor, key: { className: string; date: string; period: number }) {
  const [register] = await db
    .select({ id: registers.id, termId: registers.termId, subjectCode: registers.subjectCode })
    .from(registers)
    .where(and(eq(registers.className, key.className), eq(registers.date, key.date), eq(registers.period, key.period)));
  if (!register) return undefined;
  const marks = await db
    .select({ pin: attendanceMarks.pin, status: attendanceMarks.status })
    .from(attendanceMarks)
    .where(eq(attendanceMarks.registerId, register.id));
  return {
    termId: register.termId,
    subjectCode: register.subjectCode,
    pins: marks.map((m) => m.pin),
    // An absent mark can end a run of absences, and an excused one can close the gap between two.
    mayCompleteRun: new Set(marks.filter((m) => m.status === 'absent' || m.status === 'excused').map((m) => m.pin)),
  };
}

export async function studentOf(db: Executor, pin: string) {
  const [row] = await db.select({ className: students.className }).from(students).where(eq(students.pin, pin));
  return row;
}

export async function termEnd(db: Executor, termId: string): Promise<string | null> {
  const [row] = await db.select({ endsOn: terms.endsOn }).from(terms).where(eq(terms.id, termId));
  return row?.endsOn ?? null;
}
