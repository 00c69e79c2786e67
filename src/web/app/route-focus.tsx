import { useLingui } from '@lingui/react';
import { useEffect, useRef } from 'react';
import { NavigationType, Outlet, useLocation, useNavigationType } from 'react-router';
import { useBranding } from '../lib/branding';
import { documentTitle, focusHeadingWhenShown, SkipLink } from './skip-link';

export { MAIN_CONTENT_ID } from './skip-link';

/** Whether the user has pressed, clicked or typed anything in this page since the app started. */
function useInteracted() {
  const interacted = useRef(false);
  useEffect(() => {
    const events = ['pointerdown', 'keydown', 'click'] as const;
    const mark = () => {
      interacted.current = true;
    };
    for (const event of events) document.addEventListener(event, mark, { capture: true });
    return () => {
      for (const event of events) document.removeEventListener(event, mark, { capture: true });
    };
  }, []);
  return interacted;
}

/**
 * Moving to another page moves focus to its heading, so that a screen reader starts reading the
 * new page and the next Tab starts from it. Not on a fresh load: the browser starts at the top,
 * and the first Tab reaches the skip link. That holds for a redirect on the way to the first page
 * the user sees (to the sign-in page, to the account page) too, and when the first mount's effect
 * runs twice (React's StrictMode does so in development). Not either when only the query changes
 * (a filter, a date): that is the same page.
 */
function useFocusHeadingOnNavigation() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const interacted = useInteracted();
  const shown = useRef<string | undefined>(undefined);
  useEffect(() => {
    const previous = shown.current;
    shown.current = pathname;
    if (previous === undefined || previous === pathname) return;
    if (navigationType === NavigationType.Replace && !interacted.current) return;
    return focusHeadingWhenShown();
  }, [pathname, navigationType, interacted]);
}

/** The page title: the specification's 'University Portal', with the university's name when configured. */
function useDocumentTitle() {
  const name = useBranding().data?.name;
  const { i18n } = useLingui();
  useEffect(() => {
    document.title = documentTitle(name);
  }, [name, i18n.locale]);
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
