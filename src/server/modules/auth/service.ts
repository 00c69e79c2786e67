import { createHash, randomBytes } from 'node:crypto';
import { loginTabFor } from '../../../shared/access';
import type { LoginRequest, User } from '../../../shared/schemas/auth';
import type { Executor } from '../../db/client';
import { HttpError } from '../../http-error';
import {
  deleteExpiredSetPasswordLinks,
  findUserByEmail,
  hashPassword,
  recordSignIn,
  setPasswordWithLink,
  verifyPassword,
} from '../accounts/service';
import * as repo from './repository';

export const SESSION_COOKIE = 'portal_session';
/** Remember me keeps a sign-in session for 30 days; otherwise it ends with the browser, or after 12 hours. */
export const REMEMBER_MS = 30 * 24 * 60 * 60 * 1000;
export const BROWSER_SESSION_MS = 12 * 60 * 60 * 1000;

/** A browser that has signed in to an account is known by this cookie for a year. */
export const DEVICE_COOKIE = 'portal_device';
export const DEVICE_MS = 365 * 24 * 60 * 60 * 1000;

/** Failed attempts are counted over 15 minutes. */
export const ATTEMPT_WINDOW_MS = 15 * 60 * 1000;

/**
 * How many failed attempts each key takes in a window. An attempt from a browser that has signed
 * in to the account before (a valid device cookie) counts only against that device, so failures
 * from anywhere else, even the same lab address, never lock the owner out.
 */
export interface SignInLimits {
  perEmail: number;
  perAddress: number;
  perDevice: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perEmail: 5, perAddress: 100, perDevice: 10 };

export const TOO_MANY_ATTEMPTS = 'Too many failed sign-in attempts. Please wait 15 minutes and try again.';
export const INVALID_CREDENTIALS = 'Invalid credentials';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Verified against when the email is unknown, so that both failures cost the same work. */
let dummyHash: Promise<string> | undefined;
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

const ROLE_LABEL = { faculty: 'Faculty', student: 'Student' } as const;

export interface LoginResult {
  user: User;
  token: string;
  expiresAt: Date;
  persistent: boolean;
  /** A new device cookie to set, when this browser had none valid for the account. */
  deviceToken: string | null;
}

export function toUser(row: { id: string; email: string; name: string; role: User['role']; pin: string | null }): User {
  return { id: row.id, email: row.email, name: row.name, role: row.role, ...(row.pin ? { pin: row.pin } : {}) };
}

export interface LoginContext {
  /** The client's address. */
  address: string;
  /** The `portal_device` cookie the browser sent, if any. */
  deviceToken?: string | undefined;
  limits?: SignInLimits;
  now?: Date;
}

/**
 * Signs in with e-mail and password. Each attempt is counted before the password is checked, in
 * one atomic step per key, so that forty attempts at once get at most the limit's worth of
 * answers; a success takes its count back.
 */
export async function login(db: Executor, input: LoginRequest, context: LoginContext): Promise<LoginResult> {
  const { address, limits = DEFAULT_SIGN_IN_LIMITS, now = new Date() } = context;
  const email = input.email.toLowerCase();
  const row = await findUserByEmail(db, email);
  const device =
    row && context.deviceToken ? await repo.findLiveDevice(db, hashToken(context.deviceToken), row.id, now) : undefined;
  // The address first: a flood from one address stops there, before it writes a row per e-mail.
  // Every attempt takes its keys in this one order, so two never wait for each other crosswise.
  const keyed: [string, number][] = device
    ? [[`device:${device.id}`, limits.perDevice]]
    : [
        [`address:${address}`, limits.perAddress],
        [`email:${email}`, limits.perEmail],
      ];
  if ((await repo.countAttempt(db, keyed, ATTEMPT_WINDOW_MS)) !== null) throw new HttpError(429, TOO_MANY_ATTEMPTS);
  const keys = keyed.map(([key]) => key);

  const passwordOk = await verifyPassword(row?.passwordHash ?? (await getDummyHash()), input.password);
  if (!row || !passwordOk || row.disabledAt) throw new HttpError(401, INVALID_CREDENTIALS);

  // The right password is not a failure, whatever happens next.
  await repo.uncountAttempt(db, keys);
  // The tab decides where the user lands, so it must match the account (DESIGN.md section 6.2).
  const accountTab = loginTabFor(row.role);
  if (accountTab !== input.role) {
    throw new HttpError(
      403,
      `This is a ${ROLE_LABEL[accountTab].toLowerCase()} account. Please use the ${ROLE_LABEL[accountTab]} tab to sign in.`,
    );
  }

  await repo.clearAttempts(db, device ? `device:${device.id}` : `email:${email}`);
  await recordSignIn(db, row.id, now);
  const token = randomBytes(32).toString('base64url');
  const persistent = input.remember;
  const expiresAt = new Date(now.getTime() + (persistent ? REMEMBER_MS : BROWSER_SESSION_MS));
  await repo.insertSession(db, { id: hashToken(token), userId: row.id, expiresAt, persistent });
  let deviceToken: string | null = null;
  if (!device) {
    deviceToken = randomBytes(32).toString('base64url');
    await repo.insertDevice(db, { id: hashToken(deviceToken), userId: row.id, expiresAt: new Date(now.getTime() + DEVICE_MS) });
  }
  return { user: toUser(row), token, expiresAt, persistent, deviceToken };
}

/** Writing last_seen_at on every request would turn every read into a write. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

export interface SignedIn {
  user: User;
  sessionId: string;
}

/** The account signed in with this cookie token: null unless the sign-in session is live and the account enabled. */
export async function resolveSignIn(db: Executor, token: string, now = new Date()): Promise<SignedIn | null> {
  const id = hashToken(token);
  const session = await repo.findLiveSession(db, id, now);
  if (!session) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) await repo.touchSession(db, id, now);
  return { user: toUser(session.user), sessionId: id };
}

export function signOut(db: Executor, sessionId: string): Promise<void> {
  return repo.deleteSession(db, sessionId);
}

/** Ends every sign-in session of an account, on every device. */
export function endAllSignIns(db: Executor, userId: string): Promise<void> {
  return repo.deleteSessionsOfUser(db, userId);
}

/** Ends every sign-in session of an account but the one kept: after its role changes. */
export function endOtherSignIns(db: Executor, userId: string, keepSessionId?: string): Promise<void> {
  return repo.deleteSessionsOfUser(db, userId, keepSessionId);
}

/**
 * Sets a password with a set-password link (POST /api/auth/set-password): in one transaction the
 * link is used up, the password set, every sign-in session of the account ended and its device
 * cookies cancelled.
 */
export async function setPasswordFromLink(db: Executor, token: string, password: string): Promise<void> {
  await db.transaction(async (tx) => {
    const user = await setPasswordWithLink(tx, token, password);
    await afterPasswordChange(tx, user.id);
  });
}

/**
 * After a password change or reset: every sign-in session ends but the caller's own (if any), and
 * the account's device cookies are cancelled, so an attacker's browser is no longer trusted.
 */
export async function afterPasswordChange(db: Executor, userId: string, keepSessionId?: string): Promise<void> {
  await repo.deleteSessionsOfUser(db, userId, keepSessionId);
  await repo.deleteDevicesOfUser(db, userId);
}

/** Expired sign-in sessions, devices and set-password links, sessions of disabled accounts and old attempt counts go now and then. */
export async function sweep(db: Executor, now = new Date()): Promise<void> {
  await repo.deleteDeadSessions(db, now);
  await repo.deleteExpiredDevices(db, now);
  await repo.deleteOldAttempts(db, new Date(now.getTime() - ATTEMPT_WINDOW_MS));
  await deleteExpiredSetPasswordLinks(db, now);
}
