/** Business constants, as the original app had them (the rules they set: docs/product.md). */
/**
 * The classes a new database starts with (migration 0001 seeds them; the demo data fills them).
 * Only a default: the portal's classes are the rows of the classes table, which admins add,
 * rename, reorder and archive at /admin/classes. Nothing else should read this list.
 */
export const CLASS_NAMES = ['CSE1', 'CSE2', 'CSE3', 'CSE4', 'CSE5', 'CSE6', 'CSE7', 'CSE8'] as const;

export const ROLES = ['faculty', 'student', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The login tabs: an admin signs in on the Faculty tab. */
export const LOGIN_ROLES = ['faculty', 'student'] as const;
export type LoginRole = (typeof LOGIN_ROLES)[number];

export const ATTENDANCE_THRESHOLD = 75;
export const WARNING_BAND_FROM = 50;
export const ABSENT_DANGER_FROM = 25;
export const ABSENT_WARNING_FROM = 10;
export const WEEKLY_WINDOW_DAYS = 7;
export const MONTHLY_WINDOW_DAYS = 30;
export const MESSAGE_DISPLAY_MS = 3000;

export const PORTAL_NAME = 'University Portal';
