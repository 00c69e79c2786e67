import { ROLES, type Role } from './constants';
import { isLanguage, type Language } from './languages';
import type { Branding } from './schemas/branding';
import type { CurrentUserResponseSchema, LoginResponse, SignInOptions, User } from './schemas/auth';
import type { z } from 'zod';

/**
 * The answers the sign-in page reads, checked without the schema library: the page everyone
 * loads first stays within its weight budget (decision 18). Each check accepts what its schema
 * in ./schemas accepts and gives the same value (unknown fields dropped); sign-in-answers.test.ts
 * holds them to the schemas. Every other answer is checked with the schemas themselves.
 */

type Checked<T> = { success: true; data: T } | { success: false; error: Error };

/** Thrown inside a check when a value is not what the contract says; turned into a failed check. */
class Mismatch extends Error {}

function fail(what: string): never {
  throw new Mismatch(`expected ${what}`);
}

function record(value: unknown, what: string): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : fail(what);
}

function text(value: unknown, what: string): string {
  return typeof value === 'string' ? value : fail(what);
}

function textOrNull(value: unknown, what: string): string | null {
  return value === null ? null : text(value, what);
}

function flag(value: unknown, what: string): boolean {
  return typeof value === 'boolean' ? value : fail(what);
}

function checker<T>(read: (value: unknown) => T) {
  return {
    safeParse(value: unknown): Checked<T> {
      try {
        return { success: true, data: read(value) };
      } catch (err) {
        if (err instanceof Mismatch) return { success: false, error: err };
        throw err;
      }
    },
  };
}

function language(value: unknown): Language {
  if (!isLanguage(value)) fail('a language');
  return value;
}

function readUser(value: unknown): User {
  const user = record(value, 'a user');
  const role = text(user.role, 'a role');
  if (!(ROLES as readonly string[]).includes(role)) fail('a role');
  return {
    id: text(user.id, 'an id'),
    email: text(user.email, 'an email'),
    name: text(user.name, 'a name'),
    role: role as Role,
    ...(user.pin === undefined ? {} : { pin: text(user.pin, 'a PIN') }),
    ...(user.language === undefined ? {} : { language: language(user.language) }),
  };
}

function withSetupFlag(answer: Record<string, unknown>): { totpSetupRequired?: boolean } {
  return answer.totpSetupRequired === undefined ? {} : { totpSetupRequired: flag(answer.totpSetupRequired, 'totpSetupRequired') };
}

/** GET /api/auth/me (CurrentUserResponseSchema). */
export const CurrentUserAnswer = checker((value): z.infer<typeof CurrentUserResponseSchema> => {
  const answer = record(value, 'an object');
  return { user: answer.user === null ? null : readUser(answer.user), ...withSetupFlag(answer) };
});

/** POST /api/auth/login (LoginResponseSchema): signed in, or the second step is next. */
export const LoginAnswer = checker((value): LoginResponse => {
  const answer = record(value, 'an object');
  // As the schema's union: signed in if that reads, else the second step if that does.
  try {
    return { user: readUser(answer.user), ...withSetupFlag(answer) };
  } catch (err) {
    if (err instanceof Mismatch && answer.totpRequired === true) return { totpRequired: true };
    throw err;
  }
});

/** POST /api/auth/totp/verify (SignedInResponseSchema). */
export const SignedInAnswer = checker((value): { user: User; totpSetupRequired?: boolean } => {
  const answer = record(value, 'an object');
  return { user: readUser(answer.user), ...withSetupFlag(answer) };
});

/** GET /api/auth/options (SignInOptionsSchema). */
export const SignInOptionsAnswer = checker((value): SignInOptions => {
  const answer = record(value, 'an object');
  const sso = answer.sso === null ? null : { name: text(record(answer.sso, 'sso').name, 'a name') };
  return { passwordLogin: flag(answer.passwordLogin, 'passwordLogin'), sso };
});

/** GET /api/branding (BrandingSchema). */
export const BrandingAnswer = checker((value): Branding => {
  const answer = record(value, 'an object');
  return { name: textOrNull(answer.name, 'a name'), color: textOrNull(answer.color, 'a colour'), logoUrl: textOrNull(answer.logoUrl, 'an address') };
});
