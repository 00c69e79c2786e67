import { and, asc, desc, eq, gt, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import { timeOrderedUuid } from '../../db/ids';
import { preparedOn } from '../../db/prepared-queries';
import { attendanceChanges, attendanceMarks, idempotencyKeys, newestFirst, registers, subjects, users } from '../../db/schema';

export type RegisterRow = typeof registers.$inferSelect;

export type MarkRow = typeof attendanceMarks.$inferSelect;
export type NewMarkRow = typeof attendanceMarks.$inferInsert;
type MarkStatus = MarkRow['status'];
type ChangeSource = (typeof attendanceChanges.$inferSelect)['source'];

export interface RegisterWithTaker extends RegisterRow {
  takerName: string | null;
  subjectName: string | null;
}

const registerColumns = {
  id: registers.id,
  className: registers.className,
  date: registers.date,
  period: registers.period,
  subjectCode: registers.subjectCode,
  termId: registers.termId,
  takenBy: registers.takenBy,
  takenAt: registers.takenAt,
  updatedAt: registers.updatedAt,
  revision: registers.revision,
  presentCount: registers.presentCount,
  absentCount: registers.absentCount,
  lateCount: registers.lateCount,
  excusedCount: registers.excusedCount,
};

const registerWithTaker = {
  ...registerColumns,
  takerName: users.name,
  subjectName: subjects.name,
};

export async function findRegister(
  db: Executor,
  className: string,
  date: string,
  period: number,
): Promise<RegisterWithTaker | undefined> {
  const [row] = await db
    .select(registerWithTaker)
    .from(registers)
    .leftJoin(users, eq(users.id, registers.takenBy))
    .leftJoin(subjects, eq(subjects.code, registers.subjectCode))
    .where(and(eq(registers.className, className), eq(registers.date, date), eq(registers.period, period)))
    .limit(1);
  return row;
}

/** Every register of one class on one date, by period. */
export function listRegistersOn(db: Executor, className: string, date: string): Promise<RegisterWithTaker[]> {
  return db
    .select(registerWithTaker)
    .from(registers)
    .leftJoin(users, eq(users.id, registers.takenBy))
    .leftJoin(subjects, eq(subjects.code, registers.subjectCode))
    .where(and(eq(registers.className, className), eq(registers.date, date)))
    .orderBy(asc(registers.period));
}

/** The latest register of a class before a date and period (an earlier day, or an earlier period that day). */
export async function findRegisterBefore(
  db: Executor,
  className: string,
  date: string,
  period: number,
): Promise<Pick<RegisterRow, 'id' | 'date' | 'period'> | undefined> {
  const [row] = await db
    .select({ id: registers.id, date: registers.date, period: registers.period })
    .from(registers)
    .where(
      and(
        eq(registers.className, className),
        or(lt(registers.date, date), and(eq(registers.date, date), lt(registers.period, period))),
      ),
    )
    .orderBy(desc(registers.date), desc(registers.period))
    .limit(1);
  return row;
}

/** A student's marks per day between two dates (inclusive), by status: the calendar of their record. */
export function dayCountsOf(db: Executor, pin: string, from: string, to: string) {
  const count = (status: MarkStatus) => sql<number>`count(*) filter (where ${attendanceMarks.status} = ${status})::int`;
  return db
    .select({ date: attendanceMarks.date, present: count('present'), late: count('late'), absent: count('absent'), excused: count('excused') })
    .from(attendanceMarks)
    .where(and(eq(attendanceMarks.pin, pin), sql`${attendanceMarks.date} between ${from} and ${to}`))
    .groupBy(attendanceMarks.date)
    .orderBy(asc(attendanceMarks.date));
}

/** A student's mark on a date and period (there is at most one: a student is in one class a day). */
export async function findMarkOn(
  db: Executor,
  pin: string,
  date: string,
  period: number,
): Promise<{ registerId: string; className: string; status: MarkStatus } | undefined> {
  const [row] = await db
    .select({ registerId: attendanceMarks.registerId, className: attendanceMarks.className, status: attendanceMarks.status })
    .from(attendanceMarks)
    .where(and(eq(attendanceMarks.pin, pin), eq(attendanceMarks.date, date), eq(attendanceMarks.period, period)))
    .limit(1);
  return row;
}

export function listMarks(db: Executor, registerId: string): Promise<MarkRow[]> {
  return db
    .select()
    .from(attendanceMarks)
    .where(eq(attendanceMarks.registerId, registerId))
    .orderBy(sql`${attendanceMarks.pin} collate "C"`);
}

/**
 * Creates the (class, date, period) register row if it is missing and locks it until the
 * transaction ends, in one statement: the conflict's update changes nothing but takes the row's
 * lock. A concurrent insert of the same row waits for ours and then locks the row we made, so two
 * saves of one register run one after the other. A new register takes the subject and term
 * given; an existing one keeps its own.
 */
export async function lockRegister(
  tx: Tx,
  key: { className: string; date: string; period: number },
  fresh: { subjectCode: string | null; termId: string | null; takenBy: string | null },
): Promise<RegisterRow> {
  const [row] = await tx
    .insert(registers)
    // A new register's id is time-ordered: its marks go to the end of the marks' key (db/ids.ts).
    .values({ id: timeOrderedUuid(), ...key, ...fresh })
    .onConflictDoUpdate({ target: [registers.className, registers.date, registers.period], set: { period: sql`${registers.period}` } })
    .returning();
  if (!row) throw new Error('register missing after insert');
  return row;
}

/** A mark whose status a save changes: appended to the register's history. */
export interface MarkChange {
  pin: string;
  oldStatus: MarkStatus | null;
  newStatus: MarkStatus;
}

/**
 * Writes a register's marks, its counters and the history of the marks that changed, in one
 * statement (one round trip of the save's transaction). `marks` is every mark the register has
 * after the save (the service reads the old ones under the register's lock) and `counts` their
 * statuses counted, so the counters cannot drift from the marks. The marks and the changes go as
 * one array per column (`unnest`), so the statement's text is the same for every register, however
 * many students it has: it is parsed and planned once per connection (decision 20), where a row of
 * parameters per mark made a new statement of hundreds of parameters for every save. The save is
 * stamped once with the database clock at this moment (not the transaction's start, which for a
 * save that waited on the lock would be earlier than the save it waited for): the register's
 * updated_at and each change row's changed_at. Returns the register as findRegister would read it
 * now.
 */
export async function writeMarks(
  tx: Tx,
  registerId: string,
  marks: NewMarkRow[],
  counts: Record<MarkStatus, number>,
  changes: MarkChange[],
  by: { changedBy: string; reason: string | null; markedAt: string | null; revision: number; source?: ChangeSource },
): Promise<RegisterWithTaker> {
  const column = <T>(rows: readonly T[], pick: (row: T) => string | number | null | undefined) => sql.param(rows.map(pick));
  const stamp = tx.$with('stamp', { at: sql<Date>`at` }).as(sql`select clock_timestamp() as at`);
  const at = sql`(select at from stamp)`;
  const written = tx.$with('written', {}).as(sql`
    insert into ${attendanceMarks} (session_id, pin, name, class_name, status, date, period)
    select ${registerId}::uuid, w.pin, w.name, w.class_name, w.status, w.date, w.period
    from unnest(
      ${column(marks, (m) => m.pin)}::text[], ${column(marks, (m) => m.name)}::text[], ${column(marks, (m) => m.className)}::text[],
      ${column(marks, (m) => m.status)}::text[], ${column(marks, (m) => m.date)}::date[], ${column(marks, (m) => m.period ?? 0)}::int[]
    ) as w(pin, name, class_name, status, date, period)
    on conflict (session_id, pin) do update set name = excluded.name, class_name = excluded.class_name, status = excluded.status`);
  const logged = tx.$with('logged', {}).as(sql`
    insert into ${attendanceChanges} (session_id, pin, old_status, new_status, changed_by, changed_at, reason, marked_at, revision, source)
    select ${registerId}::uuid, c.pin, c.old_status, c.new_status, ${by.changedBy}::uuid, ${at}, ${by.reason}::text,
      ${by.markedAt}::timestamptz, ${by.revision}::int, ${by.source ?? 'faculty'}::text
    from unnest(
      ${column(changes, (c) => c.pin)}::text[], ${column(changes, (c) => c.oldStatus)}::text[], ${column(changes, (c) => c.newStatus)}::text[]
    ) as c(pin, old_status, new_status)`);
  const [row] = await tx
    .with(stamp, written, logged)
    .update(registers)
    .set({
      presentCount: counts.present,
      absentCount: counts.absent,
      lateCount: counts.late,
      excusedCount: counts.excused,
      updatedAt: at,
      revision: by.revision,
    })
    .where(eq(registers.id, registerId))
    .returning({
      ...registerColumns,
      takerName: sql<string | null>`(select u.name from users u where u.id = ${registers.takenBy})`,
      subjectName: sql<string | null>`(select s.name from subjects s where s.code = ${registers.subjectCode})`,
    });
  if (!row) throw new Error('register missing when its marks were written');
  return row;
}

export interface ChangeRow {
  pin: string;
  name: string | null;
  oldStatus: MarkStatus | null;
  newStatus: MarkStatus;
  changedBy: string | null;
  changedAt: Date;
  reason: string | null;
  markedAt: Date | null;
  source: ChangeSource;
}

/** Newest save first; within one save, by PIN. */
export function listChanges(db: Executor, registerId: string): Promise<ChangeRow[]> {
  return db
    .select({
      pin: attendanceChanges.pin,
      name: attendanceMarks.name,
      oldStatus: attendanceChanges.oldStatus,
      newStatus: attendanceChanges.newStatus,
      changedBy: users.name,
      changedAt: attendanceChanges.changedAt,
      reason: attendanceChanges.reason,
      markedAt: attendanceChanges.markedAt,
      source: attendanceChanges.source,
    })
    .from(attendanceChanges)
    .leftJoin(
      attendanceMarks,
      and(eq(attendanceMarks.registerId, attendanceChanges.registerId), eq(attendanceMarks.pin, attendanceChanges.pin)),
    )
    .leftJoin(users, eq(users.id, attendanceChanges.changedBy))
    .where(eq(attendanceChanges.registerId, registerId))
    .orderBy(desc(attendanceChanges.changedAt), sql`${attendanceChanges.pin} collate "C"`, attendanceChanges.id);
}

/** A change since a revision: what a save that started from that revision did not see. */
export interface ChangeSince {
  pin: string;
  oldStatus: MarkStatus | null;
  changedBy: string | null;
  changedAt: Date;
  markedAt: Date | null;
}

/**
 * The changes of a register made by saves after revision `after` (null: every change), oldest
 * first. Changes saved before revisions were kept have none: they are older than any revision.
 */
export function listChangesSince(db: Executor, registerId: string, after: number | null): Promise<ChangeSince[]> {
  return db
    .select({
      pin: attendanceChanges.pin,
      oldStatus: attendanceChanges.oldStatus,
      changedBy: users.name,
      changedAt: attendanceChanges.changedAt,
      markedAt: attendanceChanges.markedAt,
    })
    .from(attendanceChanges)
    .leftJoin(users, eq(users.id, attendanceChanges.changedBy))
    .where(and(eq(attendanceChanges.registerId, registerId), after === null ? undefined : gt(attendanceChanges.revision, after)))
    .orderBy(asc(attendanceChanges.changedAt), asc(attendanceChanges.id));
}

export type StoredAnswer = Pick<typeof idempotencyKeys.$inferSelect, 'userId' | 'requestHash' | 'status' | 'body' | 'etag'>;

/** The answer kept for an Idempotency-Key, if any. */
export async function findIdempotencyKey(db: Executor, key: string): Promise<StoredAnswer | undefined> {
  const [row] = await db
    .select({
      userId: idempotencyKeys.userId,
      requestHash: idempotencyKeys.requestHash,
      status: idempotencyKeys.status,
      body: idempotencyKeys.body,
      etag: idempotencyKeys.etag,
    })
    .from(idempotencyKeys)
    .where(eq(idempotencyKeys.key, key))
    .limit(1);
  return row;
}

/**
 * Claims an Idempotency-Key for the save in this transaction: false when another save holds it.
 * A concurrent save with the same key waits here until ours ends: it then finds the key (ours
 * committed) or takes it (ours rolled back).
 */
export async function claimIdempotencyKey(tx: Tx, key: string, userId: string, requestHash: string): Promise<boolean> {
  const rows = await tx
    .insert(idempotencyKeys)
    .values({ key, userId, requestHash, status: 0 })
    .onConflictDoNothing({ target: idempotencyKeys.key })
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

/** Keeps the answer of the save that claimed `key`, in its transaction. */
export async function keepIdempotentAnswer(tx: Tx, key: string, answer: { status: number; body: unknown; etag: string }): Promise<void> {
  await tx.update(idempotencyKeys).set(answer).where(eq(idempotencyKeys.key, key));
}

/** Deletes the Idempotency-Keys kept since before `before`; returns how many. */
export async function deleteIdempotencyKeysBefore(db: Executor, before: Date): Promise<number> {
  return (await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before)).returning({ key: idempotencyKeys.key })).length;
}

/**
 * The marks of a register whose latest change is a self check-in (decision 45), with that change's
 * time: the check-ins faculty have not changed since.
 */
export async function listSelfCheckIns(db: Executor, registerId: string): Promise<Map<string, Date>> {
  const rows = await db
    .selectDistinctOn([attendanceChanges.pin], { pin: attendanceChanges.pin, source: attendanceChanges.source, changedAt: attendanceChanges.changedAt })
    .from(attendanceChanges)
    .where(eq(attendanceChanges.registerId, registerId))
    .orderBy(attendanceChanges.pin, desc(attendanceChanges.changedAt), desc(attendanceChanges.id));
  return new Map(rows.filter((row) => row.source === 'self').map((row) => [row.pin, row.changedAt]));
}

/** Whether faculty have changed this student's mark in this register (a save, a correction, a removal). */
export async function hasFacultyChange(db: Executor, registerId: string, pin: string): Promise<boolean> {
  const [row] = await db
    .select({ id: attendanceChanges.id })
    .from(attendanceChanges)
    .where(and(eq(attendanceChanges.registerId, registerId), eq(attendanceChanges.pin, pin), eq(attendanceChanges.source, 'faculty')))
    .limit(1);
  return row !== undefined;
}

/** How many registers each class has, all dates; a class with none is absent from the map. */
export async function countRegistersByClass(db: Executor): Promise<Map<string, number>> {
  const rows = await db
    .select({ className: registers.className, count: sql<number>`count(*)::int` })
    .from(registers)
    .groupBy(registers.className);
  return new Map(rows.map((row) => [row.className, Number(row.count)]));
}

/** The classes with a register (any period) on `date`. */
export interface DayTakenRow {
  className: string;
  registers: number;
  lastBy: string | null;
  lastAt: Date;
  attended: number;
  held: number;
}

/** The registers taken on a date, per class: how many, who saved one last and when, marks that attend and marks held. */
export async function listTakenOn(db: Executor, date: string): Promise<DayTakenRow[]> {
  const lastChange = sql`greatest(${registers.takenAt}, ${registers.updatedAt})`;
  return db
    .select({
      className: registers.className,
      registers: sql<number>`count(*)::int`,
      lastBy: sql<string | null>`(array_agg(${users.name} order by ${lastChange} desc))[1]`,
      lastAt: sql<Date>`max(${lastChange})`.mapWith((value: string | Date) => new Date(value)),
      attended: sql<number>`sum(${registers.presentCount} + ${registers.lateCount})::int`,
      held: sql<number>`sum(${registers.presentCount} + ${registers.lateCount} + ${registers.absentCount})::int`,
    })
    .from(registers)
    .leftJoin(users, eq(users.id, registers.takenBy))
    .where(eq(registers.date, date))
    .groupBy(registers.className);
}

export interface StudentMarkRow {
  date: string;
  period: number;
  className: string;
  name: string;
  status: MarkStatus;
  subjectCode: string | null;
  subjectName: string | null;
}

/** Where a page of a student's history starts: after this (date, period, class); newest date and period first, classes A to Z. */
export interface HistoryCursor {
  date: string;
  period: number;
  className: string;
}

/**
 * One page of a student's marks, newest first by date and period (then class A to Z), read along the index on
 * (pin, date, period, class): the cost follows the page, not the history. `from` and `to` limit the
 * dates (a term).
 */
export function listMarksByPin(
  db: Executor,
  pin: string,
  options: { limit: number; before?: HistoryCursor | undefined; from?: string | null; to?: string | null },
): Promise<StudentMarkRow[]> {
  const { before } = options;
  const from = options.from || undefined;
  const to = options.to || undefined;
  // One prepared query per executor and shape (db/prepared-queries.ts): with or without each bound.
  const shape = `${from === undefined ? '-' : 'from'}.${to === undefined ? '-' : 'to'}.${before === undefined ? '-' : 'before'}`;
  const query = preparedOn(db, `attendance.listMarksByPin.${shape}`, (on) => {
    const conditions: SQL[] = [eq(attendanceMarks.pin, sql.placeholder('pin'))];
    if (from !== undefined) conditions.push(sql`${attendanceMarks.date} >= ${sql.placeholder('from')}`);
    if (to !== undefined) conditions.push(sql`${attendanceMarks.date} <= ${sql.placeholder('to')}`);
    if (before !== undefined) {
      const date = sql.placeholder('beforeDate');
      const period = sql.placeholder('beforePeriod');
      conditions.push(
        or(
          lt(attendanceMarks.date, date),
          and(eq(attendanceMarks.date, date), lt(attendanceMarks.period, period)),
          and(eq(attendanceMarks.date, date), eq(attendanceMarks.period, period), gt(attendanceMarks.className, sql.placeholder('beforeClass'))),
        )!,
      );
    }
    return on
      .select({
        date: attendanceMarks.date,
        period: attendanceMarks.period,
        className: attendanceMarks.className,
        name: attendanceMarks.name,
        status: attendanceMarks.status,
        subjectCode: registers.subjectCode,
        subjectName: subjects.name,
      })
      .from(attendanceMarks)
      .innerJoin(registers, eq(registers.id, attendanceMarks.registerId))
      .leftJoin(subjects, eq(subjects.code, registers.subjectCode))
      .where(and(...conditions))
      .orderBy(newestFirst(attendanceMarks.date), newestFirst(attendanceMarks.period), asc(attendanceMarks.className))
      .limit(sql.placeholder('limit'))
      .prepare('');
  });
  return query.execute({
    pin,
    from,
    to,
    beforeDate: before?.date,
    beforePeriod: before?.period,
    beforeClass: before?.className,
    limit: options.limit,
  });
}

/** The name and class of a student's latest mark: for someone no longer on the roster. */
export async function latestMarkOf(db: Executor, pin: string): Promise<{ name: string; className: string } | undefined> {
  const [row] = await db
    .select({ name: attendanceMarks.name, className: attendanceMarks.className })
    .from(attendanceMarks)
    .where(eq(attendanceMarks.pin, pin))
    .orderBy(newestFirst(attendanceMarks.date), newestFirst(attendanceMarks.period), desc(attendanceMarks.className))
    .limit(1);
  return row;
}

/** Writes a whole register with its marks and counters in one go: for demo data, which has no history. */
export async function insertRegister(
  tx: Tx,
  register: Omit<typeof registers.$inferInsert, 'id' | 'updatedAt'> & { takenAt: Date },
  marks: Omit<NewMarkRow, 'registerId' | 'date' | 'period'>[],
): Promise<void> {
  const [row] = await tx
    .insert(registers)
    .values({ ...register, updatedAt: register.takenAt })
    .returning({ id: registers.id });
  if (!row) throw new Error('insert returned no register');
  await tx
    .insert(attendanceMarks)
    .values(marks.map((mark) => ({ ...mark, registerId: row.id, date: register.date, period: register.period ?? 0 })));
}

/**
 * Synthetic history in two set-based statements (`portal demo-data --marks N`): per class and
 * date, one whole-day register (`periods` 0) or a register per period 1 to `periods` with the
 * subject the class's timetable gives it that weekday, and a mark per roster student of the class,
 * drawn from the student's own attendance rate (a stable function of the PIN, from about 55% to
 * 98%), a few of them late or excused. Counters are left to the caller (a rebuild from the marks).
 * Returns the marks written.
 */
export async function insertSyntheticHistory(
  tx: Tx,
  input: { classNames: readonly string[]; dates: readonly string[]; periods: number; takenBy: string },
): Promise<number> {
  await tx.execute(sql`
    insert into attendance_sessions (class_name, date, period, subject_code, taken_by, taken_at, updated_at)
    select c.name, d.date, p.period, t.subject_code, ${input.takenBy}::uuid,
      d.date + time '08:00' + p.period * interval '1 hour', d.date + time '08:00' + p.period * interval '1 hour'
    from unnest(${sql.param(input.classNames)}::text[]) as c(name)
    cross join unnest(${sql.param(input.dates)}::date[]) as d(date)
    cross join generate_series(${input.periods > 0 ? 1 : 0}::int, ${input.periods}::int) as p(period)
    left join timetable_slots t on t.class_name = c.name and t.weekday = extract(isodow from d.date) and t.period = p.period`);
  const rows = await tx.execute(sql`
    insert into attendance_marks (session_id, pin, name, class_name, status, date, period)
    select s.id, st.pin, st.name, st.class_name,
      case
        when draw.r < rate.p - 0.05 then 'present'
        when draw.r < rate.p then 'late'
        when draw.r < rate.p + 0.02 then 'excused'
        else 'absent'
      end,
      s.date, s.period
    from attendance_sessions s
    join students st on st.class_name = s.class_name and st.withdrawn_at is null
    cross join lateral (select 0.55 + (abs(hashtext(st.pin)) % 430) / 1000.0 as p) rate
    cross join lateral (select random() as r, s.id as touch) draw`);
  return (rows as unknown as { rowCount?: number; affectedRows?: number }).rowCount ?? (rows as unknown as { affectedRows?: number }).affectedRows ?? 0;
}
