import { MantineProvider } from '@mantine/core';
import type { Root } from 'react-dom/client';
import type { Branding } from '../../shared/schemas/branding';
import { BrandingAnswer } from '../../shared/sign-in-answers';
import { LoadError } from '../components/load-states';
import { PageLoader } from '../components/page-loader';
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
  loading ??= import('./portal-app').catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

function CannotLoad() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <LoadError
        title="Cannot reach the server"
        message="The portal could not be loaded. Check your connection and try again."
        onRetry={() => window.location.reload()}
        m="md"
      />
    </MantineProvider>
  );
}

/**
 * Every page but the sign-in page: the app, with a loader until its code has arrived. Who is
 * signed in and the branding are asked while the code downloads, not one after the other once it
 * has arrived; if either question fails, the app asks again itself.
 */
export function startApp(root: Root): void {
  root.render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <PageLoader label="Opening the portal…" showLabel />
    </MantineProvider>,
  );
  preloadPage(window.location.pathname);
  const user = currentUser().catch(() => undefined);
  const branding = request('GET', '/api/branding', undefined, BrandingAnswer).catch(() => undefined);
  loadApp().then(
    async (app) => app.renderApp(root, { user: await user, branding: await branding }),
    () => root.render(<CannotLoad />),
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
  // The sign-in page stays on screen until the app's first page is ready: its heading is not the one to focus.
  const leaving = pageHeading();
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  app.renderApp(root, start);
  focusHeadingWhenShown(leaving);
}
