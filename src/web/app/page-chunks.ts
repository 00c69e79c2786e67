import type { ComponentType } from 'react';
import { DASHBOARD_PATH } from '../features/reports/api/paths';
import { askEarly } from '../lib/http';

type PageChunk = () => Promise<{ default: ComponentType }>;

/**
 * The chunk of each address's page, by the address's first segment: the router's routes load
 * them (router.tsx), and the app's start asks for the one it opens on beside the app's own code
 * (open-app.tsx), not after it: on a slow phone that is a round trip less before the page shows.
 */
export const pageChunks = {
  'set-password': () => import('../features/auth/pages/set-password-page'),
  register: () => import('../features/students/pages/register-page'),
  'contact-us': () => import('../features/contact/pages/contact-page'),
  success: () => import('../features/attendance/pages/success-page'),
  faculty: () => import('../features/students/pages/student-search-page'),
  student: () => import('../features/students/pages/student-search-page'),
  welcome: () => import('../features/students/pages/welcome-page'),
  account: () => import('../features/account/pages/account-page'),
  dashboard: () => import('../features/attendance/pages/dashboard-page'),
  attendance: () => import('../features/attendance/pages/class-attendance-page'),
  'faculty-details': () => import('../features/reports/pages/faculty-details-page'),
  inbox: () => import('../features/contact/pages/inbox-page'),
  corrections: () => import('../features/corrections/pages/corrections-page'),
  admin: () => import('../features/admin/pages/admin-layout'),
} satisfies Record<string, PageChunk>;

/**
 * The administration's pages, inside the admin layout (pageChunks.admin), by the address's second
 * segment; '' is /admin itself.
 */
export const adminPageChunks = {
  '': () => import('../features/admin/pages/admin-home-page'),
  users: () => import('../features/admin/pages/users-page'),
  classes: () => import('../features/admin/pages/classes-page'),
  timetable: () => import('../features/admin/pages/timetable-page'),
  subjects: () => import('../features/admin/pages/subjects-page'),
  roster: () => import('../features/admin/pages/roster-page'),
  terms: () => import('../features/admin/pages/terms-page'),
  audit: () => import('../features/admin/pages/audit-page'),
} satisfies Record<string, PageChunk>;

/** The admin page chunk of an address under /admin (a class's timetable is /admin/classes/:class/timetable). */
function adminPageChunk(segments: string[]): PageChunk | undefined {
  const second = segments[2] ?? '';
  if (second === 'classes' && segments[4] === 'timetable') return adminPageChunks.timetable;
  if (second === 'timetable' || !Object.hasOwn(adminPageChunks, second)) return undefined;
  return adminPageChunks[second as keyof typeof adminPageChunks];
}

/**
 * The answers a page shows first, by the address's first segment: asked for beside the page's
 * code (preloadPage), so that on a slow phone the page does not wait for its code to run before
 * it asks. /faculty-details shows the dashboard of the server's default term first.
 */
const pageFirstAnswers: Partial<Record<keyof typeof pageChunks, string[]>> = {
  'faculty-details': [DASHBOARD_PATH],
};

/** The header, menus and footer around every page but the sign-in and set-password pages. */
export const layoutChunk = () => import('./app-layout');

/**
 * Starts loading what the page at `pathname` needs: its chunk and the layout's (and under /admin
 * the admin page's as well as the admin layout's), and the answers it shows first. A failure is
 * left to the router (or the page's query), which asks again and shows its error.
 */
export function preloadPage(pathname: string): void {
  const segments = pathname.split('/');
  const first = segments[1] ?? '';
  if (!Object.hasOwn(pageChunks, first)) return;
  if (first !== 'set-password') layoutChunk().catch(() => undefined);
  pageChunks[first as keyof typeof pageChunks]().catch(() => undefined);
  for (const path of pageFirstAnswers[first as keyof typeof pageChunks] ?? []) askEarly(path);
  if (first === 'admin') adminPageChunk(segments)?.().catch(() => undefined);
}
