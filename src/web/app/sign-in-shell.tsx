import { I18nProvider, useLingui } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { startTransition, StrictMode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Root } from 'react-dom/client';
import { BrandingAnswer } from '../../shared/sign-in-answers';
import { LoginPage } from '../features/auth/pages/login-page';
import { i18n } from '../i18n/i18n';
import { useAnswer, type SignedInUser } from '../lib/sign-in';
import { loadApp, openApp } from './open-app';
import { documentTitle, SkipLink } from './skip-link';
import { brandedTheme, cssVariablesResolver } from './theme';

/** What a visitor who is not yet in the app asks for first: the sign-in page (and `/`, which is it). */
export function isSignInPath(pathname: string): boolean {
  return pathname === '/' || pathname === '/login' || pathname === '/login/';
}

/** Signs of a person at the page: the app's code starts loading then, not while the page shows. */
const FIRST_TOUCH = ['pointerdown', 'touchstart', 'keydown', 'focusin'] as const;

/**
 * The sign-in page as the first screen (its weight budget: decision 18): the page with the kit's
 * theme and the skip link, without the router, the query cache or the schema library. The app
 * loads when the page is left, for a link or for the signed-in user's page; its code starts
 * loading at the first touch, key or pointer, so that leaving is quick.
 */
function SignInShell({ root }: { root: Root }) {
  const [search] = useState(() => window.location.search);
  const branding = useAnswer('/api/branding', BrandingAnswer);
  const theme = useMemo(() => brandedTheme(branding?.color), [branding?.color]);
  const { i18n: shown } = useLingui();

  useEffect(() => {
    document.title = documentTitle(branding?.name);
  }, [branding?.name, shown.locale]);

  useEffect(() => {
    const warm = () => {
      for (const type of FIRST_TOUCH) window.removeEventListener(type, warm, true);
      loadApp().catch(() => undefined);
    };
    for (const type of FIRST_TOUCH) window.addEventListener(type, warm, { capture: true, passive: true });
    return () => {
      for (const type of FIRST_TOUCH) window.removeEventListener(type, warm, true);
    };
  }, []);

  // The first way out is taken: a second click while the app's code loads changes nothing.
  const leaving = useRef(false);
  const leave = useCallback(
    (path: string, how: { replace: boolean; user?: SignedInUser }) => {
      if (leaving.current) return;
      leaving.current = true;
      void openApp(root, path, { ...how, branding });
    },
    [root, branding],
  );
  const open = useCallback((path: string) => leave(path, { replace: false }), [leave]);
  const enter = useCallback((path: string, user: SignedInUser) => leave(path, { replace: true, user }), [leave]);

  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <SkipLink />
      <LoginPage search={search} branding={branding} open={open} enter={enter} />
    </MantineProvider>
  );
}

/** Shows the sign-in page at /login (`/` becomes /login, as in the app). */
export function startSignIn(root: Root): void {
  if (window.location.pathname !== '/login') window.history.replaceState(null, '', `/login${window.location.search}${window.location.hash}`);
  // As a transition, React renders the page in short slices: the main thread stays free for
  // input while it builds (no long task of its own on a slow phone).
  startTransition(() =>
    root.render(
      <StrictMode>
        <I18nProvider i18n={i18n}>
          <SignInShell root={root} />
        </I18nProvider>
      </StrictMode>,
    ),
  );
}
