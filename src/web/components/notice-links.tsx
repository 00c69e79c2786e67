import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Anchor, Group } from '@mantine/core';
import { Link } from 'react-router';

export const NOTICE_LINKS = [
  { to: '/privacy', label: msg`Privacy` },
  { to: '/accessibility', label: msg`Accessibility` },
] as const;

/** The footer's links to the privacy notice and the accessibility statement, inside the app's router. */
export function NoticeFooter() {
  const { i18n } = useLingui();
  return (
    <Group component="footer" justify="center" gap="lg" py="md" mt="xl" aria-label={i18n._(msg`Notices`)}>
      {NOTICE_LINKS.map((link) => (
        <Anchor key={link.to} component={Link} to={link.to} size="sm" c="dimmed">
          {i18n._(link.label)}
        </Anchor>
      ))}
    </Group>
  );
}
