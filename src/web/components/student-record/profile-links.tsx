import { Button, Group, VisuallyHidden } from '@mantine/core';
import { IconBrandGithub, IconBrandLinkedin, IconCode, IconFileText, IconWorld } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { HttpUrlSchema } from '../../../shared/schemas/common';
import type { Profile } from '../../../shared/schemas/profiles';

export type ProfileLinks = Partial<Pick<Profile, 'linkedin' | 'github' | 'leetcode' | 'resume' | 'portfolio'>>;

const LINKS: { key: keyof ProfileLinks; label: string; Icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean }> }[] = [
  { key: 'linkedin', label: 'LinkedIn', Icon: IconBrandLinkedin },
  { key: 'github', label: 'GitHub', Icon: IconBrandGithub },
  { key: 'leetcode', label: 'LeetCode', Icon: IconCode },
  { key: 'resume', label: 'Resume', Icon: IconFileText },
  { key: 'portfolio', label: 'Portfolio', Icon: IconWorld },
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
          {label}
          <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
        </Button>
      ))}
    </Group>
  );
}
