import { I18nProvider } from '@lingui/react';
import { useLingui } from '@lingui/react/macro';
import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Root } from 'react-dom/client';
import type { Branding } from '../../shared/schemas/branding';
import { BrandingAnswer } from '../../shared/sign-in-answers';
import { LoadError } from '../components/load-states';
import { PageLoader } from '../components/page-loader';
import { i18n, loadAppMessages, showLanguage } from '../i18n/i18n';
import { request } from '../lib/http';
import { currentUser, type SignedInUser } from '../lib/sign-in';
import type * as App from './portal-app';
import { preloadPage } from './page-chunks';
import { focusHeadingWhenShown, pageHeading } from './skip-link';
import { cssVariablesResolver, theme } from './theme';

/** What the sign-in page (or the start of the app) already knows, so that the app need not ask again. */
export interface AppStart {
  /** Null: nobody is signed in. */
  user?: SignedInUser | null | undefined;
  branding?: Branding | undefined;
}

let loading: Promise<typeof App> | undefined;

/** The app's code (router, query cache, every page's route): loaded once, when first wanted. */
export function loadApp(): Promise<typeof App> {
  loading ??= Promise.all([import('./portal-app'), loadAppMessages()]).then(([app]) => app, (err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

function CannotLoad() {
  const { t } = useLingui();
  return (
    <LoadError
      title={t`Cannot reach the server`}
      message={t`The portal could not be loaded. Check your connection and try again.`}
      onRetry={() => window.location.reload()}
      m="md"
    />
  );
}

function Opening() {
  const { t } = useLingui();
  return <PageLoader label={t`Opening the portal…`} showLabel />;
}

/** The kit's default theme and the language's messages, before the app's own providers are here. */
function Bare({ children }: { children: ReactNode }) {
  return (
    <I18nProvider i18n={i18n}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
        {children}
      </MantineProvider>
    </I18nProvider>
  );
}

/** The account's language, once known: the app opens in it (and the device remembers it). */
async function inAccountLanguage(user: SignedInUser | null | undefined): Promise<void> {
  if (user?.language) await showLanguage(user.language, { remember: true }).catch(() => undefined);
}

/**
 * Every page but the sign-in page: the app, with a loader until its code has arrived. Who is
 * signed in and the branding are asked while the code downloads, not one after the other once it
 * has arrived; if either question fails, the app asks again itself.
 */
export function startApp(root: Root): void {
  root.render(
    <Bare>
      <Opening />
    </Bare>,
  );
  preloadPage(window.location.pathname);
  const user = currentUser().catch(() => undefined);
  const branding = request('GET', '/api/branding', undefined, BrandingAnswer).catch(() => undefined);
  loadApp().then(
    async (app) => {
      const known = await user;
      await inAccountLanguage(known);
      app.renderApp(root, { user: known, branding: await branding });
    },
    () =>
      root.render(
        <Bare>
          <CannotLoad />
        </Bare>,
      ),
  );
}

/**
 * Leaves the sign-in page for `path` in the app: once the app's code is here, the address
 * changes (in place of the sign-in page when `replace`) and the app shows the page, with focus
 * on its heading as after any move between pages. If the code cannot be loaded, the browser
 * opens the address itself (a newer release, say, whose files have other names).
 */
export async function openApp(root: Root, path: string, { replace, ...start }: AppStart & { replace: boolean }): Promise<void> {
  // Just signed in (or known to be signed out): the page's first answers are asked, or not, accordingly.
  preloadPage(new URL(path, window.location.origin).pathname, { signedIn: start.user === undefined ? undefined : start.user !== null });
  let app: typeof App;
  try {
    app = await loadApp();
  } catch {
    if (replace) window.location.replace(path);
    else window.location.assign(path);
    return;
  }
  await inAccountLanguage(start.user);
  // The sign-in page stays on screen until the app's first page is ready: its heading is not the one to focus.
  const leaving = pageHeading();
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  app.renderApp(root, start);
  focusHeadingWhenShown(leaving);
}
