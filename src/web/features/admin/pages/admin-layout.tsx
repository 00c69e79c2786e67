import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { NavLink, Outlet, useLocation } from 'react-router';

/** The administration sections, in the order of the setup checklist. */
export const ADMIN_SECTIONS = [
  { to: '/admin', label: msg`Overview` },
  { to: '/admin/classes', label: msg`Classes` },
  { to: '/admin/subjects', label: msg`Subjects` },
  { to: '/admin/roster', label: msg`Roster` },
  { to: '/admin/terms', label: msg`Terms` },
  { to: '/admin/users', label: msg`Accounts` },
  { to: '/admin/audit', label: msg`Audit trail` },
  { to: '/admin/import', label: msg`Import` },
  { to: '/admin/alerts', label: msg`Alerts` },
] as const;

/** /admin/*: the administration pages (admins only), with a menu of the sections. */
export function AdminLayout() {
  const { t, i18n } = useLingui();
  const location = useLocation();
  const isCurrent = (to: string) => (to === '/admin' ? location.pathname.replace(/\/$/, '') === '/admin' : location.pathname.startsWith(to));

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Administration</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>Accounts, classes, the roster, terms, alerts and the audit trail of the portal.</Trans>
        </Text>
      </Stack>
      <Group component="nav" aria-label={t`Administration`} gap={4} wrap="nowrap" style={{ overflowX: 'auto' }} pb={4}>
        {ADMIN_SECTIONS.map((section) => (
          <Button
            key={section.to}
            component={NavLink}
            to={section.to}
            end={section.to === '/admin'}
            size="sm"
            // Filled for the current section: white on shade 8 keeps the contrast above 4.5:1.
            variant={isCurrent(section.to) ? 'filled' : 'subtle'}
            style={{ flexShrink: 0 }}
          >
            {i18n._(section.label)}
          </Button>
        ))}
      </Group>
      <Outlet />
    </Stack>
  );
}

export default AdminLayout;
