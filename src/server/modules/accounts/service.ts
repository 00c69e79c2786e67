import type { Language } from '../../../shared/languages';
import type { Role } from '../../../shared/constants';
import {
  DISABLED_RESET_MESSAGE,
  LAST_ADMIN_MESSAGE,
  STUDENT_NEEDS_PIN_MESSAGE,
  type AdminUser,
  type CreateUserInput,
  type CreatedUser,
  type SetPasswordLink,
  type SetPasswordMail,
  type UpdateUserInput,
  type UsersPage,
  type UsersQuery,
} from '../../../shared/schemas/admin-users';
import { EmailSchema, RoleSchema } from '../../../shared/schemas/auth';
import { PinSchema } from '../../../shared/schemas/common';
import type { Executor } from '../../db/client';
import { isUuid } from '../../db/ids';
import { isUniqueViolation } from '../../db/errors';
import { badRequest, conflict, notFound } from '../../http-error';
import { parseOrThrow, UserInputError } from '../../input-error';
import { actorOf, recordAudit, type Actor } from '../audit/service';
import { bumpDataVersion, SIGN_INS } from '../data-version/service';
import { latestMailOf, type MailState } from '../mail/service';
import { isOnRoster } from '../roster/service';
import type { LinkDelivery } from './set-password-mail';
import { checkNewPassword, hashPassword } from './passwords';
import * as repo from './repository';
import type { UserRow } from './repository';
import { cancelSetPasswordMail, issueSetPasswordToken, queueSetPasswordMail, setPasswordMailTopic, setPasswordUrl } from './set-password-links';

export type { UserRow } from './repository';
// Passwords and set-password links have files of their own; other modules reach them here.
export { hashPassword, setPassword, verifyPassword } from './passwords';
export { deleteExpiredSetPasswordLinks, setPasswordWithLink } from './set-password-links';

export interface AddUserInput {
  email: string;
  name: string;
  role: string;
  pin?: string | undefined;
  password: string;
}

interface NewAccount {
  email: string;
  name: string;
  role: Role;
  pin: string | null;
}

/**
 * The rules for every new account, from the CLI or the admin pages: a valid e-mail and name, a
 * known role, and a PIN exactly when the account is a student's, that PIN on the roster.
 */
async function checkNewAccount(
  db: Executor,
  input: { email: string; name: string; role: string; pin?: string | undefined },
  /** How the PIN is asked for where the input comes from. */
  missingPin = "A student account needs --pin, the student's roster PIN",
): Promise<NewAccount> {
  const email = parseOrThrow(EmailSchema, input.email, 'Email');
  const roleResult = RoleSchema.safeParse(input.role);
  if (!roleResult.success) {
    throw new UserInputError(`Role must be faculty, student or admin, not "${input.role}"`);
  }
  const role: Role = roleResult.data;
  const name = input.name.trim();
  if (!name) throw new UserInputError('Name is required');
  if (name.length > 200) throw new UserInputError('Name: at most 200 characters');
  let pin: string | null = null;
  if (role === 'student') {
    if (!input.pin) throw new UserInputError(missingPin);
    pin = parseOrThrow(PinSchema, input.pin, 'PIN');
    if (!(await isOnRoster(db, pin))) throw new UserInputError(`PIN ${pin} is not on the roster`);
  } else if (input.pin) {
    throw new UserInputError('Only student accounts have a PIN');
  }
  return { email, name, role, pin };
}

const duplicateMessage = (email: string) => `An account with the email ${email} already exists`;

function createdDetail(account: NewAccount): Record<string, unknown> {
  return { name: account.name, role: account.role, ...(account.pin ? { pin: account.pin } : {}) };
}

/**
 * Adds an account with a password (the `portal` CLI, demo data, tests). With an actor, the
 * account's creation is recorded in the audit trail in the same transaction.
 */
export async function addUser(db: Executor, input: AddUserInput, actor?: Actor): Promise<UserRow> {
  const account = await checkNewAccount(db, input);
  const password = await checkNewPassword(input.password, [account.email, account.name]);
  if (await repo.findUserByEmail(db, account.email)) throw new UserInputError(duplicateMessage(account.email));
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const user = await repo.insertUser(tx, { ...account, passwordHash });
    if (actor) await recordAudit(tx, actor, 'account.create', user.email, createdDetail(account));
    return user;
  });
}

/**
 * Disables an account. Its sign-in sessions stop working at once, as a session is live only while
 * its account is enabled; the caller may also delete them (the sign-in sessions' owner does that).
 * The last enabled admin is not disabled.
 */
export async function disableUser(db: Executor, email: string, actor?: Actor): Promise<UserRow> {
  const found = await repo.findUserByEmail(db, email);
  if (!found) throw new UserInputError(`No account with the email ${email}`);
  return db.transaction(async (tx) => {
    const admins = await lockAdmins(tx);
    const user = await lockAccount(tx, found.id);
    if (user.disabledAt) return user;
    if (user.role === 'admin') assertAnotherAdmin(admins, user.id);
    await changeAccount(tx, user.id, { disabledAt: new Date() });
    await cancelSetPasswordMail(tx, user.id);
    if (actor) await recordAudit(tx, actor, 'account.disable', user.email);
    return user;
  });
}

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return repo.findUserByEmail(db, email);
}

export function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return repo.findUserById(db, id);
}

/** The ids among these of enabled faculty and admin accounts, kept so until the caller's transaction ends. */
export async function lockActiveStaff(db: Executor, ids: readonly string[]): Promise<Set<string>> {
  return new Set(await repo.lockActiveStaff(db, ids));
}

export function listUsers(db: Executor): Promise<UserRow[]> {
  return repo.listUsers(db);
}

export function hasAnyUser(db: Executor): Promise<boolean> {
  return repo.hasAnyUser(db);
}

export interface StudentAccountsSummary {
  created: number;
  updated: number;
  unchanged: number;
}

/**
 * Creates or updates a student account, without a password, for each roster student given with
 * an e-mail (a roster import's `email` column): the student signs in through single sign-on or a
 * set-password link. An e-mail that belongs to a staff account, or to a student account on
 * another PIN, is refused.
 */
export async function upsertStudentAccounts(
  db: Executor,
  accounts: { pin: string; name: string; email: string }[],
): Promise<StudentAccountsSummary> {
  const summary: StudentAccountsSummary = { created: 0, updated: 0, unchanged: 0 };
  for (const account of accounts) {
    const existing = await repo.findUserByEmail(db, account.email);
    if (!existing) {
      await repo.insertUser(db, { email: account.email, name: account.name, role: 'student', pin: account.pin, passwordHash: null });
      summary.created += 1;
    } else if (existing.role !== 'student') {
      throw new UserInputError(`${account.email} belongs to a ${existing.role} account, not a student's: nothing was imported`);
    } else if (existing.pin !== account.pin) {
      // Moving a sign-in to another PIN would hand that student's record to this account.
      throw new UserInputError(
        `${account.email} is the account of PIN ${existing.pin ?? 'none'}, not ${account.pin}: nothing was imported`,
      );
    } else if (existing.name !== account.name) {
      await changeAccount(db, existing.id, { name: account.name });
      summary.updated += 1;
    } else {
      summary.unchanged += 1;
    }
  }
  return summary;
}

/**
 * Changes what the account's sign-in sessions carry (its name, role, PIN, or that it is enabled):
 * the sign-ins data version is bumped, so that no process answers with the old account (decision 28).
 */
async function changeAccount(db: Executor, userId: string, changes: Parameters<typeof repo.updateUser>[2]): Promise<void> {
  await repo.updateUser(db, userId, changes);
  await bumpDataVersion(db, SIGN_INS);
}

/** Sets when the account last signed in (at every successful sign-in). */
export function recordSignIn(db: Executor, userId: string, at: Date): Promise<void> {
  return repo.updateUser(db, userId, { lastSignInAt: at });
}

/** Keeps the language the account chose (null: its browser's); its sign-ins read it again at once, in every process. */
export async function setUserLanguage(db: Executor, userId: string, language: Language | null): Promise<void> {
  await repo.updateUser(db, userId, { language });
  await bumpDataVersion(db, SIGN_INS);
}

/** The account a single sign-on's `sub` belongs to, once it has signed in that way. */
export function findUserByOidcSubject(db: Executor, subject: string): Promise<UserRow | undefined> {
  return repo.findUserByOidcSubject(db, subject);
}

/** Ties the account to the identity provider's `sub` at its first single sign-on: matched on it from then on. */
export function rememberOidcSubject(db: Executor, userId: string, subject: string): Promise<void> {
  return repo.updateUser(db, userId, { oidcSubject: subject });
}

// ---------------------------------------------------------------------------------------------
// Administration in the browser (decision 12)

const EMAIL_CONSTRAINT = 'users_email_lower_key';
const ACCOUNT_NOT_FOUND = 'No such account';

function toSetPasswordMail(mail: MailState | undefined): SetPasswordMail | null {
  if (!mail) return null;
  return {
    state: mail.state,
    queuedAt: mail.queuedAt.toISOString(),
    sentAt: mail.sentAt?.toISOString() ?? null,
    attempts: mail.attempts,
    lastError: mail.lastError,
    nextAttemptAt: mail.nextAttemptAt?.toISOString() ?? null,
  };
}

/** The accounts as the API gives them, each with its newest set-password e-mail. */
async function withMailOf(db: Executor, rows: UserRow[]): Promise<AdminUser[]> {
  const mail = await latestMailOf(db, rows.map((row) => setPasswordMailTopic(row.id)));
  return rows.map((row) => toAdminUser(row, mail.get(setPasswordMailTopic(row.id))));
}

/** One account as the API gives it, with its newest set-password e-mail. */
async function adminUserOf(db: Executor, row: UserRow): Promise<AdminUser> {
  const topic = setPasswordMailTopic(row.id);
  return toAdminUser(row, (await latestMailOf(db, [topic])).get(topic));
}

/** The mapper from a row to the API: the password hash never leaves this module. */
export function toAdminUser(row: UserRow, setPasswordMail?: MailState): AdminUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    pin: row.pin,
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    disabled: row.disabledAt !== null,
    hasPassword: row.passwordHash !== null,
    createdAt: row.createdAt.toISOString(),
    setPasswordMail: toSetPasswordMail(setPasswordMail),
  };
}

/** Ends an account's sign-in sessions but the one kept; given by the caller (auth owns sessions). */
export type EndSignIns = (db: Executor, userId: string, keepSessionId?: string) => Promise<void>;

/** The signed-in admin who acts. */
export interface SignedInAdmin {
  id: string;
  email: string;
}

/** What an admin's change needs besides its input: who acts, from which sign-in session. */
export interface AdminContext {
  admin: SignedInAdmin;
  /** The admin's own sign-in session: a change to their own role does not sign them out. */
  sessionId?: string | undefined;
  endSignIns: EndSignIns;
}

export async function listAccounts(db: Executor, query: UsersQuery): Promise<UsersPage> {
  const { rows, total } = await repo.searchUsers(db, {
    role: query.role,
    q: query.q || undefined,
    limit: query.limit,
    offset: query.offset,
  });
  return { users: await withMailOf(db, rows), total, limit: query.limit, offset: query.offset };
}

async function findAccount(db: Executor, id: string): Promise<UserRow> {
  const row = isUuid(id) ? await repo.findUserById(db, id) : undefined;
  if (!row) throw notFound(ACCOUNT_NOT_FOUND);
  return row;
}

async function lockAccount(db: Executor, id: string): Promise<UserRow> {
  const row = isUuid(id) ? await repo.lockUser(db, id) : undefined;
  if (!row) throw notFound(ACCOUNT_NOT_FOUND);
  return row;
}

/**
 * Locks the enabled admins' rows, always before the changed account's own row, so that two
 * admins changing each other at once wait in one order instead of deadlocking.
 */
function lockAdmins(tx: Executor): Promise<string[]> {
  return repo.lockEnabledAdmins(tx);
}

/** Refuses to take away the last enabled admin (the admins locked by `lockAdmins`). */
function assertAnotherAdmin(admins: string[], userId: string): void {
  if (!admins.some((id) => id !== userId)) throw conflict(LAST_ADMIN_MESSAGE);
}

/**
 * Adds an account without a password (the admin pages) and makes its set-password link, valid
 * 72 hours. The same rules as the CLI's; a taken e-mail is a conflict (409).
 */
export async function createAccount(
  db: Executor,
  admin: SignedInAdmin,
  input: CreateUserInput,
  delivery: LinkDelivery,
  now = new Date(),
): Promise<CreatedUser> {
  if (await repo.findUserByEmail(db, input.email)) throw conflict(duplicateMessage(input.email));
  let account: NewAccount;
  try {
    account = await checkNewAccount(db, input, "A student account needs the student's roster PIN");
  } catch (error) {
    if (error instanceof UserInputError) throw badRequest(error.message);
    throw error;
  }
  try {
    // The account, its link and the link's e-mail: all of it, or nothing.
    return await db.transaction(async (tx) => {
      const user = await repo.insertUser(tx, { ...account, passwordHash: null });
      const { token, expiresAt } = await issueSetPasswordToken(tx, user.id, now);
      const url = setPasswordUrl(delivery.baseUrl, token);
      await queueSetPasswordMail(tx, delivery, user, { url, expiresAt }, 'new');
      await recordAudit(tx, actorOf(admin), 'account.create', user.email, createdDetail(account));
      return { user: await adminUserOf(tx, user), setPasswordUrl: url, emailed: delivery.email };
    });
  } catch (error) {
    // Two admins adding the same e-mail at once: the index has the last word.
    if (isUniqueViolation(error, EMAIL_CONSTRAINT)) throw conflict(duplicateMessage(input.email));
    throw error;
  }
}

/**
 * Changes an account's name, role or state. Disabling ends its sign-in sessions at once; a role
 * change ends its other sessions (the admin's own stays). The last enabled admin is neither
 * disabled nor demoted (409). Only an account with a PIN becomes a student; a student made staff
 * keeps the PIN on the account, so that a change back is the same student again (staff access
 * does not depend on it). Each action is one audit entry.
 */
export async function updateAccount(
  db: Executor,
  context: AdminContext,
  id: string,
  input: UpdateUserInput,
  now = new Date(),
): Promise<AdminUser> {
  return db.transaction(async (tx) => {
    const admins = input.role !== undefined || input.disabled === true ? await lockAdmins(tx) : [];
    const before = await lockAccount(tx, id);
    const roleChanges = input.role !== undefined && input.role !== before.role;
    const nameChanges = input.name !== undefined && input.name !== before.name;
    const disables = input.disabled === true && before.disabledAt === null;
    const enables = input.disabled === false && before.disabledAt !== null;
    if (roleChanges && input.role === 'student' && !before.pin) throw badRequest(STUDENT_NEEDS_PIN_MESSAGE);
    if (before.role === 'admin' && before.disabledAt === null && (disables || roleChanges)) {
      assertAnotherAdmin(admins, before.id);
    }

    const changes: Parameters<typeof repo.updateUser>[2] = {};
    const detail: Record<string, { from: string; to: string }> = {};
    if (nameChanges && input.name !== undefined) {
      changes.name = input.name;
      detail.name = { from: before.name, to: input.name };
    }
    if (roleChanges && input.role !== undefined) {
      changes.role = input.role;
      detail.role = { from: before.role, to: input.role };
    }
    if (disables) changes.disabledAt = now;
    if (enables) changes.disabledAt = null;
    if (Object.keys(changes).length === 0) return adminUserOf(tx, before);

    await changeAccount(tx, before.id, changes);
    if (nameChanges || roleChanges) await recordAudit(tx, actorOf(context.admin), 'account.update', before.email, detail);
    if (disables) {
      await cancelSetPasswordMail(tx, before.id);
      await recordAudit(tx, actorOf(context.admin), 'account.disable', before.email);
      await context.endSignIns(tx, before.id);
    } else if (roleChanges) {
      await context.endSignIns(tx, before.id, context.sessionId);
    }
    if (enables) await recordAudit(tx, actorOf(context.admin), 'account.enable', before.email);
    return adminUserOf(tx, await findAccount(tx, before.id));
  });
}

/**
 * A new set-password link for the account, cancelling the one it had. The current password keeps
 * working until the link is used (disable the account to stop it at once).
 */
export async function resetAccountPassword(
  db: Executor,
  admin: SignedInAdmin,
  id: string,
  delivery: LinkDelivery,
  now = new Date(),
): Promise<SetPasswordLink> {
  return db.transaction(async (tx) => {
    const row = await lockAccount(tx, id);
    if (row.disabledAt) throw conflict(DISABLED_RESET_MESSAGE);
    const { token, expiresAt } = await issueSetPasswordToken(tx, row.id, now);
    const url = setPasswordUrl(delivery.baseUrl, token);
    await queueSetPasswordMail(tx, delivery, row, { url, expiresAt }, 'reset');
    await recordAudit(tx, actorOf(admin), 'account.reset-password', row.email, { how: 'set-password link' });
    return { setPasswordUrl: url, emailed: delivery.email };
  });
}
