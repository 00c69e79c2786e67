/**
 * Set-password links: a one-time token, stored only as its hash, that lets an account choose its
 * password; made by an admin (and e-mailed when e-mail is set up), cancelled by a newer one.
 */
import { hash as digest, randomBytes } from 'node:crypto';
import { SET_PASSWORD_LINK_HOURS } from '../../../shared/schemas/admin-users';
import { SET_PASSWORD_LINK_MESSAGE } from '../../../shared/schemas/auth';
import type { Executor } from '../../db/client';
import { badRequest } from '../../http-error';
import { UserInputError } from '../../input-error';
import { cancelMail, queueMail } from '../mail/service';
import { setPasswordMailText, type LinkDelivery } from './set-password-mail';
import { checkNewPassword, hashPassword } from './passwords';
import * as repo from './repository';
import type { UserRow } from './repository';

export const SET_PASSWORD_LINK_MS = SET_PASSWORD_LINK_HOURS * 60 * 60 * 1000;

export function hashLinkToken(token: string): string {
  return digest('sha256', token, 'hex');
}

/** A fresh link for the account, replacing (so cancelling) the one it had. Returns the token and its end. */
export async function issueSetPasswordToken(db: Executor, userId: string, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SET_PASSWORD_LINK_MS);
  await repo.putSetPasswordToken(db, { userId, tokenHash: hashLinkToken(token), expiresAt });
  return { token, expiresAt };
}

/** The link as the admin copies it: a fragment, so the token never reaches a log or a Referer. */
export function setPasswordUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/set-password#token=${token}`;
}

/** What an account's set-password e-mails are about in the mail outbox: a newer one cancels an older one. */
export function setPasswordMailTopic(userId: string): string {
  return `set-password:${userId}`;
}

/** Cancels the account's set-password e-mail not sent yet: its link does not work for a disabled account. */
export function cancelSetPasswordMail(db: Executor, userId: string): Promise<void> {
  return cancelMail(db, setPasswordMailTopic(userId));
}

/**
 * Queues the link's e-mail when e-mail is set up, in the caller's transaction (the one that made
 * the link): stored with the link or not at all, sent by the mail outbox whenever SMTP answers,
 * until the link ends.
 */
export async function queueSetPasswordMail(
  db: Executor,
  delivery: LinkDelivery,
  user: UserRow,
  link: { url: string; expiresAt: Date },
  kind: 'new' | 'reset',
): Promise<void> {
  if (!delivery.email) return;
  const { subject, text } = setPasswordMailText({ to: user.email, name: user.name, url: link.url, kind, language: user.language });
  await queueMail(db, { to: user.email, subject, text, topic: setPasswordMailTopic(user.id), expiresAt: link.expiresAt });
}

/**
 * Sets an account's password with its set-password link. The link works once, for 72 hours, and
 * not for a disabled account; the password must pass the rules (the link is kept when it does
 * not, so the person can try another). The caller ends the account's other sign-in sessions and
 * cancels its device cookies in the same transaction.
 */
export async function setPasswordWithLink(
  db: Executor,
  token: string,
  password: string,
  now = new Date(),
): Promise<UserRow> {
  const tokenHash = hashLinkToken(token);
  const live = await repo.findLiveSetPasswordToken(db, tokenHash, now);
  const owner = live ? await repo.findUserById(db, live.userId) : undefined;
  if (!owner || owner.disabledAt) throw badRequest(SET_PASSWORD_LINK_MESSAGE);
  let valid: string;
  try {
    valid = await checkNewPassword(password, [owner.email, owner.name]);
  } catch (error) {
    if (error instanceof UserInputError) throw badRequest(error.message.replace(/^Password: /, ''));
    throw error;
  }
  const passwordHash = await hashPassword(valid);
  // Taken in the transaction: of two uses of one link, one gets the account and the other 400.
  const taken = await repo.takeSetPasswordToken(db, tokenHash, now);
  if (!taken) throw badRequest(SET_PASSWORD_LINK_MESSAGE);
  const user = await repo.lockUser(db, taken.userId);
  if (!user || user.disabledAt) throw badRequest(SET_PASSWORD_LINK_MESSAGE);
  await repo.updateUser(db, user.id, { passwordHash });
  // The link is used up: an e-mail of it still waiting would only carry a dead link.
  await cancelSetPasswordMail(db, user.id);
  return user;
}

export function deleteExpiredSetPasswordLinks(db: Executor, now = new Date()): Promise<void> {
  return repo.deleteExpiredSetPasswordTokens(db, now);
}
