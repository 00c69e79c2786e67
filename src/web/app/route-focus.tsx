import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useBranding } from '../lib/branding';
import { documentTitle, focusHeadingWhenShown, SkipLink } from './skip-link';

export { MAIN_CONTENT_ID } from './skip-link';

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
    return focusHeadingWhenShown();
  }, [pathname]);
}

/** The page title: the specification's 'University Portal', with the university's name when configured. */
function useDocumentTitle() {
  const name = useBranding().data?.name;
  useEffect(() => {
    document.title = documentTitle(name);
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
