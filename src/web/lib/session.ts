import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CurrentUserResponseSchema, UserResponseSchema, type LoginRequest, type User } from '../../shared/schemas/auth';
import { api, ApiError, NoContentSchema } from './api-client';

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
 * with a 200 then (DESIGN.md section 5), so a signed-out page logs no failed request.
 */
export async function fetchMe({ signal }: { signal?: AbortSignal } = {}): Promise<User | null> {
  try {
    return (await api.get('/api/auth/me', CurrentUserResponseSchema, { signal })).user;
  } catch (err) {
    // Servers of an earlier release answer a signed-out visitor with 401.
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export function useMe() {
  return useQuery({ queryKey: meQueryKey, queryFn: ({ signal }) => fetchMe({ signal }), staleTime: 60_000, retry: 1 });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...authKey, 'login'],
    mutationFn: async (request: LoginRequest) => (await api.post('/api/auth/login', request, UserResponseSchema)).user,
    onSuccess: (user) => {
      // A new sign-in starts afresh: nothing fetched for an earlier user may be shown to this one.
      queryClient.removeQueries({ predicate: (query) => !isAuthKey(query.queryKey) });
      queryClient.setQueryData(meQueryKey, user);
    },
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...authKey, 'logout'],
    mutationFn: () => api.post('/api/auth/logout', undefined, NoContentSchema),
    onSettled: () => {
      // Nothing fetched for the previous user may be shown to the next one.
      queryClient.clear();
      queryClient.setQueryData(meQueryKey, null);
    },
  });
}
