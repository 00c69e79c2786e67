/**
 * Who may see what: the one statement of the portal's access rules. The server's route guards
 * and services enforce them; the web app uses the same functions to choose menus, guards and
 * landing pages, so the two can never disagree.
 */
import type { Role } from './constants';

/** The part of a signed-in account that the rules look at. */
export interface Viewer {
  role: Role;
  pin?: string | undefined;
}

type MaybeViewer = Viewer | null | undefined;

/** Staff are faculty and administrators: they take registers and see every student. */
export function isStaff(viewer: MaybeViewer): boolean {
  return !!viewer && viewer.role !== 'student';
}

export function isStudent(viewer: MaybeViewer): boolean {
  return viewer?.role === 'student';
}

/** Staff may see any student's record, profile and report; a student only their own PIN. */
export function canSeeStudent(viewer: Viewer, pin: string): boolean {
  return isStaff(viewer) || viewer.pin === pin;
}

export function isAdmin(viewer: MaybeViewer): boolean {
  return viewer?.role === 'admin';
}

/** Administration (accounts, classes, roster, terms, the audit trail) is for admins only. */
export const canAdminister = isAdmin;

/** Registers, reports, the contact inbox and reviewing profiles are for staff. */
export const canTakeRegisters = isStaff;
export const canManageProfiles = isStaff;
export const canReadInbox = isStaff;

/** Staff may edit or remove any profile; a student the profile on their own PIN. */
export function canEditProfile(viewer: Viewer, pin: string): boolean {
  return isStaff(viewer) || (isStudent(viewer) && viewer.pin === pin);
}

/** The login tab an account signs in on: an administrator uses the Faculty tab. */
export function loginTabFor(role: Role): 'faculty' | 'student' {
  return role === 'student' ? 'student' : 'faculty';
}

/**
 * Where a user lands after signing in, as in the original app: a student on /faculty, staff on
 * /dashboard.
 */
export function homePathFor(role: Role): string {
  return role === 'student' ? '/faculty' : '/dashboard';
}
