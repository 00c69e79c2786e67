import { Anchor, Group } from '@mantine/core';
import { Link } from 'react-router';

export const NOTICE_LINKS = [
  { to: '/privacy', label: 'Privacy' },
  { to: '/accessibility', label: 'Accessibility' },
] as const;

/** The footer's links to the privacy notice and the accessibility statement, inside the app's router. */
export function NoticeFooter() {
  return (
    <Group component="footer" justify="center" gap="lg" py="md" mt="xl" aria-label="Notices">
      {NOTICE_LINKS.map((link) => (
        <Anchor key={link.to} component={Link} to={link.to} size="sm" c="dimmed">
          {link.label}
        </Anchor>
      ))}
    </Group>
  );
}
