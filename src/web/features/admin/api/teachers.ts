import { useQuery } from '@tanstack/react-query';
import type { Role } from '../../../../shared/constants';
import { USERS_PAGE_MAX, type AdminUser } from '../../../../shared/schemas/admin-users';
import { fetchUsers, userKeys } from './users';

/** Who may teach a timetable slot: the accounts of these roles that are enabled. */
const TEACHING_ROLES: readonly Role[] = ['faculty', 'admin'];

/** GET /api/admin/users, page after page: every enabled faculty and admin account, by name. */
export async function fetchTeachers(signal?: AbortSignal): Promise<AdminUser[]> {
  const teachers: AdminUser[] = [];
  for (const role of TEACHING_ROLES) {
    for (let offset = 0; ; offset += USERS_PAGE_MAX) {
      const page = await fetchUsers({ role, limit: USERS_PAGE_MAX, offset }, signal);
      teachers.push(...page.users.filter((user) => !user.disabled));
      if (page.users.length === 0 || offset + page.users.length >= page.total) break;
    }
  }
  return teachers.sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
}

/** The teachers a timetable offers; under the accounts' key, so a change to an account refreshes it. */
export function useTeachers() {
  return useQuery({ queryKey: [...userKeys.all, 'teachers'], queryFn: ({ signal }) => fetchTeachers(signal) });
}
