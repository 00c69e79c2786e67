import { I18nProvider } from '@lingui/react';
import { useLingui } from '@lingui/react/macro';
import { MantineProvider } from '@mantine/core';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError, ContractMismatchError } from '../lib/api-client';
import { useBranding } from '../lib/branding';
import { isAuthKey, meQueryKey, useMe } from '../lib/session';
import { currentLanguage, i18n, showLanguage } from '../i18n/i18n';
import { brandedTheme, cssVariablesResolver, withCloseLabels } from './theme';

/** Asking again will not change a refusal (4xx) or an answer the page cannot read; a network blip might pass. */
function worthRetrying(error: Error): boolean {
  if (error instanceof ContractMismatchError) return false;
  return !(error instanceof ApiError && error.status >= 400 && error.status < 500);
}

export function createQueryClient(): QueryClient {
  // The one place that handles 401. Any query or mutation refused with 401 means the sign-in
  // session has ended (it expired, or was signed out elsewhere): forget the user, and the page
  // guard (RequireAuth) sends them to /login?returnUrl=<where they were>. The sign-in calls
  // themselves (login with a wrong password, say) answer 401 as part of their meaning.
  const signedOut = (error: Error, key: readonly unknown[] | undefined) => {
    if (error instanceof ApiError && error.status === 401 && !isAuthKey(key)) queryClient.setQueryData(meQueryKey, null);
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => signedOut(error, query.queryKey) }),
    mutationCache: new MutationCache({ onError: (error, _variables, _context, mutation) => signedOut(error, mutation.options.mutationKey) }),
    defaultOptions: {
      queries: {
        retry: (count, error) => worthRetrying(error) && count < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
  return queryClient;
}

// The toasts' container loads after the first screen (nothing is announced before a page has done
// something); a notification shown earlier waits in the kit's store and appears once it is here.
const Notifications = lazy(() => import('@mantine/notifications').then((module) => ({ default: module.Notifications })));

/**
 * The toasts' container, once the browser is idle after the first screen: its code is not one
 * more request on the way to the page's first figures.
 */
function LaterNotifications() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback !== 'function') {
      const timer = window.setTimeout(() => setWanted(true), 0);
      return () => window.clearTimeout(timer);
    }
    const idle = window.requestIdleCallback(() => setWanted(true), { timeout: 2000 });
    return () => window.cancelIdleCallback(idle);
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-right" />
    </Suspense>
  );
}

/** The kit's theme, in the university's colour when PORTAL_COLOR sets one, its close buttons named in the language shown. */
function BrandedMantineProvider({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const color = useBranding().data?.color ?? null;
  const close = t`Close`;
  const dismiss = t`Dismiss`;
  const branded = useMemo(() => withCloseLabels(brandedTheme(color), { close, dismiss }), [color, close, dismiss]);
  return (
    <MantineProvider theme={branded} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <LaterNotifications />
      {children}
    </MantineProvider>
  );
}

/**
 * The account's language follows it: signed in on another device where another language was
 * chosen, the portal changes to the account's (and this device remembers it).
 */
function AccountLanguage() {
  const language = useMe().data?.language;
  useEffect(() => {
    if (language && language !== currentLanguage()) void showLanguage(language, { remember: true }).catch(() => undefined);
  }, [language]);
  return null;
}

export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <AccountLanguage />
        <BrandedMantineProvider>{children}</BrandedMantineProvider>
      </QueryClientProvider>
    </I18nProvider>
  );
}
