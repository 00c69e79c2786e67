/**
 * The sign-in page's rules and words: the limits and messages of an email address and a password,
 * and why a single sign-on came back. Plain values and functions, because the sign-in page is the
 * first screen everyone loads and checks them without the schema library (its weight budget:
 * decision 18); the contract's schemas (schemas/auth.ts) are built from the same pattern, limits
 * and messages, so the page and the server never disagree.
 */

export const EMAIL_MESSAGE = 'Please enter a valid email address';
export const PASSWORD_MESSAGE = 'Password is required';
export const PASSWORD_TOO_LONG_MESSAGE = 'Passwords have at most 1024 characters';

/** The longest address a mail system delivers to. */
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MAX_LENGTH = 1024;

/**
 * A deliverable-looking address: dot-separated words of letters, digits and `_ ' + -` before the
 * `@`, then a domain of labels that neither start nor end with a hyphen and a top-level name of
 * at least two letters.
 */
export const EMAIL_PATTERN = /^[\w'+-]+(?:\.[\w'+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;

/** What is wrong with an email address as typed (surrounding spaces are ignored), or undefined. */
export function emailProblem(value: string): string | undefined {
  const email = value.trim();
  return email.length === 0 || email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email) ? EMAIL_MESSAGE : undefined;
}

/** What is wrong with a password given to sign in, or undefined. */
export function passwordProblem(value: string): string | undefined {
  if (value.length === 0) return PASSWORD_MESSAGE;
  return value.length > PASSWORD_MAX_LENGTH ? PASSWORD_TOO_LONG_MESSAGE : undefined;
}

/** Why a single sign-on came back to /login (`?sso=`), in the words the page shows. */
export const OIDC_ERROR_MESSAGES = {
  expired: 'That sign-in took too long or was already used. Please try again.',
  provider: 'The campus sign-in service cannot be reached right now. Please try again later.',
  unverified: 'Your campus account did not confirm your e-mail address, so the portal cannot tell who you are.',
  unknown: 'No account of this portal uses that e-mail address. Ask an administrator to add you.',
  disabled: 'This account is disabled. Ask an administrator.',
  'role-faculty': 'This is a faculty account. Please use the Faculty tab to sign in.',
  'role-student': 'This is a student account. Please use the Student tab to sign in.',
  failed: 'Single sign-on did not complete. Please try again.',
} as const;
export type OidcErrorReason = keyof typeof OIDC_ERROR_MESSAGES;
