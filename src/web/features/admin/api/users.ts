import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Role } from '../../../../shared/constants';
import { UsersPageSchema, type UsersPage } from '../../../../shared/schemas/admin-users';
import { api } from '../../../lib/api-client';

export const userKeys = {
  all: ['admin', 'users'] as const,
  list: (filter: UsersFilter) => [...userKeys.all, filter] as const,
};

export interface UsersFilter {
  role?: Role | undefined;
  q?: string | undefined;
  limit: number;
  offset: number;
}

/** GET /api/admin/users: one page of accounts matching the search, with the total. */
export function fetchUsers(filter: UsersFilter, signal?: AbortSignal): Promise<UsersPage> {
  const params = new URLSearchParams({ limit: String(filter.limit), offset: String(filter.offset) });
  if (filter.role) params.set('role', filter.role);
  if (filter.q) params.set('q', filter.q);
  return api.get(`/api/admin/users?${params.toString()}`, UsersPageSchema, { signal });
}

export function useUsers(filter: UsersFilter) {
  return useQuery({
    queryKey: userKeys.list(filter),
    queryFn: ({ signal }) => fetchUsers(filter, signal),
    // The table keeps its rows while the next page or search loads: nothing jumps.
    placeholderData: keepPreviousData,
  });
}
