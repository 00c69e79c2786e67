import { ActionIcon, AppShell, Badge, Burger, Button, Container, Drawer, Group, Modal, NavLink as MantineNavLink, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
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

interface NavItem {
  label: string;
  to: string;
  show: (user: User | null | undefined) => boolean;
}

const always = () => true;
// Signed-out visitors see these too, as in the original app's navbar; the guard asks them to sign in.
const notStudent = (user: User | null | undefined) => !isStudent(user);

/** The navbar, after the original app's: Home, Post Links, Faculty Details, and the student search. */
export const NAV_ITEMS: NavItem[] = [
  { label: 'Home', to: '/welcome', show: always },
  { label: 'Post Links', to: '/register', show: always },
  { label: 'Faculty Details', to: '/faculty-details', show: notStudent },
  { label: 'Classes', to: '/dashboard', show: canTakeRegisters },
  { label: 'Student Search', to: '/faculty', show: notStudent },
  // A student lands on /faculty after sign-in (as the original app did): their menu item goes there.
  { label: 'My Attendance', to: '/faculty', show: isStudent },
  { label: 'Inbox', to: '/inbox', show: canReadInbox },
  { label: 'Corrections', to: '/corrections', show: canTakeRegisters },
  { label: 'Admin', to: '/admin', show: canAdminister },
];

export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const me = useMe();
  const logout = useLogout();
  const location = useLocation();
  const user = me.data;
  const branding = useBranding().data;
  const items = NAV_ITEMS.filter((item) => item.show(user));
  // Requests waiting for faculty, beside Corrections.
  const waiting = useOpenCorrectionCount(canTakeRegisters(user)).data?.open ?? 0;
  const label = (item: NavItem) =>
    item.to === '/corrections' && waiting > 0 ? (
      <>
        {item.label}{' '}
        <Badge size="sm" color="red.9" circle aria-hidden>
          {waiting}
        </Badge>
        <VisuallyHidden>({waiting} waiting)</VisuallyHidden>
      </>
    ) : (
      item.label
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
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close menu' : 'Open menu'} />
            <UnstyledButton component={Link} to="/welcome" className={classes.brand} aria-label="Attendance, home">
              {branding?.logoUrl ? (
                <img src={branding.logoUrl} alt="" height={28} width={28} style={{ objectFit: 'contain' }} />
              ) : (
                <IconCheckbox size={22} aria-hidden />
              )}
              <Text fw={700} fz="lg">
                Attendance
              </Text>
            </UnstyledButton>
            {branding?.name && (
              <Text size="sm" c="dimmed" visibleFrom="lg" truncate maw={220}>
                {branding.name}
              </Text>
            )}
          </Group>
          <Group gap={4} visibleFrom="sm" component="nav" aria-label="Main">
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
              <ActionIcon component={Link} to="/account" variant="default" size="lg" aria-label="My account" title="My account" visibleFrom="sm" hiddenFrom="md">
                <IconUserCircle size={18} aria-hidden />
              </ActionIcon>
            )}
            <ColorSchemeToggle />
            <Group gap="xs" wrap="nowrap" visibleFrom="xs">
            {user ? (
              <>
                <Text component={Link} to="/account" size="sm" c="dimmed" visibleFrom="md" truncate maw={180} title="My account">
                  {user.name}
                </Text>
                <Button variant="subtle" size="sm" leftSection={<IconLogout size={16} aria-hidden />} onClick={() => void signOut()} loading={logout.isPending}>
                  Sign out
                </Button>
              </>
            ) : (
              <Button component={Link} to="/login" size="sm" variant="light">
                Sign in
              </Button>
            )}
            </Group>
          </Group>
        </Group>
      </AppShell.Header>
      <Drawer opened={opened} onClose={close} title="Attendance" size="xs" hiddenFrom="sm">
        <Stack gap={4} component="nav" aria-label="Main menu">
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
          {user && <MantineNavLink component={Link} to="/account" label="My account" active={location.pathname === '/account'} onClick={close} />}
          {user ? (
            <MantineNavLink component="button" label="Sign out" leftSection={<IconLogout size={16} aria-hidden />} onClick={() => { close(); void signOut(); }} />
          ) : (
            <MantineNavLink component={Link} to="/login" label="Sign in" onClick={close} />
          )}
        </Stack>
      </Drawer>
      <Modal opened={waitingSaves > 0} onClose={stay} title="Sign out with saves waiting?" centered>
        <Stack gap="md">
          <Text size="sm">
            {waitingSaves === 1 ? 'A register save has' : `${waitingSaves} register saves have`} not reached the server yet. Signing out keeps{' '}
            {waitingSaves === 1 ? 'it' : 'them'} on this device, and {waitingSaves === 1 ? 'it is' : 'they are'} sent when you sign in here again
            with a connection; no one else who signs in here sends {waitingSaves === 1 ? 'it' : 'them'}.
          </Text>
          <Text size="sm">To send {waitingSaves === 1 ? 'it' : 'them'} first, stay signed in until you are back online.</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={stay} data-autofocus>
              Stay signed in
            </Button>
            <Button
              color="red.9"
              onClick={() => {
                stay();
                logout.mutate();
              }}
            >
              Sign out
            </Button>
          </Group>
        </Stack>
      </Modal>
      <AppShell.Main id={MAIN_CONTENT_ID}>
        <Container size="lg" px={0}>
          {/* While signing out the page goes at once: nothing on it starts asking for data. */}
          {logout.isPending ? (
            <PageLoader label="Signing out…" showLabel />
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
