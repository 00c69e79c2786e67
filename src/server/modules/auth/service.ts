import { randomBytes } from 'node:crypto';
import type { Language } from '../../../shared/languages';
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
import { badRequest, forbidden, HttpError, notFound, unauthorized } from '../../http-error';
import { UserInputError } from '../../input-error';
import { actorOf, recordAudit, type Actor } from '../audit/service';
import { bumpDataVersion, SIGN_INS } from '../data-version/service';
import {
  deleteExpiredSetPasswordLinks,
  findUserByEmail,
  findUserById,
  findUserByOidcSubject,
  rememberOidcSubject,
  setUserLanguage,
  hashPassword,
  setPasswordWithLink,
  verifyPassword,
} from '../accounts/service';
import * as repo from './repository';
import { afterPasswordChange, hashToken, type LoginResult, startSession, toUser } from './sessions';
import { matchTotp, newRecoveryCodes, newTotpSecret, normaliseRecoveryCode, otpauthUrl } from './totp';

// Sign-in sessions have a file of their own; the routes, the app and other modules reach them here.
export {
  afterPasswordChange,
  BROWSER_SESSION_MS,
  DEVICE_COOKIE,
  DEVICE_MS,
  endAllSignIns,
  endOtherSignIns,
  hashToken,
  type LoginResult,
  REMEMBER_MS,
  resolveSignIn,
  SESSION_COOKIE,
  type SignedIn,
  signInResolver,
  signOut,
  startSession,
  toUser,
} from './sessions';

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

/** Verified against when the email is unknown, so that both failures cost the same work. */
let dummyHash: Promise<string> | undefined;
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

const ROLE_LABEL = { faculty: 'Faculty', student: 'Student' } as const;

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
  // The tab decides where the user lands, so it must match the account.
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
 * Signs in the account a single sign-on names (decision 17): found by the provider's `sub`, or
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
 * Ends sign-ins from the command line (`portal sessions revoke`): every account's, or the one
 * account's; audited, and at once in every server process. Returns how many sessions ended, and the account's e-mail as stored.
 */
export async function revokeSignIns(
  db: Executor,
  actor: Actor,
  target: { all: true } | { email: string },
): Promise<{ sessions: number; email?: string }> {
  const user = 'email' in target ? await findUserByEmail(db, target.email) : undefined;
  if ('email' in target && !user) throw new UserInputError(`No account with the email ${target.email}`);
  return db.transaction(async (tx) => {
    const sessions = await repo.deleteSignIns(tx, user?.id);
    await bumpDataVersion(tx, SIGN_INS);
    await recordAudit(tx, actor, 'sessions.revoke', user ? user.email : 'every account', { sessions });
    return user ? { sessions, email: user.email } : { sessions };
  });
}

/**
 * Clears an account's sign-in failures (`portal user unlock`): its e-mail's count and those of the
 * browsers that signed in to it, so that it can sign in again at once. Audited when it had any.
 * Returns the failures that counted against it.
 */
export async function unlockAccount(db: Executor, actor: Actor, email: string): Promise<{ email: string; failures: number }> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new UserInputError(`No account with the email ${email}`);
  return db.transaction(async (tx) => {
    const failures = await repo.deleteAttemptsOfAccount(tx, user.email, user.id, ATTEMPT_WINDOW_MS);
    if (failures > 0) await recordAudit(tx, actor, 'account.unlock', user.email, { failures });
    return { email: user.email, failures };
  });
}

/** The signed-in account's language for the portal and its e-mails (null: the browser's). */
export async function chooseLanguage(db: Executor, user: User, language: Language | null): Promise<User> {
  await setUserLanguage(db, user.id, language);
  const { language: _previous, ...rest } = user;
  return language ? { ...rest, language } : rest;
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
