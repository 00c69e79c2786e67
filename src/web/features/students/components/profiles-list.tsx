import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconChartBar, IconEdit, IconSearch, IconTrash } from '@tabler/icons-react';
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { canEditProfile, canManageProfiles, isStudent } from '../../../../shared/access';
import type { User } from '../../../../shared/schemas/auth';
import type { Profile } from '../../../../shared/schemas/profiles';
import { LoadError } from '../../../components/load-states';
import { PageLoader } from '../../../components/page-loader';
import { ProfileGrid } from '../../../components/profile-grid';
import { useProfiles } from '../api/get-profiles';
import { DeleteProfileModal } from './delete-profile-modal';
import { EditProfileModal } from './edit-profile-modal';

/** Case-insensitive match on name, PIN or designation. */
export function matchesFilter(profile: Profile, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (!needle) return true;
  return [profile.name, profile.pin, profile.designation].some((value) => value.toLowerCase().includes(needle));
}

/**
 * The approved profiles as cards (the specification's users component), with a filter box for
 * staff. Who may edit or delete each one is `canEditProfile`: staff any, a student their own
 * (the only one they get). A student without one is offered the registration form.
 */
export function ProfilesList({ viewer }: { viewer: User | null | undefined }) {
  const { t } = useLingui();
  const canManage = canManageProfiles(viewer);
  const student = isStudent(viewer);
  const canEdit = (profile: Profile) => !!viewer && canEditProfile(viewer, profile.pin);
  const isOwn = (profile: Profile) => student && viewer?.pin === profile.pin;
  const profiles = useProfiles('approved');
  const [filter, setFilter] = useState('');
  const deferredFilter = useDeferredValue(filter);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Profile | null>(null);
  const [deleting, setDeleting] = useState<Profile | null>(null);

  let content;
  if (profiles.isPending) {
    content = <PageLoader label={t`Loading profiles`} />;
  } else if (profiles.isError) {
    content = <LoadError message={t`Error loading profiles. Please try again.`} onRetry={() => void profiles.refetch()} />;
  } else if (profiles.data.length === 0) {
    content = (
      <Stack align="center" gap="xs" py="xl" ta="center" role="status">
        <Text fw={600}>{canManage ? t`No profiles have been approved yet.` : t`You have not registered a profile yet.`}</Text>
        <Button component={Link} to="/register" variant="light">
          {student ? t`Register my profile` : t`Register a profile`}
        </Button>
      </Stack>
    );
  } else {
    const matching = profiles.data.filter((profile) => matchesFilter(profile, deferredFilter));
    const count = profiles.data.length;
    const shown = matching.length;
    const typed = deferredFilter.trim();
    content = (
      <Stack gap="md">
        <Text size="sm" c="dimmed" role="status">
          {shown === count ? t`${plural(count, { one: '# profile', other: '# profiles' })}` : t`${shown} of ${count} profiles match`}
        </Text>
        {matching.length === 0 ? (
          <Text style={{ overflowWrap: 'anywhere' }}>{t`No profiles match “${typed}”.`}</Text>
        ) : (
          <ProfileGrid profiles={matching} page={page} onPageChange={setPage} pagesLabel={t`Profile pages`}>
            {(profile) => (
              <Group gap="xs" justify="center" mt="auto" pt="xs">
                <AttendanceLink profile={profile} canManage={canManage} />
                {(isOwn(profile) || canEdit(profile)) && (
                  <ProfileActions
                    own={isOwn(profile)}
                    name={profile.name}
                    onEdit={() => setEditing(profile)}
                    onDelete={() => setDeleting(profile)}
                  />
                )}
              </Group>
            )}
          </ProfileGrid>
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="md" component="section" aria-labelledby="profiles-heading">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Title order={2} id="profiles-heading">
          {canManage ? t`Registered Profiles` : t`My Profile`}
        </Title>
        {canManage && (
          <TextInput
            label={t`Filter profiles`}
            placeholder={t`Name, PIN or designation`}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={filter}
            onChange={(event) => {
              setFilter(event.currentTarget.value);
              setPage(1);
            }}
            w={{ base: '100%', xs: 280 }}
          />
        )}
      </Group>
      {content}
      <EditProfileModal profile={editing} own={!!editing && isOwn(editing)} onClose={() => setEditing(null)} />
      <DeleteProfileModal profile={deleting} kind={deleting && isOwn(deleting) ? 'own' : 'delete'} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

/** A profile's Attendance button: staff open the student's record, a student their own page. */
function AttendanceLink({ profile, canManage }: { profile: Profile; canManage: boolean }) {
  const { t } = useLingui();
  const { name } = profile;
  return (
    <Button
      component={Link}
      to={canManage ? `/faculty?pin=${encodeURIComponent(profile.pin)}` : '/faculty'}
      variant="subtle"
      size="xs"
      leftSection={<IconChartBar size={16} aria-hidden />}
      aria-label={t`Attendance of ${name}`}
    >
      {t`Attendance`}
    </Button>
  );
}

/**
 * Edit and Delete on a profile's card: a student's own reads "my profile", anyone else's is named
 * for screen readers by whose it is.
 */
function ProfileActions({ own, name, onEdit, onDelete }: { own: boolean; name: string; onEdit: () => void; onDelete: () => void }) {
  const { t } = useLingui();
  return (
    <>
      <Button variant="subtle" size="xs" leftSection={<IconEdit size={16} aria-hidden />} onClick={onEdit} aria-label={own ? undefined : t`Edit profile of ${name}`}>
        {own ? t`Edit my profile` : t`Edit`}
      </Button>
      <Button
        variant="subtle"
        color="red"
        size="xs"
        leftSection={<IconTrash size={16} aria-hidden />}
        onClick={onDelete}
        aria-label={own ? undefined : t`Delete profile of ${name}`}
      >
        {own ? t`Delete my profile` : t`Delete`}
      </Button>
    </>
  );
}
