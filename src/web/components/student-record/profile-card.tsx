import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Image, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { isHttpUrl, ProfileLinkButtons, type ProfileLinks } from './profile-links';

export const DEFAULT_AVATAR = '/default-avatar.svg';

/**
 * A student's card: picture, name, designation, PIN and link buttons.
 *
 * Props:
 * - `name`, `designation`, `pin`: shown as given; a blank name or designation shows
 *   `nameFallback` / `designationFallback` instead (defaults 'Student Name' and 'Student'),
 *   a blank PIN hides the PIN line.
 * - `photoUrl`: an uploaded photo (the portal's own address, or the data URL of a file being
 *   uploaded); shown instead of `imageUrl` when present.
 * - `imageUrl`: the picture; not http(s), empty or failing to load shows the default avatar.
 * - `imageAlt`: its description; defaults to 'Profile image of {name}'.
 * - `links`: LinkedIn, GitHub, LeetCode, Resume, Portfolio; a button only for each filled one.
 *   A `Profile` from the API can be passed as it is.
 * - `email`, `phone`: contact lines, shown when present (profiles imported with them have them).
 * - `headingLevel`: the name's heading level (default 2), to fit the page's outline.
 * - `badge`: shown right under the name (read straight after it), e.g. a profile's status.
 * - `children`: extra content at the bottom, e.g. Edit and Delete buttons.
 */
export interface ProfileCardProps {
  name: string | null | undefined;
  designation?: string | null | undefined;
  pin?: string | null | undefined;
  photoUrl?: string | null | undefined;
  imageUrl?: string | null | undefined;
  imageAlt?: string | null | undefined;
  links?: ProfileLinks | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  nameFallback?: string;
  designationFallback?: string;
  headingLevel?: 2 | 3 | 4;
  badge?: ReactNode;
  children?: ReactNode;
}

export function ProfileCard({
  name,
  designation,
  pin,
  photoUrl,
  imageUrl,
  imageAlt,
  links = {},
  email,
  phone,
  nameFallback,
  designationFallback,
  headingLevel = 2,
  badge,
  children,
}: ProfileCardProps) {
  const { t } = useLingui();
  const givenName = name?.trim();
  const shownName = givenName || (nameFallback ?? t`Student Name`);
  const alt = imageAlt?.trim() || (givenName ? t`Profile image of ${givenName}` : t`Profile image of student`);
  const shownPin = pin?.trim();
  return (
    <Card withBorder radius="md" padding="lg" h="100%">
      <Stack align="center" gap="xs" ta="center" h="100%">
        <ProfileImage src={photoUrl || imageUrl} alt={alt} />
        <Title order={headingLevel} fz="lg" style={{ overflowWrap: 'anywhere' }}>
          {shownName}
        </Title>
        {badge}
        <Text c="dimmed" size="sm" style={{ overflowWrap: 'anywhere' }}>
          {designation?.trim() || (designationFallback ?? t`Student`)}
        </Text>
        {shownPin && (
          <Text size="sm" fw={500}>
            <Trans>PIN: {shownPin}</Trans>
          </Text>
        )}
        {email && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {email}
          </Text>
        )}
        {phone && <Text size="sm">{phone}</Text>}
        <ProfileLinkButtons links={links} />
        {children}
      </Stack>
    </Card>
  );
}

/** An uploaded photo as the portal serves it, or as the browser holds it before the upload. */
const OWN_PHOTO = /^(?:\/api\/registrations\/[0-9a-f-]{36}\/photo(?:\?v=[0-9a-f]+)?$|data:image\/(?:png|jpeg|webp);base64,)/;

/** What may become an image's address: an http(s) link someone typed, or an uploaded photo. */
export function imageSource(src: string | null | undefined): string | null {
  if (!src) return null;
  if (OWN_PHOTO.test(src)) return src;
  return isHttpUrl(src) ? src.trim() : null;
}

/** The profile picture, falling back to the default avatar when it is missing or fails to load. */
export function ProfileImage({ src, alt, size = 120 }: { src: string | null | undefined; alt: string; size?: number }) {
  return (
    <Image
      src={imageSource(src)}
      fallbackSrc={DEFAULT_AVATAR}
      alt={alt}
      w={size}
      h={size}
      radius={size}
      fit="cover"
      // Profile pictures live on other sites: do not tell them which portal page is open.
      referrerPolicy="no-referrer"
      loading="lazy"
    />
  );
}
