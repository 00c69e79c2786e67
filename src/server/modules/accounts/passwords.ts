/** Passwords: how they are hashed and checked, the rules for a new one, and setting one outright. */
import { hash, verify } from '@node-rs/argon2';
import { NewPasswordSchema } from '../../../shared/schemas/auth';
import type { Executor } from '../../db/client';
import { parseOrThrow, UserInputError } from '../../input-error';
import { recordAudit, type Actor } from '../audit/service';
import { COMMON_PASSWORD_MESSAGE, isStrongPassword } from './password-strength';
import * as repo from './repository';
import type { UserRow } from './repository';

/** argon2id with the library's defaults (19 MiB, 2 passes): OWASP's recommended minimum. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}

/** The rules for every password that is set: at least 10 characters, and not guessable. */
export async function checkNewPassword(password: string, userInputs: string[]): Promise<string> {
  const valid = parseOrThrow(NewPasswordSchema, password, 'Password');
  if (!(await isStrongPassword(valid, userInputs))) throw new UserInputError(COMMON_PASSWORD_MESSAGE);
  return valid;
}

/**
 * Sets a new password. The caller ends the account's other sign-in sessions and cancels its
 * device cookies (the sign-in sessions' owner, `auth`, does that). With an actor (the CLI), the
 * change is recorded as a password reset.
 */
export async function setPassword(db: Executor, email: string, password: string, actor?: Actor): Promise<UserRow> {
  const user = await repo.findUserByEmail(db, email);
  if (!user) throw new UserInputError(`No account with the email ${email}`);
  const valid = await checkNewPassword(password, [user.email, user.name]);
  const passwordHash = await hashPassword(valid);
  await db.transaction(async (tx) => {
    await repo.updateUser(tx, user.id, { passwordHash });
    // A password set outright needs no link: any link the account had is cancelled.
    await repo.deleteSetPasswordTokenOf(tx, user.id);
    if (actor) await recordAudit(tx, actor, 'account.reset-password', user.email, { how: 'password set' });
  });
  return user;
}
