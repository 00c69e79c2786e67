/**
 * Which module each address's page is, by the address's first segment (under /admin, the second),
 * as paths from src/web: the one home of that mapping. The app loads the pages from it
 * (page-chunks.ts), and the build writes, for each first segment, a copy of index.html that names
 * the files that page loads, so that a signed-in browser fetches them beside the app's entry
 * instead of after it (src/server/plugins/web-build.ts, docs/decisions/0019-reports-first-screen.md).
 *
 * Plain data, imported by vite.config.ts too: it imports nothing.
 */
export const PAGE_MODULES = {
  'set-password': 'features/auth/pages/set-password-page.tsx',
  register: 'features/students/pages/register-page.tsx',
  'contact-us': 'features/contact/pages/contact-page.tsx',
  privacy: 'features/notices/pages/notice-page.tsx',
  accessibility: 'features/notices/pages/notice-page.tsx',
  success: 'features/attendance/pages/success-page.tsx',
  faculty: 'features/students/pages/student-search-page.tsx',
  student: 'features/students/pages/student-search-page.tsx',
  welcome: 'features/students/pages/welcome-page.tsx',
  account: 'features/account/pages/account-page.tsx',
  dashboard: 'features/attendance/pages/dashboard-page.tsx',
  attendance: 'features/attendance/pages/class-attendance-page.tsx',
  'faculty-details': 'features/reports/pages/faculty-details-page.tsx',
  inbox: 'features/contact/pages/inbox-page.tsx',
  corrections: 'features/corrections/pages/corrections-page.tsx',
  admin: 'features/admin/pages/admin-layout.tsx',
  checkin: 'features/checkins/pages/projector-page.tsx',
  scan: 'features/checkins/pages/scan-page.tsx',
  'checkin-result': 'features/checkins/pages/checkin-result-page.tsx',
} as const;

/** The administration's pages, inside the admin layout (PAGE_MODULES.admin), by the address's second segment; '' is /admin itself. */
export const ADMIN_PAGE_MODULES = {
  '': 'features/admin/pages/admin-home-page.tsx',
  users: 'features/admin/pages/users-page.tsx',
  classes: 'features/admin/pages/classes-page.tsx',
  timetable: 'features/admin/pages/timetable-page.tsx',
  subjects: 'features/admin/pages/subjects-page.tsx',
  roster: 'features/admin/pages/roster-page.tsx',
  terms: 'features/admin/pages/terms-page.tsx',
  audit: 'features/admin/pages/audit-page.tsx',
  import: 'features/admin/pages/import-page.tsx',
  alerts: 'features/admin/pages/alerts-page.tsx',
} as const;

export type PageSegment = keyof typeof PAGE_MODULES;

/** The app's own code (router, query cache, every page's route), loaded by the entry for every page but the sign-in page. */
export const APP_MODULE = 'app/portal-app.tsx';

/** The header, menus and footer around every page but those of PAGES_WITHOUT_LAYOUT. */
export const LAYOUT_MODULE = 'app/app-layout.tsx';

/** Pages shown on their own, without the layout: the check-in's projector view fills the screen. */
export const PAGES_WITHOUT_LAYOUT: readonly PageSegment[] = ['set-password', 'checkin'];

/**
 * What the app's start loads for the page at a first segment, before the page shows: the app, the
 * layout (unless the page has none) and the page.
 */
export function modulesOfPage(segment: PageSegment): string[] {
  return [APP_MODULE, ...(PAGES_WITHOUT_LAYOUT.includes(segment) ? [] : [LAYOUT_MODULE]), PAGE_MODULES[segment]];
}

/**
 * The mark in a page's copy of index.html, which the server sends only to a browser with a sign-in
 * cookie (valid or not): the app's start then asks for the page's first answers beside its code.
 * Without it (index.html, to a browser without one) it asks for none: they would be refused.
 */
export const SIGNED_IN_META = 'portal-signed-in';
