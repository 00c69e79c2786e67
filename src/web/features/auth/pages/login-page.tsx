import { Trans } from '@lingui/react/macro';
import { Anchor, Center, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconSchool, IconUser } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { homePathFor } from '../../../../shared/access';
import type { LoginRole } from '../../../../shared/constants';
import { safeReturnUrl } from '../../../../shared/redirect';
import type { Branding } from '../../../../shared/schemas/branding';
import { SignInOptionsAnswer } from '../../../../shared/sign-in-answers';
import { useAnswer, useCurrentUser, type SignedInUser } from '../../../lib/sign-in';
import { NoticeFooterLinks } from '../../../components/notice-footer-links';
import { LanguageSwitcher } from '../../../i18n/language-switcher';
import { LoginForm } from '../components/login-form';
import { singleSignOnFailure, SingleSignOnButton, SingleSignOnFailure } from '../components/single-sign-on';

/** Long enough to read 'Success' before the next page appears. */
const SUCCESS_PAUSE_MS = 500;

export interface LoginPageProps {
  /** The address's query: `returnUrl` and `sso`. */
  search: string;
  /** The university's name and logo, once known. */
  branding: Branding | undefined;
  /** Follows one of the page's links (a path of the portal). */
  open: (path: string) => void;
  /** Leaves for the portal once someone is signed in: to `path`, in place of the sign-in page. */
  enter: (path: string, user: SignedInUser) => void;
  /** Who is signed in, when whoever shows the page knows (null: nobody); else the page asks. */
  knownUser?: SignedInUser | null | undefined;
}

/**
 * /login. The first screen of nearly every visit, so it needs neither the
 * router nor the app's query cache: whoever shows it says how to follow its links and where
 * the signed-in user goes (the sign-in shell before the app has loaded, the app's route after).
 */
export function LoginPage({ search, branding, open, enter: enterApp, knownUser }: LoginPageProps) {
  const [tab, setTab] = useState<LoginRole>('faculty');
  const params = new URLSearchParams(search);
  const returnUrl = safeReturnUrl(params.get('returnUrl'));
  const ssoFailure = singleSignOnFailure(params.get('sso'));
  const options = useAnswer('/api/auth/options', SignInOptionsAnswer);
  const asked = useCurrentUser(knownUser === undefined);
  const signedInAlready = knownUser === undefined ? asked : knownUser;
  // Set once the page is on its way to the portal: it leaves only once.
  const leaving = useRef(false);
  // The QR's addresses (/c/...) are the server's: after a scan made signed out, the browser loads
  // /c/done itself, which hands the kept scan to the web's scan page.
  const enter = useCallback(
    (path: string, user: SignedInUser) => (path.startsWith('/c/') ? window.location.assign(path) : enterApp(path, user)),
    [enterApp],
  );

  useEffect(() => {
    if (!signedInAlready || leaving.current) return;
    leaving.current = true;
    enter(returnUrl ?? homePathFor(signedInAlready.role), signedInAlready);
  }, [signedInAlready, returnUrl, enter]);

  const onSuccess = (user: SignedInUser) => {
    leaving.current = true;
    window.setTimeout(() => enter(returnUrl ?? homePathFor(user.role), user), SUCCESS_PAUSE_MS);
  };

  const follow = (path: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    // A new tab or window (a modifier key, the middle button) is the browser's to open.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    open(path);
  };

  return (
    <Center mih="100dvh" p="md" bg="var(--portal-surface-muted)">
      <Paper component="main" id="main-content" withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={440}>
        <Stack gap={4} mb="lg" ta="center">
          {(branding?.logoUrl || branding?.name) && (
            <Stack gap={4} align="center" mb="xs">
              {branding.logoUrl && <img src={branding.logoUrl} alt="" height={48} width={48} style={{ objectFit: 'contain' }} />}
              {branding.name && (
                <Text fw={600} c="dimmed">
                  {branding.name}
                </Text>
              )}
            </Stack>
          )}
          <Title order={1}>
            <Trans>University Portal</Trans>
          </Title>
          <Text c="dimmed">
            <Trans>Access your academic resources</Trans>
          </Text>
        </Stack>
        {ssoFailure && <SingleSignOnFailure message={ssoFailure} />}
        <Tabs value={tab} onChange={(value) => value && setTab(value as LoginRole)} variant="pills" radius="md">
          <Tabs.List grow mb="lg">
            <Tabs.Tab value="faculty" leftSection={<IconSchool size={16} aria-hidden />}>
              <Trans>Faculty</Trans>
            </Tabs.Tab>
            <Tabs.Tab value="student" leftSection={<IconUser size={16} aria-hidden />}>
              <Trans>Student</Trans>
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="faculty">
            {options?.sso && <SingleSignOnButton name={options.sso.name} role="faculty" returnUrl={returnUrl} withDivider={options.passwordLogin} />}
            {options?.passwordLogin !== false && <LoginForm role="faculty" onSuccess={onSuccess} />}
          </Tabs.Panel>
          <Tabs.Panel value="student">
            {options?.sso && <SingleSignOnButton name={options.sso.name} role="student" returnUrl={returnUrl} withDivider={options.passwordLogin} />}
            {options?.passwordLogin !== false && <LoginForm role="student" onSuccess={onSuccess} />}
          </Tabs.Panel>
        </Tabs>
        <Group justify="center" gap="lg" mt="xl">
          <Anchor href="/register" onClick={follow('/register')} size="sm">
            <Trans>Register a student profile</Trans>
          </Anchor>
          <Anchor href="/contact-us" onClick={follow('/contact-us')} size="sm">
            <Trans>Contact us</Trans>
          </Anchor>
        </Group>
        <NoticeFooterLinks follow={follow} />
        <Group justify="center" mt="md">
          <LanguageSwitcher />
        </Group>
      </Paper>
    </Center>
  );
}
