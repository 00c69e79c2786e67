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
    content = <PageLoader label="Loading profiles" />;
  } else if (profiles.isError) {
    content = <LoadError message="Error loading profiles. Please try again." onRetry={() => void profiles.refetch()} />;
  } else if (profiles.data.length === 0) {
    content = (
      <Stack align="center" gap="xs" py="xl" ta="center" role="status">
        <Text fw={600}>{canManage ? 'No profiles have been approved yet.' : 'You have not registered a profile yet.'}</Text>
        <Button component={Link} to="/register" variant="light">
          {student ? 'Register my profile' : 'Register a profile'}
        </Button>
      </Stack>
    );
  } else {
    const matching = profiles.data.filter((profile) => matchesFilter(profile, deferredFilter));
    content = (
      <Stack gap="md">
        <Text size="sm" c="dimmed" role="status">
          {matching.length === profiles.data.length
            ? `${profiles.data.length} ${profiles.data.length === 1 ? 'profile' : 'profiles'}`
            : `${matching.length} of ${profiles.data.length} profiles match`}
        </Text>
        {matching.length === 0 ? (
          <Text style={{ overflowWrap: 'anywhere' }}>No profiles match “{deferredFilter.trim()}”.</Text>
        ) : (
          <ProfileGrid profiles={matching} page={page} onPageChange={setPage} pagesLabel="Profile pages">
            {(profile) => (
              <Group gap="xs" justify="center" mt="auto" pt="xs">
                <Button
                  component={Link}
                  to={canManage ? `/faculty?pin=${encodeURIComponent(profile.pin)}` : '/faculty'}
                  variant="subtle"
                  size="xs"
                  leftSection={<IconChartBar size={16} aria-hidden />}
                  aria-label={`Attendance of ${profile.name}`}
                >
                  Attendance
                </Button>
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
          {canManage ? 'Registered Profiles' : 'My Profile'}
        </Title>
        {canManage && (
          <TextInput
            label="Filter profiles"
            placeholder="Name, PIN or designation"
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

/**
 * Edit and Delete on a profile's card: a student's own reads "my profile", anyone else's is named
 * for screen readers by whose it is.
 */
function ProfileActions({ own, name, onEdit, onDelete }: { own: boolean; name: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <>
      <Button variant="subtle" size="xs" leftSection={<IconEdit size={16} aria-hidden />} onClick={onEdit} aria-label={own ? undefined : `Edit profile of ${name}`}>
        {own ? 'Edit my profile' : 'Edit'}
      </Button>
      <Button
        variant="subtle"
        color="red"
        size="xs"
        leftSection={<IconTrash size={16} aria-hidden />}
        onClick={onDelete}
        aria-label={own ? undefined : `Delete profile of ${name}`}
      >
        {own ? 'Delete my profile' : 'Delete'}
      </Button>
    </>
  );
}
