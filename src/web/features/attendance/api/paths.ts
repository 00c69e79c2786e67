/**
 * The addresses of the class list's first answers, which the app's start also asks for, beside
 * the /dashboard page's code (app/page-chunks.ts). Kept apart from the queries so that the app's
 * entry imports no schema with them.
 */

/** GET /api/classes: the classes with their roster sizes and today's registers (get-classes.ts). */
export const CLASSES_PATH = '/api/classes';

/** GET /api/attendance/today: today in the portal's time zone (get-portal-today.ts). */
export const PORTAL_TODAY_PATH = '/api/attendance/today';
