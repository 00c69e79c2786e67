import type { Role } from '../../../shared/constants';

/** Only paths inside the portal are followed, so a crafted link cannot send a user elsewhere. */
export function safeReturnUrl(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value.startsWith('/login')) return null;
  return value;
}

/** Where a user lands after signing in: a student on /faculty, faculty on /dashboard (SPEC). */
export function homeFor(role: Role): string {
  return role === 'student' ? '/faculty' : '/dashboard';
}
