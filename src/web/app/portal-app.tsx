import { startTransition, StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { BRANDING_KEY } from '../lib/branding';
import { keepUser, meQueryKey } from '../lib/session';
import type { AppStart } from './open-app';
import { AppProviders, createQueryClient } from './providers';
import { createRouter } from './router';
import { registerServiceWorker } from './service-worker';

/**
 * The app: its router, query cache and providers, loaded after the first screen (open-app.tsx).
 * What the sign-in page already knows (who signed in, the branding) starts its cache.
 */
export function renderApp(root: Root, { user, branding }: AppStart): void {
  const queryClient = createQueryClient();
  if (user !== undefined) {
    queryClient.setQueryData(meQueryKey, user);
    keepUser(user);
  }
  if (branding) queryClient.setQueryData([BRANDING_KEY], branding);
  const router = createRouter();
  // In short slices, as the sign-in page (sign-in-shell.tsx): what shows stays until the app is ready.
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppProviders queryClient={queryClient}>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    ),
  );
  registerServiceWorker();
}
