import { randomBytes } from 'node:crypto';
import type { PersonalData } from '../../../shared/schemas/personal-data';
import type { User } from '../../../shared/schemas/auth';
import type { Db } from '../../db/client';
import { badRequest, notFound } from '../../http-error';
import { actorOf, recordAudit, type Actor } from '../audit/service';
export { actorOf };
import { endAllSignIns } from '../auth/service';
import { bumpDataVersion } from '../data-version/service';
import * as repo from './repository';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** Everything held about the student with this PIN (a normal-form PIN); 404 when nothing is. */
export async function collectPersonalData(db: Db, pin: string): Promise<PersonalData> {
  const [roster, account, profileRow, marks, changes, corrections] = await Promise.all([
    repo.findRosterRow(db, pin),
    repo.findAccount(db, pin),
    repo.findProfile(db, pin),
    repo.listMarks(db, pin),
    repo.listChanges(db, pin),
    repo.listCorrections(db, pin),
  ]);
  if (!roster && !account && !profileRow && marks.length === 0) {
    throw notFound(`Nothing is held about PIN ${pin}`);
  }
  const profile = profileRow?.profile;
  const emails = [...new Set([account?.email, profile?.email].filter((e): e is string => !!e).map((e) => e.toLowerCase()))];
  const [messages, mail, audit, episodes, notices, checkins, devices] = await Promise.all([
    repo.listContactMessages(db, emails),
    repo.listMail(db, emails),
    repo.listAuditEntries(db, { pin, emails, accountId: account?.id ?? null }),
    repo.listAlertEpisodes(db, pin),
    account ? repo.listNotifications(db, account.id) : Promise.resolve([]),
    repo.listCheckins(db, pin),
    repo.listDeviceKeys(db, pin),
  ]);

  const changesOf = new Map<string, typeof changes>();
  for (const change of changes) {
    const list = changesOf.get(change.registerId) ?? [];
    list.push(change);
    changesOf.set(change.registerId, list);
  }

  return {
    exportedAt: new Date().toISOString(),
    pin,
    roster: roster ? { pin: roster.pin, name: roster.name, className: roster.className, withdrawnAt: iso(roster.withdrawnAt) } : null,
    account: account
      ? {
          email: account.email,
          name: account.name,
          role: account.role,
          createdAt: account.createdAt.toISOString(),
          disabledAt: iso(account.disabledAt),
          lastSignInAt: iso(account.lastSignInAt),
          hasPassword: account.hasPassword,
          singleSignOn: account.singleSignOn,
          twoStepSignIn: account.twoStepSignIn,
          signedInBrowsers: Number(account.signedInBrowsers),
        }
      : null,
    profile: profile
      ? {
          name: profile.name,
          designation: profile.designation,
          status: profile.status,
          email: profile.email,
          phone: profile.phone,
          imageUrl: profile.imageUrl,
          imageAlt: profile.imageAlt,
          linkedin: profile.linkedin,
          github: profile.github,
          leetcode: profile.leetcode,
          resume: profile.resume,
          portfolio: profile.portfolio,
          photo: profileRow.photo && profileRow.photoType ? `data:${profileRow.photoType};base64,${profileRow.photo.toString('base64')}` : null,
          createdAt: profile.createdAt.toISOString(),
          updatedAt: profile.updatedAt.toISOString(),
        }
      : null,
    marks: marks.map((mark) => ({
      className: mark.className,
      date: mark.date,
      period: mark.period,
      subject: mark.subject,
      name: mark.name,
      status: mark.status,
      changes: (changesOf.get(mark.registerId) ?? []).map((c) => ({ at: c.at.toISOString(), from: c.from, to: c.to, reason: c.reason })),
    })),
    corrections: corrections.map((c) => ({ ...c, createdAt: c.createdAt.toISOString(), decidedAt: iso(c.decidedAt) })),
    contactMessages: messages.map((m) => ({
      name: m.name,
      email: m.email,
      phone: m.phone,
      subject: m.subject,
      message: m.message,
      createdAt: m.createdAt.toISOString(),
    })),
    emails: mail.map((m) => ({ subject: m.subject, status: m.status, createdAt: m.createdAt.toISOString(), sentAt: iso(m.sentAt) })),
    auditEntries: audit.map((row) => ({
      id: String(row.id),
      at: row.at.toISOString(),
      actor: row.actor,
      action: row.action as PersonalData['auditEntries'][number]['action'],
      target: row.target,
      detail: row.detail,
    })),
    alerts: episodes.map((e) => ({ rule: e.rule, scope: e.scope, openedAt: e.openedAt.toISOString(), closedAt: iso(e.closedAt), detail: e.detail })),
    notifications: notices.map((n) => ({ kind: n.kind, title: n.title, body: n.body, createdAt: n.createdAt.toISOString(), readAt: iso(n.readAt) })),
    checkins: checkins.map((c) => ({
      className: c.className,
      date: c.date,
      period: c.period,
      status: c.status,
      at: c.at.toISOString(),
      markKept: c.markKept,
      flags: c.flags,
      removedAt: iso(c.removedAt),
      removedReason: c.removedReason,
    })),
    deviceKeys: devices.map((d) => ({ publicKey: d.publicKey, createdAt: d.createdAt.toISOString(), lastUsedAt: d.lastUsedAt.toISOString() })),
  };
}

/** The signed-in student's own data. */
export function exportOwnData(db: Db, user: User): Promise<PersonalData> {
  if (!user.pin) throw notFound('This account has no PIN');
  return collectPersonalData(db, user.pin);
}

/** A student's data for an admin, recorded in the trail (who looked, not what they saw). */
export async function exportStudentData(db: Db, admin: User, pin: string): Promise<PersonalData> {
  const data = await collectPersonalData(db, pin);
  await recordAudit(db, actorOf(admin), 'student.export', pin);
  return data;
}

/** The name, PIN and e-mail of an erased student become `ERASED-` and 8 hex digits (upper case, as PINs are stored). */
export function newPseudonym(): string {
  return `ERASED-${randomBytes(4).toString('hex').toUpperCase()}`;
}

export const ERASE_CONFIRM_MESSAGE = "confirm must be the student's PIN, typed again: nothing was erased";

export interface Erasure {
  pseudonym: string;
  counts: repo.ErasureCounts;
}

/**
 * Erases a student at their request (or when their retention ends), in one transaction: see
 * repository.eraseStudent. Registers, counts and reports stay as they were, under the pseudonym.
 * Recorded as `student.erase` with the pseudonym and the counts, never what was erased.
 */
export async function eraseStudent(db: Db, actor: Actor, pin: string, confirm: string): Promise<Erasure> {
  // An admin's request, or retention (the CLI actor).
  if (confirm.trim().toUpperCase() !== pin) throw badRequest(ERASE_CONFIRM_MESSAGE);
  if (pin.startsWith('ERASED-')) throw badRequest(`${pin} is already erased`);
  return db.transaction(async (tx) => {
    // One after another: a transaction is one connection, which takes one statement at a time.
    const roster = await repo.findRosterRow(tx, pin);
    const account = await repo.findAccount(tx, pin);
    const profileRow = await repo.findProfile(tx, pin);
    const marks = await repo.listMarks(tx, pin);
    const corrections = await repo.listCorrections(tx, pin);
    if (!roster && !account && !profileRow && marks.length === 0) throw notFound(`Nothing is held about PIN ${pin}`);
    const profile = profileRow?.profile;
    const names = [...new Set([roster?.name, account?.name, profile?.name, ...marks.map((m) => m.name)].filter((n): n is string => !!n))];
    const emails = [...new Set([account?.email, profile?.email].filter((e): e is string => !!e))];
    const correctionTexts = [...new Set(corrections.flatMap((c) => [c.reason, c.reply ?? '']).filter((t) => t !== ''))];
    const pseudonym = newPseudonym();
    // Signed out at once in every process, before the account goes.
    if (account) await endAllSignIns(tx, account.id);
    // Longer names first, so that a name inside another (a first name alone) is not replaced half-way.
    names.sort((a, b) => b.length - a.length);
    const counts = await repo.eraseStudent(tx, { pin, pseudonym, names, emails, accountId: account?.id ?? null, correctionTexts });
    await bumpDataVersion(tx);
    await recordAudit(tx, actor, 'student.erase', pseudonym, { ...counts });
    return { pseudonym, counts };
  });
}
