import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Anchor, Group } from '@mantine/core';
import type { MouseEvent } from 'react';

// Without the router: the sign-in page's own shell shows it, and loads no router.
const LINKS = [
  { to: '/privacy', label: msg`Privacy` },
  { to: '/accessibility', label: msg`Accessibility` },
] as const;

/** The same links where there is no router (the sign-in page's own shell): `follow` opens them. */
export function NoticeFooterLinks({ follow }: { follow: (path: string) => (event: MouseEvent<HTMLAnchorElement>) => void }) {
  const { i18n } = useLingui();
  return (
    <Group component="footer" justify="center" gap="lg" mt="md" aria-label={i18n._(msg`Notices`)}>
      {LINKS.map((link) => (
        <Anchor key={link.to} href={link.to} onClick={follow(link.to)} size="sm" c="dimmed">
          {i18n._(link.label)}
        </Anchor>
      ))}
    </Group>
  );
}
