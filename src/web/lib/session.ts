import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { api, NoContentSchema } from './api-client';
import { BRANDING_KEY } from './branding';
import { ApiError } from './http';
import { offlineStore } from './offline-store';
import { currentUser, type SignedInUser } from './sign-in';

/**
 * The sign-in session (the cookie) as the page knows it. Its queries and mutations sit under
 * `authKey`: a 401 from them is an answer (signed out, wrong password), not a sign-in session
 * that has ended, so the app's one 401 handler leaves them alone.
 */
export const authKey = ['auth'] as const;
export const meQueryKey = [...authKey, 'me'] as const;

export function isAuthKey(key: readonly unknown[] | undefined): boolean {
  return key?.[0] === authKey[0];
}

/**
 * The signed-in user, or null when nobody is signed in: GET /api/auth/me answers `{ user: null }`
 * with a 200 then, so a signed-out page logs no failed request. Asked with
 * the sign-in page's own call (sign-in.ts); `totpSetupRequired` when PORTAL_REQUIRE_TOTP holds the
 * session to the TOTP setup.
 */
export function useMe() {
  return useQuery({ queryKey: meQueryKey, queryFn: ({ signal }) => currentUserOrKept(signal), staleTime: 60_000, retry: 1 });
}

/** How long the device trusts the user it last saw signed in, while offline: the register's offline week. */
export const OFFLINE_SIGN_IN_MS = 7 * 24 * 60 * 60_000;
const KEPT_USER_KEY = 'portal:offline-user';

/**
 * Who is signed in, from the server; without a connection, the user this device last saw signed in
 * (in the last OFFLINE_SIGN_IN_MS), so that a faculty member can open the register offline. The
 * server still checks the cookie on every save: this only opens the pages.
 */
async function currentUserOrKept(signal?: AbortSignal): Promise<SignedInUser | null> {
  try {
    const user = await currentUser(signal);
    keepUser(user);
    return user;
  } catch (error) {
    const kept = error instanceof ApiError && error.status === 0 ? keptUser() : null;
    if (kept) return kept;
    throw error;
  }
}

/** Remembers who is signed in on this device, for opening the register offline (null: nobody). */
export function keepUser(user: SignedInUser | null): void {
  try {
    if (user) localStorage.setItem(KEPT_USER_KEY, JSON.stringify({ user, at: Date.now() }));
    else localStorage.removeItem(KEPT_USER_KEY);
  } catch {
    // Storage refused: no offline sign-in on this device.
  }
}

/** The user last seen signed in on this device, within OFFLINE_SIGN_IN_MS; null otherwise. */
export function keptUser(): SignedInUser | null {
  try {
    const text = localStorage.getItem(KEPT_USER_KEY);
    if (!text) return null;
    const { user, at } = JSON.parse(text) as { user?: SignedInUser; at?: number };
    if (!user || typeof user.id !== 'string' || typeof at !== 'number' || Date.now() - at > OFFLINE_SIGN_IN_MS) return null;
    return user;
  } catch {
    return null;
  }
}

/** A sign-out forgets the user kept for offline use and what the device kept for them. */
async function forgetOfflineUser(): Promise<void> {
  keepUser(null);
  await offlineStore()
    .forgetAnswers()
    .catch(() => undefined);
}

/**
 * Keeps a new sign-in in the session: nothing fetched for an earlier user may be shown to this
 * one. The sign-in page calls the API itself (sign-in.ts) and hands the user here.
 */
export function useSignedIn() {
  const queryClient = useQueryClient();
  return useCallback(
    (user: SignedInUser) => {
      queryClient.removeQueries({ predicate: (query) => !isAuthKey(query.queryKey) });
      queryClient.setQueryData(meQueryKey, user);
      keepUser(user);
    },
    [queryClient],
  );
}

/**
 * Set by a sign-out in this tab, until the login page opens. It sits outside `authKey`, so it goes
 * with everything else of the previous user (useForgetPreviousUser).
 */
const signedOutKey = ['signed-out'] as const;

/**
 * Signs out and goes to /login. The page that was open is not emptied here: it would ask for its
 * data again, without the cookie, and be refused. The guard takes it away as the user becomes
 * null (to /login, without a returnUrl: see useSignedOutHere), and the login page forgets it all.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationKey: [...authKey, 'logout'],
    // What the page is still asking is dropped first (the layout shows no page meanwhile): answers
    // arriving after the session has ended would be refusals, for a page that is leaving anyway.
    onMutate: () => queryClient.cancelQueries(),
    mutationFn: () => api.post('/api/auth/logout', undefined, NoContentSchema),
    onSettled: async () => {
      await forgetOfflineUser();
      queryClient.setQueryData(signedOutKey, true);
      queryClient.setQueryData(meQueryKey, null);
      await navigate('/login', { replace: true });
    },
  });
}

/**
 * Whether the user signed out in this tab (rather than their sign-in session ending): the guard
 * then sends them to /login without a returnUrl. Read when the user becomes null, which re-renders.
 */
export function useSignedOutHere(): boolean {
  return useQueryClient().getQueryData(signedOutKey) === true;
}

/**
 * Nothing fetched for, or typed by, a previous user may be shown to the next one: everything but
 * the sign-in state goes, and the university's branding stays (it is nobody's). For the login page,
 * where no other page is open to ask for it again.
 */
export function useForgetPreviousUser(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    queryClient.removeQueries({ predicate: (query) => !isAuthKey(query.queryKey) && query.queryKey[0] !== BRANDING_KEY });
    queryClient.getMutationCache().clear();
  }, [queryClient]);
}
