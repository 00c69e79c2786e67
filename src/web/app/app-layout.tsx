import { msg, plural } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, AppShell, Badge, Box, Burger, Button, Container, Drawer, Group, Modal, NavLink as MantineNavLink, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCheckbox, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { Suspense, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { NoticeFooter } from '../components/notice-links';
import { canAdminister, canReadInbox, canTakeRegisters, isStudent } from '../../shared/access';
import type { User } from '../../shared/schemas/auth';
import { ColorSchemeToggle } from '../components/color-scheme-toggle';
import { PageLoader } from '../components/page-loader';
import { useBranding } from '../lib/branding';
import { countQueued } from '../lib/offline-store';
import { useLogout, useMe } from '../lib/session';
import { useOpenCorrectionCount } from '../features/corrections/api/corrections';
import { NotificationBell } from '../features/notifications/components/notification-bell';
import classes from './app-layout.module.css';
import { MAIN_CONTENT_ID } from './route-focus';
import { AccountLanguageSwitcher } from '../components/account-language';
import { LanguageSwitcher } from '../i18n/language-switcher';

interface NavItem {
  label: MessageDescriptor;
  to: string;
  show: (user: User | null | undefined) => boolean;
}

const always = () => true;
// Signed-out visitors see these too, as in the original app's navbar; the guard asks them to sign in.
const notStudent = (user: User | null | undefined) => !isStudent(user);

/** The navbar, after the original app's: Home, Post Links, Faculty Details, and the student search. */
export const NAV_ITEMS: NavItem[] = [
  { label: msg`Home`, to: '/welcome', show: always },
  { label: msg`Post Links`, to: '/register', show: always },
  { label: msg`Faculty Details`, to: '/faculty-details', show: notStudent },
  { label: msg`Classes`, to: '/dashboard', show: canTakeRegisters },
  { label: msg`Student Search`, to: '/faculty', show: notStudent },
  // A student lands on /faculty after sign-in (as the original app did): their menu item goes there.
  { label: msg`My Attendance`, to: '/faculty', show: isStudent },
  { label: msg`Inbox`, to: '/inbox', show: canReadInbox },
  { label: msg`Corrections`, to: '/corrections', show: canTakeRegisters },
  { label: msg`Admin`, to: '/admin', show: canAdminister },
];

export function AppLayout() {
  const { t, i18n } = useLingui();
  const [opened, { toggle, close }] = useDisclosure(false);
  const me = useMe();
  const logout = useLogout();
  const location = useLocation();
  const user = me.data;
  const branding = useBranding().data;
  const items = NAV_ITEMS.filter((item) => item.show(user));
  // The account keeps the language on the server; not while PORTAL_REQUIRE_TOTP holds the session to
  // the setup (the API refuses it then): this device keeps it meanwhile.
  const keepsLanguage = user !== null && user !== undefined && !user.totpSetupRequired;
  // Requests waiting for faculty, beside Corrections.
  const waiting = useOpenCorrectionCount(canTakeRegisters(user)).data?.open ?? 0;
  const label = (item: NavItem) =>
    item.to === '/corrections' && waiting > 0 ? (
      <>
        {i18n._(item.label)}{' '}
        <Badge size="sm" color="red.9" circle aria-hidden>
          {waiting}
        </Badge>
        <VisuallyHidden>{t`(${waiting} waiting)`}</VisuallyHidden>
      </>
    ) : (
      i18n._(item.label)
    );

  // It ends on /login (useLogout). Register saves still waiting on the device are the user's to
  // know about first: a sign-out keeps them (it forgets only the kept answers), and they are sent
  // when this user signs in here again; nobody else's sign-in sends them.
  const [waitingSaves, setWaitingSaves] = useState(0);
  const signOut = async () => {
    const queued = user ? await countQueued(user.id) : 0;
    if (queued > 0) setWaitingSaves(queued);
    else logout.mutate();
  };
  const stay = () => setWaitingSaves(0);

  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? t`Close menu` : t`Open menu`} />
            <UnstyledButton component={Link} to="/welcome" className={classes.brand} aria-label={t`Attendance, home`}>
              {branding?.logoUrl ? (
                <img src={branding.logoUrl} alt="" height={28} width={28} style={{ objectFit: 'contain' }} />
              ) : (
                <IconCheckbox size={22} aria-hidden />
              )}
              <Text fw={700} fz="lg">
                <Trans>Attendance</Trans>
              </Text>
            </UnstyledButton>
            {branding?.name && (
              <Text size="sm" c="dimmed" visibleFrom="lg" truncate maw={220}>
                {branding.name}
              </Text>
            )}
          </Group>
          <Group gap={4} visibleFrom="sm" component="nav" aria-label={t`Main`}>
            {items.map((item) => (
              <NavLink key={item.to} to={item.to} className={classes.link}>
                {label(item)}
              </NavLink>
            ))}
          </Group>
          <Group gap="xs" wrap="nowrap">
            {/* Not while PORTAL_REQUIRE_TOTP holds the session to the setup: the API refuses it then. */}
            {user && !user.totpSetupRequired && <NotificationBell />}
            {user && (
              // Where the header has no room for the name (which links to the account), an icon does.
              <ActionIcon component={Link} to="/account" variant="default" size="lg" aria-label={t`My account`} title={t`My account`} visibleFrom="sm" hiddenFrom="md">
                <IconUserCircle size={18} aria-hidden />
              </ActionIcon>
            )}
            <Box visibleFrom="xs">{keepsLanguage ? <AccountLanguageSwitcher /> : <LanguageSwitcher />}</Box>
            <ColorSchemeToggle />
            <Group gap="xs" wrap="nowrap" visibleFrom="xs">
            {user ? (
              <>
                <Text component={Link} to="/account" size="sm" c="dimmed" visibleFrom="md" truncate maw={180} title={t`My account`}>
                  {user.name}
                </Text>
                <Button variant="subtle" size="sm" leftSection={<IconLogout size={16} aria-hidden />} onClick={() => void signOut()} loading={logout.isPending}>
                  <Trans>Sign out</Trans>
                </Button>
              </>
            ) : (
              <Button component={Link} to="/login" size="sm" variant="light">
                <Trans>Sign in</Trans>
              </Button>
            )}
            </Group>
          </Group>
        </Group>
      </AppShell.Header>
      <Drawer opened={opened} onClose={close} title={t`Attendance`} size="xs" hiddenFrom="sm">
        <Stack gap={4} component="nav" aria-label={t`Main menu`}>
          {items.map((item) => (
            <MantineNavLink
              key={item.to}
              component={Link}
              to={item.to}
              label={label(item)}
              active={location.pathname === item.to}
              onClick={close}
            />
          ))}
          {user && <MantineNavLink component={Link} to="/account" label={t`My account`} active={location.pathname === '/account'} onClick={close} />}
          {user ? (
            <MantineNavLink component="button" label={t`Sign out`} leftSection={<IconLogout size={16} aria-hidden />} onClick={() => { close(); void signOut(); }} />
          ) : (
            <MantineNavLink component={Link} to="/login" label={t`Sign in`} onClick={close} />
          )}
        </Stack>
        {/* The header's language picker has no room on a phone: here it is, named. */}
        <Box mt="md" px="sm">
          {keepsLanguage ? <AccountLanguageSwitcher label={t`Language`} size="sm" /> : <LanguageSwitcher label={t`Language`} size="sm" />}
        </Box>
      </Drawer>
      <Modal opened={waitingSaves > 0} onClose={stay} title={t`Sign out with saves waiting?`} centered>
        <Stack gap="md">
          <Text size="sm">
            {t`${plural(waitingSaves, {
              one: 'A register save has not reached the server yet. Signing out keeps it on this device, and it is sent when you sign in here again with a connection; no one else who signs in here sends it.',
              other: '# register saves have not reached the server yet. Signing out keeps them on this device, and they are sent when you sign in here again with a connection; no one else who signs in here sends them.',
            })}`}
          </Text>
          <Text size="sm">
            {t`${plural(waitingSaves, {
              one: 'To send it first, stay signed in until you are back online.',
              other: 'To send them first, stay signed in until you are back online.',
            })}`}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={stay} data-autofocus>
              <Trans>Stay signed in</Trans>
            </Button>
            <Button
              color="red.9"
              onClick={() => {
                stay();
                logout.mutate();
              }}
            >
              <Trans>Sign out</Trans>
            </Button>
          </Group>
        </Stack>
      </Modal>
      <AppShell.Main id={MAIN_CONTENT_ID}>
        <Container size="lg" px={0}>
          {/* While signing out the page goes at once: nothing on it starts asking for data. */}
          {logout.isPending ? (
            <PageLoader label={t`Signing out…`} showLabel />
          ) : (
            <Suspense fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          )}
          <NoticeFooter />
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
