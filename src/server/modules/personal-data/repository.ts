import { and, asc, eq, gt, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import {
  alertEpisodes,
  attendanceChanges,
  attendanceMarks,
  auditLog,
  checkinEntries,
  checkins,
  contactMessages,
  correctionRequests,
  idempotencyKeys,
  deviceKeys,
  mailOutbox,
  notifications,
  profilePhotos,
  profiles,
  registers,
  signInLimits,
  signInSessions,
  studentCounters,
  students,
  totpCredentials,
  users,
} from '../../db/schema';

export async function findRosterRow(db: Executor, pin: string) {
  const [row] = await db.select().from(students).where(eq(students.pin, pin));
  return row;
}

/** The student's account, without the columns that are never handed out. */
export async function findAccount(db: Executor, pin: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      createdAt: users.createdAt,
      disabledAt: users.disabledAt,
      lastSignInAt: users.lastSignInAt,
      hasPassword: sql<boolean>`${users.passwordHash} is not null`,
      singleSignOn: sql<boolean>`${users.oidcSubject} is not null`,
    })
    .from(users)
    .where(and(eq(users.pin, pin), eq(users.role, 'student')));
  if (!row) return undefined;
  const [totp] = await db
    .select({ enabledAt: totpCredentials.enabledAt })
    .from(totpCredentials)
    .where(eq(totpCredentials.userId, row.id));
  const [sessions] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(signInSessions)
    .where(and(eq(signInSessions.userId, row.id), gt(signInSessions.expiresAt, sql`now()`)));
  return { ...row, twoStepSignIn: Boolean(totp?.enabledAt), signedInBrowsers: Number(sessions?.count ?? 0) };
}

export async function findProfile(db: Executor, pin: string) {
  const [row] = await db
    .select({ profile: profiles, photoType: profilePhotos.contentType, photo: profilePhotos.data })
    .from(profiles)
    .leftJoin(profilePhotos, eq(profilePhotos.profileId, profiles.id))
    .where(eq(profiles.pin, pin));
  return row;
}

/** Which register a row is about: its class, date and period. */
const REGISTER_PLACE = { className: registers.className, date: registers.date, period: registers.period };

/** Every mark of the PIN, oldest first, with its register's class, date, period and subject. */
export function listMarks(db: Executor, pin: string) {
  return db
    .select({
      registerId: attendanceMarks.registerId,
      ...REGISTER_PLACE,
      subject: registers.subjectCode,
      name: attendanceMarks.name,
      status: attendanceMarks.status,
    })
    .from(attendanceMarks)
    .innerJoin(registers, eq(registers.id, attendanceMarks.registerId))
    .where(eq(attendanceMarks.pin, pin))
    .orderBy(asc(registers.date), asc(registers.period), asc(registers.className));
}

export function listChanges(db: Executor, pin: string) {
  return db
    .select({
      registerId: attendanceChanges.registerId,
      at: attendanceChanges.changedAt,
      from: attendanceChanges.oldStatus,
      to: attendanceChanges.newStatus,
      reason: attendanceChanges.reason,
    })
    .from(attendanceChanges)
    .where(eq(attendanceChanges.pin, pin))
    .orderBy(asc(attendanceChanges.id));
}

export function listCorrections(db: Executor, pin: string) {
  return db
    .select({
      ...REGISTER_PLACE,
      reason: correctionRequests.reason,
      state: correctionRequests.state,
      reply: correctionRequests.reply,
      createdAt: correctionRequests.createdAt,
      decidedAt: correctionRequests.decidedAt,
    })
    .from(correctionRequests)
    .innerJoin(registers, eq(registers.id, correctionRequests.registerId))
    .where(eq(correctionRequests.pin, pin))
    .orderBy(asc(correctionRequests.createdAt));
}

/** Contact messages sent from any of the e-mails (compared case-insensitively). */
export function listContactMessages(db: Executor, emails: string[]) {
  if (emails.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(contactMessages)
    .where(inArray(sql`lower(${contactMessages.email})`, emails.map((e) => e.toLowerCase())))
    .orderBy(asc(contactMessages.id));
}

/** The e-mails queued or sent to any of the addresses, without their text. */
export function listMail(db: Executor, emails: string[]) {
  if (emails.length === 0) return Promise.resolve([]);
  return db
    .select({ subject: mailOutbox.subject, status: mailOutbox.status, createdAt: mailOutbox.createdAt, sentAt: mailOutbox.sentAt })
    .from(mailOutbox)
    .where(inArray(sql`lower(${mailOutbox.recipient})`, emails.map((e) => e.toLowerCase())))
    .orderBy(asc(mailOutbox.id));
}

/**
 * The audit entries that name the student: done by their account, or with the PIN or one of the
 * e-mails as the target (or a target starting with the PIN, as corrections are), or as a whole
 * string value anywhere in the detail.
 */
export function auditNaming(who: { pin: string; emails: string[]; accountId: string | null }): SQL {
  const conditions: SQL[] = [
    eq(auditLog.target, who.pin),
    sql`${auditLog.target} like ${`${who.pin.replace(/[\\%_]/g, '\\$&')} %`}`,
    sql`strpos(${auditLog.detail}::text, ${JSON.stringify(who.pin)}) > 0`,
  ];
  for (const email of who.emails) {
    conditions.push(sql`lower(${auditLog.target}) = ${email.toLowerCase()}`);
    conditions.push(sql`lower(${auditLog.actor}) = ${email.toLowerCase()}`);
    conditions.push(sql`strpos(lower(${auditLog.detail}::text), ${JSON.stringify(email.toLowerCase())}) > 0`);
  }
  if (who.accountId) conditions.push(eq(auditLog.actorId, who.accountId));
  return or(...conditions)!;
}

export function listAuditEntries(db: Executor, who: { pin: string; emails: string[]; accountId: string | null }) {
  return db.select().from(auditLog).where(auditNaming(who)).orderBy(asc(auditLog.id));
}

/** What erasing a student changed, counted (no personal data in it). */
export interface ErasureCounts {
  account: boolean;
  profile: boolean;
  marks: number;
  corrections: number;
  contactMessages: number;
  auditEntries: number;
  /** Self check-ins kept under the pseudonym. */
  checkins: number;
  /** The devices' keys, deleted. */
  deviceKeys: number;
}

/** A text column with each of the names replaced by the pseudonym (names longest first, as the service sorts them). */
function withoutNames(column: SQL, names: readonly string[], pseudonym: string): SQL {
  let text = column;
  for (const name of names.filter((n) => n.trim().length > 0)) text = sql`replace(${text}, ${name}::text, ${pseudonym}::text)`;
  return text;
}

/** The JSON-escaped form of a string, as it appears inside a jsonb value's text. */
const inJson = (value: string) => JSON.stringify(value).slice(1, -1);

/**
 * Erases the student with this PIN in the transaction `tx` (see service.eraseStudent): deletes the
 * account (its sessions, TOTP, devices and links go with it), the profile and photo, the correction
 * requests, the contact messages and mail sent from or to the e-mails, and replaces the PIN, the
 * names and the e-mails everywhere else by `pseudonym`.
 */
export async function eraseStudent(
  tx: Tx,
  who: { pin: string; pseudonym: string; names: string[]; emails: string[]; accountId: string | null; correctionTexts: string[] },
): Promise<ErasureCounts> {
  const { pin, pseudonym } = who;
  const lowerEmails = who.emails.map((e) => e.toLowerCase());
  const naming = auditNaming({ pin, emails: who.emails, accountId: who.accountId });

  // The trail first, while the entries can still be found by the account's id and e-mail.
  // Only this transaction may rewrite it (the trigger of migration 0018 checks the setting).
  await tx.execute(sql`select set_config('portal.erasing_student', 'on', true)`);
  const replacements: [string, string][] = [
    [pin, pseudonym],
    ...who.emails.flatMap((e): [string, string][] => [[e, pseudonym], [e.toLowerCase(), pseudonym]]),
    ...who.names.filter((n) => n.trim().length > 0).map((n): [string, string] => [n, pseudonym]),
  ];
  let target: SQL = sql`${auditLog.target}`;
  let actor: SQL = sql`${auditLog.actor}`;
  let detail: SQL = sql`${auditLog.detail}::text`;
  for (const [from, to] of replacements) {
    target = sql`replace(${target}, ${from}, ${to})`;
    actor = sql`replace(${actor}, ${from}, ${to})`;
    detail = sql`replace(${detail}, ${inJson(from)}, ${inJson(to)})`;
  }
  // A correction's reason and reply are the student's words: they go from the trail as from the
  // requests, also where an accepted correction's save copied the reason.
  let rewritten: SQL = sql`(${detail})::jsonb`;
  let where: SQL = naming;
  if (who.correctionTexts.length > 0) {
    for (const key of ['reason', 'reply']) {
      rewritten = sql`(case when (${rewritten}) ->> ${key} in ${who.correctionTexts} then (${rewritten}) - ${key} else ${rewritten} end)`;
    }
    where = or(
      naming,
      sql`${auditLog.detail} ->> 'reason' in ${who.correctionTexts}`,
      sql`${auditLog.detail} ->> 'reply' in ${who.correctionTexts}`,
    )!;
  }
  const audit = await tx
    .update(auditLog)
    .set({
      target,
      actor,
      actorId: sql`case when ${auditLog.actorId} = ${who.accountId} then null else ${auditLog.actorId} end`,
      detail: rewritten,
    })
    .where(where)
    .returning({ id: auditLog.id });
  await tx.execute(sql`select set_config('portal.erasing_student', 'off', true)`);

  const account = who.accountId ? (await tx.delete(users).where(eq(users.id, who.accountId)).returning({ id: users.id })).length > 0 : false;
  const profile = (await tx.delete(profiles).where(eq(profiles.pin, pin)).returning({ id: profiles.id })).length > 0;
  const corrections = await tx.delete(correctionRequests).where(eq(correctionRequests.pin, pin)).returning({ id: correctionRequests.id });
  const messages =
    lowerEmails.length > 0
      ? await tx
          .delete(contactMessages)
          .where(inArray(sql`lower(${contactMessages.email})`, lowerEmails))
          .returning({ id: contactMessages.id })
      : [];
  if (lowerEmails.length > 0) {
    await tx.delete(mailOutbox).where(inArray(sql`lower(${mailOutbox.recipient})`, lowerEmails));
    await tx.delete(signInLimits).where(inArray(signInLimits.key, lowerEmails.map((e) => `email:${e}`)));
  }

  // The registers keep their marks and counts, under the pseudonym.
  await tx.update(students).set({ pin: pseudonym, name: pseudonym }).where(eq(students.pin, pin));
  const marks = await tx
    .update(attendanceMarks)
    .set({ pin: pseudonym, name: pseudonym })
    .where(eq(attendanceMarks.pin, pin))
    .returning({ registerId: attendanceMarks.registerId });
  await tx.update(studentCounters).set({ pin: pseudonym }).where(eq(studentCounters.pin, pin));
  await tx.update(alertEpisodes).set({ pin: pseudonym }).where(eq(alertEpisodes.pin, pin));
  // A check-in stays in its list under the pseudonym, its removal's reason without the student's
  // names; the keys of the student's devices go.
  const checkedIn = await tx
    .update(checkinEntries)
    .set({ pin: pseudonym, removedReason: withoutNames(sql`${checkinEntries.removedReason}`, who.names, pseudonym) })
    .where(eq(checkinEntries.pin, pin))
    .returning({ pin: checkinEntries.pin });
  const keys = await tx.delete(deviceKeys).where(eq(deviceKeys.pin, pin)).returning({ id: deviceKeys.id });
  await tx
    .update(attendanceChanges)
    .set({
      pin: pseudonym,
      // An accepted correction's reason was copied into the mark's history: it goes too. Faculty's
      // reasons (a check-in removed) lose the student's names.
      reason:
        who.correctionTexts.length > 0
          ? sql`case when ${attendanceChanges.reason} in ${who.correctionTexts} then null else ${withoutNames(sql`${attendanceChanges.reason}`, who.names, pseudonym)} end`
          : withoutNames(sql`${attendanceChanges.reason}`, who.names, pseudonym),
    })
    .where(eq(attendanceChanges.pin, pin));
  // The answers kept for register saves sent with an Idempotency-Key (72 hours) name the student.
  await tx.delete(idempotencyKeys).where(sql`${idempotencyKeys.body} -> 'records' @> ${JSON.stringify([{ pin }])}::jsonb`);

  return {
    account,
    profile,
    marks: marks.length,
    corrections: corrections.length,
    contactMessages: messages.length,
    auditEntries: audit.length,
    checkins: checkedIn.length,
    deviceKeys: keys.length,
  };
}

/** Deletes the contact messages received before `before`; returns how many. */
export async function deleteMessagesBefore(db: Executor, before: Date): Promise<number> {
  return (await db.delete(contactMessages).where(lt(contactMessages.createdAt, before)).returning({ id: contactMessages.id })).length;
}

/** The PINs of the students withdrawn before `before`, not erased yet. */
export async function listWithdrawnBefore(db: Executor, before: Date): Promise<string[]> {
  const rows = await db
    .select({ pin: students.pin })
    .from(students)
    .where(and(lt(students.withdrawnAt, before), sql`${students.pin} not like 'ERASED-%'`))
    .orderBy(asc(students.pin));
  return rows.map((r) => r.pin);
}

export function listAlertEpisodes(db: Executor, pin: string) {
  return db.select().from(alertEpisodes).where(eq(alertEpisodes.pin, pin)).orderBy(alertEpisodes.id);
}

export function listNotifications(db: Executor, userId: string) {
  return db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(notifications.id);
}

/** The student's self check-ins, oldest first, with their register. */
export function listCheckins(db: Executor, pin: string) {
  return db
    .select({
      className: checkins.className,
      date: checkins.date,
      period: checkins.period,
      status: checkinEntries.status,
      at: checkinEntries.at,
      markKept: checkinEntries.markKept,
      flags: checkinEntries.flags,
      removedAt: checkinEntries.removedAt,
      removedReason: checkinEntries.removedReason,
    })
    .from(checkinEntries)
    .innerJoin(checkins, eq(checkins.id, checkinEntries.checkinId))
    .where(eq(checkinEntries.pin, pin))
    .orderBy(asc(checkinEntries.at));
}

/** The public keys of the student's devices. */
export function listDeviceKeys(db: Executor, pin: string) {
  return db
    .select({ publicKey: deviceKeys.publicKey, createdAt: deviceKeys.createdAt, lastUsedAt: deviceKeys.lastUsedAt })
    .from(deviceKeys)
    .where(eq(deviceKeys.pin, pin))
    .orderBy(asc(deviceKeys.createdAt));
}
