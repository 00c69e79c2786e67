import { createHash, randomBytes } from 'node:crypto';
import { loginTabFor } from '../../../shared/access';
import type { LoginRequest, User } from '../../../shared/schemas/auth';
import type { Executor } from '../../db/client';
import { HttpError } from '../../http-error';
import { findUserByEmail, hashPassword, verifyPassword } from '../accounts/service';
import * as repo from './repository';

export const SESSION_COOKIE = 'portal_session';
/** Remember me keeps a sign-in session for 30 days; otherwise it ends with the browser, or after 12 hours. */
export const REMEMBER_MS = 30 * 24 * 60 * 60 * 1000;
export const BROWSER_SESSION_MS = 12 * 60 * 60 * 1000;

export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

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
}

export function toUser(row: { id: string; email: string; name: string; role: User['role']; pin: string | null }): User {
  return { id: row.id, email: row.email, name: row.name, role: row.role, ...(row.pin ? { pin: row.pin } : {}) };
}

export async function login(db: Executor, input: LoginRequest, address: string, now = new Date()): Promise<LoginResult> {
  const failures = await repo.countRecentFailures(db, address, input.email, new Date(now.getTime() - FAILURE_WINDOW_MS));
  if (failures.byEmail >= MAX_FAILURES_PER_EMAIL || failures.byAddress >= MAX_FAILURES_PER_ADDRESS) {
    throw new HttpError(429, 'Too many failed sign-in attempts. Please wait 15 minutes and try again.');
  }

  const row = await findUserByEmail(db, input.email);
  const passwordOk = await verifyPassword(row?.passwordHash ?? (await getDummyHash()), input.password);
  if (!row || !passwordOk || row.disabledAt) {
    await repo.recordLoginFailure(db, address, input.email);
    throw new HttpError(401, INVALID_CREDENTIALS);
  }

  // The tab decides where the user lands, so it must match the account (DESIGN.md section 6.2).
  const accountTab = loginTabFor(row.role);
  if (accountTab !== input.role) {
    throw new HttpError(
      403,
      `This is a ${ROLE_LABEL[accountTab].toLowerCase()} account. Please use the ${ROLE_LABEL[accountTab]} tab to sign in.`,
    );
  }

  await repo.clearFailuresForEmail(db, input.email);
  const token = randomBytes(32).toString('base64url');
  const persistent = input.remember;
  const expiresAt = new Date(now.getTime() + (persistent ? REMEMBER_MS : BROWSER_SESSION_MS));
  await repo.insertSession(db, { id: hashToken(token), userId: row.id, expiresAt, persistent });
  return { user: toUser(row), token, expiresAt, persistent };
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

/** Expired sign-in sessions, those of disabled accounts and old failure records go now and then, not on every request. */
export async function sweep(db: Executor, now = new Date()): Promise<void> {
  await repo.deleteDeadSessions(db, now);
  await repo.deleteOldFailures(db, new Date(now.getTime() - FAILURE_WINDOW_MS));
}
