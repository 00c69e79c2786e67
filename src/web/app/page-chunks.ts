import type { ComponentType } from 'react';
import { CLASSES_PATH, PORTAL_TODAY_PATH } from '../features/attendance/api/paths';
import { DASHBOARD_PATH } from '../features/reports/api/paths';
import { askEarly } from '../lib/http';
import { ADMIN_PAGE_MODULES, PAGE_MODULES, PAGES_WITHOUT_LAYOUT, SIGNED_IN_META, type PageSegment } from './page-modules';

type PageChunk = () => Promise<{ default: ComponentType }>;

/**
 * Every page module's loader, by its path from this folder: the bundler makes each its own chunk.
 * Not the sign-in page's: it is part of the entry (docs/decisions/0018-sign-in-shell.md).
 */
const loaders = import.meta.glob<{ default: ComponentType }>([
  '../features/*/pages/*.tsx',
  '!../features/*/pages/*.test.tsx',
  '!../features/auth/pages/login-*.tsx',
]);

/** The loaders of `modules` (paths from src/web, page-modules.ts), by the same keys. */
function chunksOf<K extends string>(modules: Record<K, string>): Record<K, PageChunk> {
  const chunks = {} as Record<K, PageChunk>;
  for (const key of Object.keys(modules) as K[]) {
    const load = loaders[`../${modules[key]}`];
    if (!load) throw new Error(`No page module ${modules[key]}`);
    chunks[key] = load;
  }
  return chunks;
}

/**
 * The chunk of each address's page, by the address's first segment (page-modules.ts): the router's
 * routes load them (router.tsx), and the app's start asks for the one it opens on beside the app's
 * own code (open-app.tsx), not after it: on a slow phone that is a round trip less before the page
 * shows.
 */
export const pageChunks = chunksOf(PAGE_MODULES);

/** The administration's pages, inside the admin layout (pageChunks.admin), by the address's second segment; '' is /admin itself. */
export const adminPageChunks = chunksOf(ADMIN_PAGE_MODULES);

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
 * it asks. /faculty-details shows the dashboard of the server's default term first; /dashboard (a
 * faculty member's first page) the classes' cards, whose dates are the portal's today.
 */
const pageFirstAnswers: Partial<Record<PageSegment, string[]>> = {
  'faculty-details': [DASHBOARD_PATH],
  dashboard: [CLASSES_PATH, PORTAL_TODAY_PATH],
};

/** The header, menus and footer around every page but the sign-in and set-password pages. */
export const layoutChunk = () => import('./app-layout');

/** Whether the server sent this page's copy for a browser with a sign-in (page-modules.ts). */
const hasSignInMark = () => document.querySelector(`meta[name="${SIGNED_IN_META}"]`) !== null;

/**
 * Starts loading what the page at `pathname` needs: its chunk and the layout's (and under /admin
 * the admin page's as well as the admin layout's), and, for a sign-in (`signedIn`: as the page
 * came, with the sign-in mark or not, unless the caller knows), the answers it shows first. A failure is
 * left to the router (or the page's query), which asks again and shows its error.
 */
export function preloadPage(pathname: string, { signedIn = hasSignInMark() }: { signedIn?: boolean | undefined } = {}): void {
  const segments = pathname.split('/');
  const first = segments[1] ?? '';
  if (!Object.hasOwn(pageChunks, first)) return;
  const segment = first as PageSegment;
  if (!PAGES_WITHOUT_LAYOUT.includes(segment)) layoutChunk().catch(() => undefined);
  pageChunks[segment]().catch(() => undefined);
  // Only for a sign-in: a signed-out visitor's would be refused.
  if (signedIn) for (const path of pageFirstAnswers[segment] ?? []) askEarly(path);
  if (first === 'admin') adminPageChunk(segments)?.().catch(() => undefined);
}
