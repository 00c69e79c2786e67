import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginRequest, User } from '../../shared/schemas/auth';
import { ApiError, apiRequest } from './api-client';

export const meQueryKey = ['auth', 'me'] as const;

/** The signed-in user, or null when nobody is signed in. */
export async function fetchMe(): Promise<User | null> {
  try {
    const { user } = await apiRequest<{ user: User }>('/api/auth/me');
    return user;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export function useMe() {
  return useQuery({ queryKey: meQueryKey, queryFn: fetchMe, staleTime: 60_000, retry: 1 });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: LoginRequest) =>
      apiRequest<{ user: User }>('/api/auth/login', { method: 'POST', body: request }).then((r) => r.user),
    onSuccess: (user) => queryClient.setQueryData(meQueryKey, user),
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<void>('/api/auth/logout', { method: 'POST' }),
    onSettled: () => {
      // Nothing fetched for the previous user may be shown to the next one.
      queryClient.clear();
      queryClient.setQueryData(meQueryKey, null);
    },
  });
}
