import { hash, randomBytes } from 'node:crypto';
import { isStaff, loginTabFor } from '../../../shared/access';
import {
  INVALID_TOTP_MESSAGE,
  PENDING_SIGN_IN_MESSAGE,
  type OidcErrorReason,
  TOTP_PASSWORD_MESSAGE,
  TOTP_STAFF_REQUIRED_MESSAGE,
  type LoginRequest,
  type TotpStatus,
  type TotpVerifyRequest,
  type User,
} from '../../../shared/schemas/auth';
import type { Executor } from '../../db/client';
import { isUuid } from '../../db/ids';
import { FreshReads } from '../../db/fresh-reads';
import { badRequest, forbidden, HttpError, notFound, unauthorized } from '../../http-error';
import { actorOf, recordAudit } from '../audit/service';
import { bumpDataVersion, type DataVersions, SIGN_INS } from '../data-version/service';
import {
  deleteExpiredSetPasswordLinks,
  findUserByEmail,
  findUserById,
  findUserByOidcSubject,
  rememberOidcSubject,
  hashPassword,
  recordSignIn,
  setPasswordWithLink,
  verifyPassword,
} from '../accounts/service';
import { RecentMap } from '../../db/recent-map';
import * as repo from './repository';
import { matchTotp, newRecoveryCodes, newTotpSecret, normaliseRecoveryCode, otpauthUrl } from './totp';

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

/** A token's SHA-256, as stored: every signed-in request makes one (the one-shot `hash` costs a third of a `Hash` object). */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
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
  /** PORTAL_REQUIRE_TOTP holds this session to the TOTP setup until TOTP is on. */
  totpSetupRequired: boolean;
}

/** The password was right and the account has TOTP: the second step comes with this token's cookie. */
export interface TotpPendingResult {
  totpRequired: true;
  pendingToken: string;
  expiresAt: Date;
}

/** The `portal_pending` cookie of a sign-in waiting for its second step lasts five minutes. */
export const PENDING_COOKIE = 'portal_pending';
export const PENDING_MS = 5 * 60 * 1000;

/** Who must use TOTP: nobody (each account chooses) or staff (PORTAL_REQUIRE_TOTP=staff). */
export type TotpRequirement = 'off' | 'staff';

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
  requireTotp?: TotpRequirement;
}

/**
 * Signs in with e-mail and password. Each attempt is counted before the password is checked, in
 * one atomic step per key, so that forty attempts at once get at most the limit's worth of
 * answers; a success takes its count back.
 */
export async function login(db: Executor, input: LoginRequest, context: LoginContext): Promise<LoginResult | TotpPendingResult> {
  const { address, limits = DEFAULT_SIGN_IN_LIMITS, now = new Date() } = context;
  const email = input.email.toLowerCase();
  const row = await findUserByEmail(db, email);
  const device =
    row && context.deviceToken ? await repo.findLiveDevice(db, hashToken(context.deviceToken), row.id, now) : undefined;
  // The address first: a flood from one address stops there, before it writes a row per e-mail.
  // Every attempt takes its keys in this one order, so two never wait for each other crosswise.
  const keyed = attemptKeys(limits, address, email, device?.id);
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

  const totp = await repo.findTotp(db, row.id);
  if (totp?.enabledAt) {
    // The second step decides; until then there is no session, only a five-minute pending row.
    const pendingToken = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + PENDING_MS);
    await repo.insertPendingSignIn(db, { id: hashToken(pendingToken), userId: row.id, persistent: input.remember, expiresAt });
    return { totpRequired: true, pendingToken, expiresAt };
  }
  await repo.clearAttempts(db, device ? `device:${device.id}` : `email:${email}`);
  const totpSetupRequired = context.requireTotp === 'staff' && isStaff(toUser(row));
  return startSession(db, row, { persistent: input.remember, now, knownDevice: !!device, totpSetupRequired });
}

/** The keys a sign-in attempt counts under: the browser's device when it has signed in before, else the address and the e-mail. */
function attemptKeys(limits: SignInLimits, address: string, email: string, deviceId: string | undefined): [string, number][] {
  return deviceId
    ? [[`device:${deviceId}`, limits.perDevice]]
    : [
        [`address:${address}`, limits.perAddress],
        [`email:${email}`, limits.perEmail],
      ];
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

/**
 * The second step of a password sign-in (POST /api/auth/totp/verify): the pending cookie and a
 * code from the app (the current step or one either side, each step once) or an unused recovery
 * code. A wrong code counts toward the same limits as a wrong password.
 */
export async function verifyTotpSignIn(
  db: Executor,
  pendingToken: string | undefined,
  input: TotpVerifyRequest,
  context: LoginContext,
): Promise<LoginResult> {
  const { address, limits = DEFAULT_SIGN_IN_LIMITS, now = new Date() } = context;
  const pendingId = pendingToken ? hashToken(pendingToken) : undefined;
  const pending = pendingId ? await repo.findPendingSignIn(db, pendingId, now) : undefined;
  if (!pendingId || !pending) throw unauthorized(PENDING_SIGN_IN_MESSAGE);
  const email = pending.email.toLowerCase();
  const device = context.deviceToken ? await repo.findLiveDevice(db, hashToken(context.deviceToken), pending.userId, now) : undefined;
  const keyed = attemptKeys(limits, address, email, device?.id);
  if ((await repo.countAttempt(db, keyed, ATTEMPT_WINDOW_MS)) !== null) throw new HttpError(429, TOO_MANY_ATTEMPTS);

  const totp = await repo.findTotp(db, pending.userId);
  let ok = false;
  if (totp?.enabledAt && input.code !== undefined) {
    const step = matchTotp(totp.secret, input.code, now, totp.lastUsedStep);
    ok = step !== null && (await repo.claimTotpStep(db, pending.userId, step));
  } else if (totp?.enabledAt && input.recoveryCode !== undefined) {
    ok = await repo.useRecoveryCode(db, pending.userId, hashToken(normaliseRecoveryCode(input.recoveryCode)));
  }
  if (!ok) throw new HttpError(401, INVALID_TOTP_MESSAGE);

  await repo.uncountAttempt(db, keyed.map(([key]) => key));
  // The pending sign-in completes once, even if the right code arrives twice at the same moment.
  if (!(await repo.takePendingSignIn(db, pendingId))) throw unauthorized(PENDING_SIGN_IN_MESSAGE);
  await repo.clearAttempts(db, device ? `device:${device.id}` : `email:${email}`);
  const user = await findUserById(db, pending.userId);
  if (!user || user.disabledAt) throw unauthorized(PENDING_SIGN_IN_MESSAGE);
  return startSession(db, user, { persistent: pending.persistent, now, knownDevice: !!device, totpSetupRequired: false });
}

/**
 * Signs in the account a single sign-on names (DESIGN.md 7.9): found by the provider's `sub`, or
 * the first time by the verified e-mail, then tied to that `sub`. No account is created; a
 * disabled one is refused, and the role must fit the tab the sign-in began on. The provider owns
 * the second factor of a single sign-on, so TOTP does not apply.
 */
export async function signInWithOidc(
  db: Executor,
  identity: { subject: string; verifiedEmail: string | undefined },
  role: LoginRequest['role'],
  now = new Date(),
): Promise<LoginResult> {
  let row = await findUserByOidcSubject(db, identity.subject);
  if (!row) {
    if (!identity.verifiedEmail) throw new SsoRefusal('unverified');
    row = await findUserByEmail(db, identity.verifiedEmail);
    if (!row || (row.oidcSubject && row.oidcSubject !== identity.subject)) throw new SsoRefusal('unknown');
  }
  if (row.disabledAt) throw new SsoRefusal('disabled');
  const tab = loginTabFor(row.role);
  if (tab !== role) throw new SsoRefusal(tab === 'faculty' ? 'role-faculty' : 'role-student');
  if (!row.oidcSubject) await rememberOidcSubject(db, row.id, identity.subject);
  return startSession(db, row, { persistent: false, now, knownDevice: true, totpSetupRequired: false });
}

/** A single sign-on the portal refuses, with the reason the sign-in page puts in words. */
export class SsoRefusal extends Error {
  constructor(readonly reason: OidcErrorReason) {
    super(reason);
    this.name = 'SsoRefusal';
  }
}

/** Whether TOTP is on for the account, and whether this portal requires it of it. */
export async function totpStatus(db: Executor, user: User, requireTotp: TotpRequirement = 'off'): Promise<TotpStatus> {
  const totp = await repo.findTotp(db, user.id);
  const enabled = !!totp?.enabledAt;
  return {
    enabled,
    recoveryCodesLeft: enabled ? await repo.countUnusedRecoveryCodes(db, user.id) : 0,
    required: requireTotp === 'staff' && isStaff(user),
  };
}

/** Checks the account's current password, for changes to TOTP once it is on. */
async function checkPassword(db: Executor, userId: string, password: string | undefined): Promise<void> {
  const row = await findUserById(db, userId);
  const ok = !!row?.passwordHash && password !== undefined && (await verifyPassword(row.passwordHash, password));
  if (!ok) throw forbidden(TOTP_PASSWORD_MESSAGE);
}

/**
 * Starts setting TOTP up (or over): a new 160-bit secret, not in force until a code from the app
 * enables it. Once TOTP is on, doing this again needs the current password.
 */
export async function setUpTotp(db: Executor, user: User, password: string | undefined, issuer: string): Promise<{ secret: string; otpauthUrl: string }> {
  const existing = await repo.findTotp(db, user.id);
  if (existing?.enabledAt) await checkPassword(db, user.id, password);
  const secret = newTotpSecret();
  await repo.putTotpSecret(db, user.id, secret);
  return { secret, otpauthUrl: otpauthUrl(secret, issuer, user.email) };
}

/** Turns TOTP on with a first code from the app; answers the ten recovery codes, shown this once. */
export async function enableTotpWithCode(db: Executor, user: User, code: string, now = new Date()): Promise<string[]> {
  const pending = await repo.findTotp(db, user.id);
  if (!pending) throw badRequest('Start the setup first');
  const step = matchTotp(pending.secret, code, now, null);
  if (step === null) throw badRequest(INVALID_TOTP_MESSAGE);
  const codes = newRecoveryCodes();
  await db.transaction(async (tx) => {
    await repo.enableTotp(tx, user.id, step);
    await repo.replaceRecoveryCodes(tx, user.id, codes.map((c) => hashToken(normaliseRecoveryCode(c))));
    await repo.clearTotpSetupRequired(tx, user.id);
    await bumpDataVersion(tx, SIGN_INS);
  });
  return codes;
}

/** Turns TOTP off with the current password; not for staff where this portal requires it. */
export async function disableTotp(db: Executor, user: User, password: string, requireTotp: TotpRequirement = 'off'): Promise<void> {
  if (requireTotp === 'staff' && isStaff(user)) throw forbidden(TOTP_STAFF_REQUIRED_MESSAGE);
  await checkPassword(db, user.id, password);
  await repo.deleteTotp(db, user.id);
}

/** An administrator resets an account's TOTP (it lost its phone and its codes): audited. */
export async function resetTotp(db: Executor, admin: User, userId: string): Promise<void> {
  const target = isUuid(userId) ? await findUserById(db, userId) : undefined;
  if (!target) throw notFound('Account not found');
  await db.transaction(async (tx) => {
    await repo.deleteTotp(tx, userId);
    await recordAudit(tx, actorOf(admin), 'account.reset-totp', target.email);
  });
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
 * resolveSignIn for a whole server, without a database read for most requests (DESIGN.md 7.4):
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
  await bumpDataVersion(db, SIGN_INS);
}

/** Expired sign-in sessions, devices and set-password links, sessions of disabled accounts and old attempt counts go now and then. */
export async function sweep(db: Executor, now = new Date()): Promise<void> {
  await repo.deleteDeadSessions(db, now);
  await bumpDataVersion(db, SIGN_INS);
  await repo.deleteExpiredDevices(db, now);
  await repo.deleteOldAttempts(db, new Date(now.getTime() - ATTEMPT_WINDOW_MS));
  await deleteExpiredSetPasswordLinks(db, now);
  await repo.deleteExpiredPendingSignIns(db, now);
  await repo.deleteExpiredOidcLogins(db, now);
}
