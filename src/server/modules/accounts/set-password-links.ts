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
import type { LinkDelivery } from './mailer';
import { checkNewPassword, hashPassword } from './passwords';
import * as repo from './repository';
import type { UserRow } from './repository';

export const SET_PASSWORD_LINK_MS = SET_PASSWORD_LINK_HOURS * 60 * 60 * 1000;

export function hashLinkToken(token: string): string {
  return digest('sha256', token, 'hex');
}

/** A fresh link for the account, replacing (so cancelling) the one it had. Returns the token. */
export async function issueSetPasswordToken(db: Executor, userId: string, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await repo.putSetPasswordToken(db, {
    userId,
    tokenHash: hashLinkToken(token),
    expiresAt: new Date(now.getTime() + SET_PASSWORD_LINK_MS),
  });
  return token;
}

/** The link as the admin copies it: a fragment, so the token never reaches a log or a Referer. */
export function setPasswordUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/set-password#token=${token}`;
}

/** Sends the link when e-mail is set up; a failed send is logged, the admin still has the link. */
export async function deliver(delivery: LinkDelivery, user: UserRow, url: string, kind: 'new' | 'reset'): Promise<void> {
  if (!delivery.mailer) return;
  try {
    await delivery.mailer.sendSetPasswordLink({ to: user.email, name: user.name, url, kind });
  } catch (error) {
    delivery.log?.warn({ err: error instanceof Error ? error.message : String(error) }, 'the set-password e-mail was not sent');
  }
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
  return user;
}

export function deleteExpiredSetPasswordLinks(db: Executor, now = new Date()): Promise<void> {
  return repo.deleteExpiredSetPasswordTokens(db, now);
}
