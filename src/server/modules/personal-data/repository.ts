import { and, asc, eq, gt, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  attendanceChanges,
  attendanceMarks,
  auditLog,
  contactMessages,
  correctionRequests,
  profilePhotos,
  profiles,
  registers,
  signInSessions,
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

/** Every mark of the PIN, oldest first, with its register's class, date, period and subject. */
export function listMarks(db: Executor, pin: string) {
  return db
    .select({
      registerId: attendanceMarks.registerId,
      className: registers.className,
      date: registers.date,
      period: registers.period,
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
      className: registers.className,
      date: registers.date,
      period: registers.period,
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
