/**
 * Sign-in sessions: what a successful sign-in starts (the session cookie's token, stored only as its
 * hash, and a device cookie for a browser new to the account), how a request's cookie is resolved to
 * its account, and how sessions end.
 */
import { hash, randomBytes } from 'node:crypto';
import type { Language } from '../../../shared/languages';
import type { User } from '../../../shared/schemas/auth';
import type { Executor } from '../../db/client';
import { FreshReads } from '../../db/fresh-reads';
import { RecentMap } from '../../db/recent-map';
import { recordSignIn } from '../accounts/service';
import { bumpDataVersion, type DataVersions, SIGN_INS } from '../data-version/service';
import * as repo from './repository';

export const SESSION_COOKIE = 'portal_session';
/** Remember me keeps a sign-in session for 30 days; otherwise it ends with the browser, or after 12 hours. */
export const REMEMBER_MS = 30 * 24 * 60 * 60 * 1000;
export const BROWSER_SESSION_MS = 12 * 60 * 60 * 1000;

/** A browser that has signed in to an account is known by this cookie for a year. */
export const DEVICE_COOKIE = 'portal_device';
export const DEVICE_MS = 365 * 24 * 60 * 60 * 1000;

/** A token's SHA-256, as stored: every signed-in request makes one (the one-shot `hash` costs a third of a `Hash` object). */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export interface LoginResult {
  user: User;
  token: string;
  expiresAt: Date;
  persistent: boolean;
  /** A new device cookie to set, when this browser had none valid for the account. */
  deviceToken: string | null;
  /** PORTAL_REQUIRE_TOTP holds this session to the TOTP setup until TOTP is on. */
  totpSetupRequired: boolean;
}

export function toUser(row: { id: string; email: string; name: string; role: User['role']; pin: string | null; language?: Language | null }): User {
  return { id: row.id, email: row.email, name: row.name, role: row.role, ...(row.pin ? { pin: row.pin } : {}), ...(row.language ? { language: row.language } : {}) };
}

/** A new sign-in session, and a device cookie when this browser had none for the account. */
export async function startSession(
  db: Executor,
  row: Parameters<typeof toUser>[0],
  options: { persistent: boolean; now: Date; knownDevice: boolean; totpSetupRequired: boolean },
): Promise<LoginResult> {
  const { persistent, now, totpSetupRequired } = options;
  await recordSignIn(db, row.id, now);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + (persistent ? REMEMBER_MS : BROWSER_SESSION_MS));
  await repo.insertSession(db, { id: hashToken(token), userId: row.id, expiresAt, persistent, totpSetupRequired });
  let deviceToken: string | null = null;
  if (!options.knownDevice) {
    deviceToken = randomBytes(32).toString('base64url');
    await repo.insertDevice(db, { id: hashToken(deviceToken), userId: row.id, expiresAt: new Date(now.getTime() + DEVICE_MS) });
  }
  return { user: toUser(row), token, expiresAt, persistent, deviceToken, totpSetupRequired };
}

/** Writing last_seen_at on every request would turn every read into a write. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

export interface SignedIn {
  user: User;
  sessionId: string;
  /** PORTAL_REQUIRE_TOTP: the session reaches only the TOTP setup, `me` and sign-out. */
  totpSetupRequired: boolean;
}

/** The account signed in with this cookie token: null unless the sign-in session is live and the account enabled. */
export async function resolveSignIn(db: Executor, token: string, now = new Date()): Promise<SignedIn | null> {
  return (await readSession(db, hashToken(token), now))?.signedIn ?? null;
}

async function readSession(db: Executor, id: string, now: Date): Promise<{ signedIn: SignedIn; expiresAt: Date } | null> {
  const session = await repo.findLiveSession(db, id, now);
  if (!session) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) await repo.touchSession(db, id, now);
  return { signedIn: { user: toUser(session.user), sessionId: id, totpSetupRequired: session.totpSetupRequired }, expiresAt: session.expiresAt };
}

/** A live sign-in known to this process is read again after this long at the latest. */
const SIGN_IN_TRUST_MS = 5000;
/** How many live sign-ins a process keeps in memory; the oldest goes first. */
const SIGN_IN_ENTRIES = 20_000;

/**
 * resolveSignIn for a whole server, without a database read for most requests:
 * a live sign-in is kept in memory under the `sign-ins` data version, which every write that ends
 * a session or changes what it carries bumps (sign-out, password change, disabled account, role
 * or PIN change, TOTP switched on). So such a write takes effect at once in this process, at once
 * in the others when its announcement arrives, and within DataVersions' second if that is lost; a
 * kept sign-in is read again after five seconds whatever happens, and never used past its expiry.
 * Requests with the same cookie at the same moment share one read, never one that began before
 * they arrived. Unknown tokens are not remembered: guessing costs memory nothing.
 */
export function signInResolver(db: Executor, versions: DataVersions): (token: string) => Promise<SignedIn | null> {
  const kept = new RecentMap<string, { signedIn: SignedIn; expiresAt: number; version: number; readAt: number }>(SIGN_IN_ENTRIES);
  const reads = new FreshReads<string, SignedIn | null>(async (id) => {
    // The version first: what is read after it is at least as new.
    const version = await versions.current(SIGN_INS);
    const now = new Date();
    const session = await readSession(db, id, now);
    if (session) kept.set(id, { signedIn: session.signedIn, expiresAt: session.expiresAt.getTime(), version, readAt: now.getTime() });
    else kept.delete(id);
    return session?.signedIn ?? null;
  });
  return async (token) => {
    const id = hashToken(token);
    const version = await versions.current(SIGN_INS);
    const entry = kept.get(id);
    const now = Date.now();
    if (entry && entry.version === version && now - entry.readAt < SIGN_IN_TRUST_MS && now < entry.expiresAt) return entry.signedIn;
    return reads.get(id);
  };
}

export async function signOut(db: Executor, sessionId: string): Promise<void> {
  await repo.deleteSession(db, sessionId);
  await bumpDataVersion(db, SIGN_INS);
}

/** Ends every sign-in session of an account, on every device. */
export async function endAllSignIns(db: Executor, userId: string): Promise<void> {
  await repo.deleteSessionsOfUser(db, userId);
  await bumpDataVersion(db, SIGN_INS);
}

/** Ends every sign-in session of an account but the one kept: after its role changes. */
export async function endOtherSignIns(db: Executor, userId: string, keepSessionId?: string): Promise<void> {
  await repo.deleteSessionsOfUser(db, userId, keepSessionId);
  await bumpDataVersion(db, SIGN_INS);
}

/**
 * After a password change or reset: every sign-in session ends but the caller's own (if any), and
 * the account's device cookies are cancelled, so an attacker's browser is no longer trusted.
 */
export async function afterPasswordChange(db: Executor, userId: string, keepSessionId?: string): Promise<void> {
  await repo.deleteSessionsOfUser(db, userId, keepSessionId);
  await repo.deleteDevicesOfUser(db, userId);
  await bumpDataVersion(db, SIGN_INS);
}
