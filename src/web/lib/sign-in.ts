import { useEffect, useState } from 'react';
import type { LoginRequest, TotpVerifyRequest, User } from '../../shared/schemas/auth';
import { CurrentUserAnswer, LoginAnswer, SignedInAnswer } from '../../shared/sign-in-answers';
import { ApiError, request, type AnswerCheck } from './http';

/**
 * Signing in and asking who is signed in. The sign-in page is the first screen everyone loads, so
 * these calls need neither the app's query cache nor the schema library (its weight budget:
 * decision 18): answers are checked with the plain checks of shared/sign-in-answers.ts, which equal
 * the contract's schemas. The app's session (session.ts) asks who is signed in with the same call.
 */

/** A signed-in user, with `totpSetupRequired` when the portal holds the session until TOTP is on. */
export type SignedInUser = User & { totpSetupRequired?: boolean };

function signedIn(answer: { user: User; totpSetupRequired?: boolean }): SignedInUser {
  return answer.totpSetupRequired ? { ...answer.user, totpSetupRequired: true } : answer.user;
}

/** Null when the password was right but a second step (TOTP) must follow. */
export async function signIn(body: LoginRequest): Promise<SignedInUser | null> {
  const answer = await request('POST', '/api/auth/login', body, LoginAnswer);
  return 'totpRequired' in answer ? null : signedIn(answer);
}

/** The second step of a sign-in: a code from the app or a recovery code. */
export async function verifyTotp(body: TotpVerifyRequest): Promise<SignedInUser> {
  return signedIn(await request('POST', '/api/auth/totp/verify', body, SignedInAnswer));
}

/** Who is signed in already, or null; GET /api/auth/me answers a signed-out visitor with `{ user: null }`. */
export async function currentUser(signal?: AbortSignal): Promise<SignedInUser | null> {
  try {
    const answer = await request('GET', '/api/auth/me', undefined, CurrentUserAnswer, { signal });
    return answer.user ? signedIn({ ...answer, user: answer.user }) : null;
  } catch (err) {
    // Servers of an earlier release answer a signed-out visitor with 401.
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

/** The answers useAnswer has had in this page load, by path: they do not change while it is open. */
const answered = new Map<string, unknown>();

/**
 * An answer the page shows but can do without (the sign-in options, the branding): undefined
 * until it arrives, and if it fails, so the page shows its defaults. Asked once per page load:
 * the sign-in page shown again (after a sign-out) shows the answer it had.
 */
export function useAnswer<T>(path: string, check: AnswerCheck<T>): T | undefined {
  const [data, setData] = useState(() => answered.get(path) as T | undefined);
  useEffect(() => {
    if (answered.has(path)) return;
    const controller = new AbortController();
    request('GET', path, undefined, check, { signal: controller.signal }).then(
      (answer) => {
        answered.set(path, answer);
        setData(answer);
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [path, check]);
  return data;
}

/**
 * Who is signed in, once known (null: nobody); undefined while asking or if the server cannot say.
 * Not asked when `ask` is false (the app knows already).
 */
export function useCurrentUser(ask = true): SignedInUser | null | undefined {
  const [user, setUser] = useState<SignedInUser | null>();
  useEffect(() => {
    if (!ask) return;
    const controller = new AbortController();
    currentUser(controller.signal).then(setUser, () => undefined);
    return () => controller.abort();
  }, [ask]);
  return user;
}
