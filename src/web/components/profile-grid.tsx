import { Center, Pagination, SimpleGrid } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Profile } from '../../shared/schemas/profiles';
import { ProfileCard } from './student-record';

/** How many profiles a page of the grid shows. */
export const PROFILE_PAGE_SIZE = 12;

/**
 * Profiles as cards (one, two or three a row as the screen allows), a page of twelve at a time,
 * with the pages below when there are more.
 *
 * Props:
 * - `profiles`: all of them, in their order; `page` is the page shown (1 on), kept by the caller
 *   (a new filter starts again at 1), `onPageChange` asks for another.
 * - `pagesLabel`: the name of the pages' navigation.
 * - `badge`: under each name (the profile's status); `children`: at the bottom of each card (its
 *   actions).
 */
export function ProfileGrid({
  profiles,
  page,
  onPageChange,
  pagesLabel,
  badge,
  children,
}: {
  profiles: Profile[];
  page: number;
  onPageChange: (page: number) => void;
  pagesLabel: string;
  badge?: (profile: Profile) => ReactNode;
  children: (profile: Profile) => ReactNode;
}) {
  const pages = Math.max(1, Math.ceil(profiles.length / PROFILE_PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = profiles.slice((current - 1) * PROFILE_PAGE_SIZE, current * PROFILE_PAGE_SIZE);
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {shown.map((profile) => (
          <li key={profile.id}>
            <ProfileCard
              name={profile.name}
              designation={profile.designation}
              pin={profile.pin}
              photoUrl={profile.photoUrl}
              imageUrl={profile.imageUrl}
              imageAlt={profile.imageAlt}
              links={profile}
              email={profile.email}
              phone={profile.phone}
              headingLevel={3}
              badge={badge?.(profile)}
            >
              {children(profile)}
            </ProfileCard>
          </li>
        ))}
      </SimpleGrid>
      {pages > 1 && (
        <Center>
          <Pagination total={pages} value={current} onChange={onPageChange} aria-label={pagesLabel} />
        </Center>
      )}
    </>
  );
}
