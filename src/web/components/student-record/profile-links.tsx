import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, VisuallyHidden } from '@mantine/core';
import { IconBrandGithub, IconBrandLinkedin, IconCode, IconFileText, IconWorld } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { HttpUrlSchema } from '../../../shared/schemas/common';
import type { Profile } from '../../../shared/schemas/profiles';

export type ProfileLinks = Partial<Pick<Profile, 'linkedin' | 'github' | 'leetcode' | 'resume' | 'portfolio'>>;

/** The sites' names stay as they are; a résumé and a portfolio are named in the language shown. */
const LINKS: { key: keyof ProfileLinks; label: string | MessageDescriptor; Icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean }> }[] = [
  { key: 'linkedin', label: 'LinkedIn', Icon: IconBrandLinkedin },
  { key: 'github', label: 'GitHub', Icon: IconBrandGithub },
  { key: 'leetcode', label: 'LeetCode', Icon: IconCode },
  { key: 'resume', label: msg`Resume`, Icon: IconFileText },
  { key: 'portfolio', label: msg`Portfolio`, Icon: IconWorld },
];

/**
 * Only http(s) links may become an href: the server refuses anything else, but the preview shows
 * what is being typed, and a `javascript:` link must never be clickable.
 */
export function isHttpUrl(value: string | null | undefined): value is string {
  return !!value && HttpUrlSchema.safeParse(value).success;
}

/** One button per filled link, opening in a new tab without giving that tab access to the portal. */
export function ProfileLinkButtons({ links }: { links: ProfileLinks }) {
  const { i18n } = useLingui();
  const filled = LINKS.filter((link) => isHttpUrl(links[link.key]));
  if (filled.length === 0) return null;
  return (
    <Group gap="xs" justify="center">
      {filled.map(({ key, label, Icon }) => (
        <Button
          key={key}
          component="a"
          href={links[key]!.trim()}
          target="_blank"
          rel="noopener noreferrer"
          variant="light"
          size="xs"
          leftSection={<Icon size={16} aria-hidden />}
        >
          {typeof label === 'string' ? label : i18n._(label)}
          <VisuallyHidden>
            {' '}
            <Trans>(opens in a new tab)</Trans>
          </VisuallyHidden>
        </Button>
      ))}
    </Group>
  );
}
