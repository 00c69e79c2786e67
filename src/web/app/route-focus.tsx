import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useBranding } from '../lib/branding';
import classes from './route-focus.module.css';

/** The id of every page's main landmark: the skip link's target. */
export const MAIN_CONTENT_ID = 'main-content';

/** How long a new page may take to show its heading (its chunk and first data) before focus gives up. */
const HEADING_WAIT_MS = 5000;

function focusTarget(): HTMLElement | null {
  const main = document.getElementById(MAIN_CONTENT_ID);
  return main?.querySelector<HTMLElement>('h1') ?? null;
}

/**
 * The first Tab of every page reaches `Skip to main content` (DESIGN.md 7.7). Shown only when it
 * has focus; it moves focus to the page's heading, or to its main landmark.
 */
function SkipLink() {
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      className={classes.skipLink}
      onClick={(event) => {
        const target = focusTarget() ?? document.getElementById(MAIN_CONTENT_ID);
        if (!target) return;
        event.preventDefault();
        if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
        target.focus();
      }}
    >
      Skip to main content
    </a>
  );
}

/**
 * Moving to another page moves focus to its heading (DESIGN.md 7.7), so that a screen reader
 * starts reading the new page and the next Tab starts from it. Not on the first load (the browser
 * starts at the top, with the skip link first), and not when only the query changes (a filter, a
 * date): that is the same page.
 */
function useFocusHeadingOnNavigation() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const started = Date.now();
    let timer: number | undefined;
    const attempt = () => {
      const heading = focusTarget();
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
        return;
      }
      if (Date.now() - started < HEADING_WAIT_MS) timer = window.setTimeout(attempt, 50);
    };
    attempt();
    return () => window.clearTimeout(timer);
  }, [pathname]);
}

/** The page title: the specification's 'University Portal', with the university's name when configured. */
function useDocumentTitle() {
  const name = useBranding().data?.name;
  useEffect(() => {
    document.title = name ? `University Portal · ${name}` : 'University Portal';
  }, [name]);
}

/** The root of every route: the skip link, focus on navigation, the title, then the page. */
export function RootLayout() {
  useFocusHeadingOnNavigation();
  useDocumentTitle();
  return (
    <>
      <SkipLink />
      <Outlet />
    </>
  );
}
