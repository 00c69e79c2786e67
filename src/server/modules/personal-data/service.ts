import type { PersonalData } from '../../../shared/schemas/personal-data';
import type { User } from '../../../shared/schemas/auth';
import type { Db } from '../../db/client';
import { notFound } from '../../http-error';
import { actorOf, recordAudit } from '../audit/service';
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
  const [messages, audit] = await Promise.all([
    repo.listContactMessages(db, emails),
    repo.listAuditEntries(db, { pin, emails, accountId: account?.id ?? null }),
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
    auditEntries: audit.map((row) => ({
      id: String(row.id),
      at: row.at.toISOString(),
      actor: row.actor,
      action: row.action as PersonalData['auditEntries'][number]['action'],
      target: row.target,
      detail: row.detail,
    })),
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
