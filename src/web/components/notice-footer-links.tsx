import { Anchor, Group } from '@mantine/core';
import type { MouseEvent } from 'react';

// Without the router: the sign-in page's own shell shows it, and loads no router.
const LINKS = [
  { to: '/privacy', label: 'Privacy' },
  { to: '/accessibility', label: 'Accessibility' },
] as const;

/** The same links where there is no router (the sign-in page's own shell): `follow` opens them. */
export function NoticeFooterLinks({ follow }: { follow: (path: string) => (event: MouseEvent<HTMLAnchorElement>) => void }) {
  return (
    <Group component="footer" justify="center" gap="lg" mt="md" aria-label="Notices">
      {LINKS.map((link) => (
        <Anchor key={link.to} href={link.to} onClick={follow(link.to)} size="sm" c="dimmed">
          {link.label}
        </Anchor>
      ))}
    </Group>
  );
}
