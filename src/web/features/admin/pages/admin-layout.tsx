import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { NavLink, Outlet, useLocation } from 'react-router';

/** The administration sections, in the order of the setup checklist. */
export const ADMIN_SECTIONS = [
  { to: '/admin', label: 'Overview' },
  { to: '/admin/classes', label: 'Classes' },
  { to: '/admin/subjects', label: 'Subjects' },
  { to: '/admin/roster', label: 'Roster' },
  { to: '/admin/terms', label: 'Terms' },
  { to: '/admin/users', label: 'Accounts' },
  { to: '/admin/audit', label: 'Audit trail' },
  { to: '/admin/import', label: 'Import' },
  { to: '/admin/alerts', label: 'Alerts' },
] as const;

/** /admin/*: the administration pages (admins only), with a menu of the sections. */
export function AdminLayout() {
  const location = useLocation();
  const isCurrent = (to: string) => (to === '/admin' ? location.pathname.replace(/\/$/, '') === '/admin' : location.pathname.startsWith(to));

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Administration</Title>
        <Text c="dimmed">Accounts, classes, the roster, terms, alerts and the audit trail of the portal.</Text>
      </Stack>
      <Group component="nav" aria-label="Administration" gap={4} wrap="nowrap" style={{ overflowX: 'auto' }} pb={4}>
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
            {section.label}
          </Button>
        ))}
      </Group>
      <Outlet />
    </Stack>
  );
}

export default AdminLayout;
