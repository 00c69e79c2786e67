import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Profile } from '../../../../shared/schemas/profiles';
import { ApiError } from '../../../lib/api-client';
import { useDeleteProfile } from '../api/delete-profile';

/** Asks before a profile is removed; attendance records are kept, only the profile goes. */
export function DeleteProfileModal({ profile, onClose }: { profile: Profile | null; onClose: () => void }) {
  const remove = useDeleteProfile();
  const close = () => {
    remove.reset();
    onClose();
  };
  const failure = remove.error
    ? remove.error instanceof ApiError && remove.error.status === 404
      ? 'This profile has already been deleted.'
      : 'Error deleting the profile. Please try again.'
    : null;
  return (
    <Modal opened={profile !== null} onClose={close} title="Delete profile">
      {profile && (
        <Stack gap="md">
          <Text style={{ overflowWrap: 'anywhere' }}>
            Delete the profile of {profile.name} (PIN {profile.pin})? Their attendance records are kept. This cannot be undone.
          </Text>
          {failure && <Alert color="red">{failure}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button
              color="red"
              disabled={remove.isPending}
              leftSection={remove.isPending ? <Loader size={16} color="gray" aria-hidden /> : undefined}
              onClick={() =>
                remove.mutate(profile.id, {
                  onSuccess: () => {
                    notifications.show({ color: 'green', message: `The profile of ${profile.name} has been deleted.` });
                    close();
                  },
                })
              }
            >
              {remove.isPending ? 'Deleting...' : 'Delete'}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
