import { hash, verify } from '@node-rs/argon2';
import type { Role } from '../../../shared/constants';
import { EmailSchema, NewPasswordSchema, RoleSchema } from '../../../shared/schemas/auth';
import { PinSchema } from '../../../shared/schemas/common';
import type { Executor } from '../../db/client';
import { UserInputError } from '../../input-error';
import { isOnRoster } from '../roster/service';
import { COMMON_PASSWORD_MESSAGE, isStrongPassword } from './password-strength';
import * as repo from './repository';
import type { UserRow } from './repository';

export type { UserRow } from './repository';

/** argon2id with the library's defaults (19 MiB, 2 passes): OWASP's recommended minimum. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}

export interface AddUserInput {
  email: string;
  name: string;
  role: string;
  pin?: string | undefined;
  password: string;
}

function parseOrThrow<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } }, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new UserInputError(`${what}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  return result.data;
}

export async function addUser(db: Executor, input: AddUserInput): Promise<UserRow> {
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
    if (!input.pin) throw new UserInputError('A student account needs --pin, the student\'s roster PIN');
    pin = parseOrThrow(PinSchema, input.pin, 'PIN');
    if (!(await isOnRoster(db, pin))) throw new UserInputError(`PIN ${pin} is not on the roster`);
  } else if (input.pin) {
    throw new UserInputError('Only student accounts have a PIN');
  }
  const password = await checkNewPassword(input.password, [email, name]);
  if (await repo.findUserByEmail(db, email)) {
    throw new UserInputError(`An account with the email ${email} already exists`);
  }
  return repo.insertUser(db, { email, name, role, pin, passwordHash: await hashPassword(password) });
}

/** The rules for every password that is set: at least 10 characters, and not guessable. */
async function checkNewPassword(password: string, userInputs: string[]): Promise<string> {
  const valid = parseOrThrow(NewPasswordSchema, password, 'Password');
  if (!(await isStrongPassword(valid, userInputs))) throw new UserInputError(COMMON_PASSWORD_MESSAGE);
  return valid;
}

/**
 * Sets a new password. The caller ends the account's other sign-in sessions and cancels its
 * device cookies (the sign-in sessions' owner, `auth`, does that).
 */
export async function setPassword(db: Executor, email: string, password: string): Promise<UserRow> {
  const user = await repo.findUserByEmail(db, email);
  if (!user) throw new UserInputError(`No account with the email ${email}`);
  const valid = await checkNewPassword(password, [user.email, user.name]);
  await repo.updateUser(db, user.id, { passwordHash: await hashPassword(valid) });
  return user;
}

/**
 * Disables an account. Its sign-in sessions stop working at once, as a session is live only while
 * its account is enabled; the caller may also delete them (the sign-in sessions' owner does that).
 */
export async function disableUser(db: Executor, email: string): Promise<UserRow> {
  const user = await repo.findUserByEmail(db, email);
  if (!user) throw new UserInputError(`No account with the email ${email}`);
  await repo.updateUser(db, user.id, { disabledAt: new Date() });
  return user;
}

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return repo.findUserByEmail(db, email);
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
      await repo.updateUser(db, existing.id, { name: account.name });
      summary.updated += 1;
    } else {
      summary.unchanged += 1;
    }
  }
  return summary;
}
