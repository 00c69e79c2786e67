import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { CLASSES_PATH, PORTAL_TODAY_PATH } from '../features/attendance/api/paths';
import { DASHBOARD_PATH } from '../features/reports/api/paths';
import { EARLY_ANSWER_MS } from '../lib/http';
import { routes } from './router';
import { adminPageChunks, pageChunks, preloadPage } from './page-chunks';
import { SIGNED_IN_META } from './page-modules';

type Key = keyof typeof pageChunks;
const keys = Object.keys(pageChunks) as Key[];

/** Every page chunk replaced by a spy that loads nothing. */
function spyOnChunks() {
  return Object.fromEntries(keys.map((key) => [key, vi.spyOn(pageChunks, key).mockResolvedValue({ default: () => <p>page</p> })])) as Record<
    Key,
    ReturnType<typeof vi.spyOn>
  >;
}

let fetch: ReturnType<typeof vi.fn>;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  fetch = vi.fn(async () => new Response('{}', { status: 200 }));
  vi.stubGlobal('fetch', fetch);
});
afterEach(() => {
  vi.advanceTimersByTime(EARLY_ANSWER_MS); // answers asked for early and not taken are dropped
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the app's start loads the page it opens on beside the app's code", () => {
  it('asks for the chunk of the address it opens on, whatever follows its first segment', () => {
    const spies = spyOnChunks();
    preloadPage('/faculty-details');
    preloadPage('/attendance/CSE3');
    preloadPage('/admin/users');
    expect(spies['faculty-details']).toHaveBeenCalledTimes(1);
    expect(spies.attendance).toHaveBeenCalledTimes(1);
    expect(spies.admin).toHaveBeenCalledTimes(1);
    expect(keys.filter((key) => spies[key].mock.calls.length > 0).sort()).toEqual(['admin', 'attendance', 'faculty-details']);
  });

  /** The mark the server's copy of a page has for a browser with a sign-in (page-modules.ts). */
  function markSignedIn(): () => void {
    const meta = document.createElement('meta');
    meta.name = SIGNED_IN_META;
    document.head.append(meta);
    return () => meta.remove();
  }

  it("asks for the reports page's dashboard and the class list's cards beside their code, and for no other page's data", () => {
    spyOnChunks();
    onTestFinished(markSignedIn());
    preloadPage('/attendance/CSE3');
    preloadPage('/admin/users');
    expect(fetch).not.toHaveBeenCalled();
    preloadPage('/faculty-details');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]![0]).toBe(DASHBOARD_PATH);
    preloadPage('/dashboard');
    expect(fetch.mock.calls.map((call) => call[0])).toEqual([DASHBOARD_PATH, CLASSES_PATH, PORTAL_TODAY_PATH]);
  });

  it('asks for no answer without a sign-in: none where the page has no mark (index.html) unless its caller knows better', () => {
    const spies = spyOnChunks();
    preloadPage('/faculty-details');
    preloadPage('/dashboard');
    expect(spies['faculty-details']).toHaveBeenCalledTimes(1);
    expect(spies.dashboard).toHaveBeenCalledTimes(1);
    expect(fetch).not.toHaveBeenCalled();
    // Just signed in on the sign-in page (whose HTML has no mark): the caller knows.
    preloadPage('/faculty-details', { signedIn: true });
    expect(fetch.mock.calls.map((call) => call[0])).toEqual([DASHBOARD_PATH]);
    // Known to be signed out, whatever the page says.
    onTestFinished(markSignedIn());
    preloadPage('/dashboard', { signedIn: false });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('asks for nothing where no page chunk belongs (the sign-in page, an unknown address, an object key)', () => {
    const spies = spyOnChunks();
    for (const path of ['/', '/login', '/no-such-page', '/constructor', '/__proto__/x']) preloadPage(path);
    expect(keys.filter((key) => spies[key].mock.calls.length > 0)).toEqual([]);
  });

  it('names an address the router has for each page chunk', () => {
    const paths = new Set<string>();
    const walk = (list: typeof routes) => {
      for (const route of list) {
        if (route.path) paths.add(route.path.split('/')[0]!);
        if (route.children) walk(route.children);
      }
    };
    walk(routes);
    expect(keys.filter((key) => !paths.has(key))).toEqual([]);
  });

  it('asks under /admin for the admin page of the address as well as the admin layout', () => {
    const spies = spyOnChunks();
    const adminKeys = Object.keys(adminPageChunks) as (keyof typeof adminPageChunks)[];
    const adminSpies = Object.fromEntries(
      // A load that never settles: only the asking is looked at.
      adminKeys.map((key) => [key, vi.spyOn(adminPageChunks, key).mockReturnValue(new Promise<never>(() => undefined))]),
    ) as Record<keyof typeof adminPageChunks, ReturnType<typeof vi.spyOn>>;
    const asked = () => adminKeys.filter((key) => adminSpies[key].mock.calls.length > 0).sort();

    preloadPage('/admin');
    expect(asked()).toEqual(['']);
    preloadPage('/admin/users');
    preloadPage('/admin/classes/CSE3/timetable');
    expect(asked()).toEqual(['', 'timetable', 'users']);
    preloadPage('/admin/classes');
    expect(asked()).toEqual(['', 'classes', 'timetable', 'users']);
    // Not an address of its own, nor an unknown one, nor an object key.
    for (const path of ['/admin/timetable', '/admin/no-such-page', '/admin/constructor']) preloadPage(path);
    expect(asked()).toEqual(['', 'classes', 'timetable', 'users']);
    expect(spies.admin).toHaveBeenCalledTimes(7);
  });

  it('has a route under /admin for each admin page chunk', () => {
    const admin = routes[0]!.children!.flatMap(function find(route): typeof routes {
      return route.path === 'admin' ? [route] : (route.children ?? []).flatMap(find);
    })[0]!;
    const paths = new Set<string>();
    const walk = (list: typeof routes) => {
      for (const route of list) {
        if (route.index) paths.add('');
        if (route.path) paths.add(route.path.split('/').at(-1)!);
        if (route.children) walk(route.children);
      }
    };
    walk(admin.children ?? []);
    expect(Object.keys(adminPageChunks).filter((key) => !paths.has(key))).toEqual([]);
  });
});
