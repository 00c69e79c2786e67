import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useRef } from 'react';
import type { Profile } from '../../../../shared/schemas/profiles';
import { FormFailure } from '../../../components/forms';
import { ApiError } from '../../../lib/api-client';
import { useDeleteProfile } from '../api/delete-profile';

/**
 * What removing a profile means to the one who does it: staff delete a profile, a student their
 * own, and staff reject a pending one (the same DELETE: it goes and never shows).
 */
export type RemoveProfileKind = 'delete' | 'own' | 'reject';

interface Wording {
  title: string;
  question: (profile: Profile) => string;
  action: string;
  busy: string;
  done: (profile: Profile) => string;
  failed: string;
}

/** What the dialog says for each kind of removal, in the language shown. */
function useWording(kind: RemoveProfileKind): Wording {
  const { t } = useLingui();
  switch (kind) {
    case 'delete':
      return {
        title: t`Delete profile`,
        question: ({ name, pin }) => t`Delete the profile of ${name} (PIN ${pin})? Their attendance records are kept. This cannot be undone.`,
        action: t`Delete`,
        busy: t`Deleting...`,
        done: ({ name }) => t`The profile of ${name} has been deleted.`,
        failed: t`Error deleting the profile. Please try again.`,
      };
    case 'own':
      return {
        title: t`Delete my profile`,
        question: ({ pin }) => t`Delete your profile (PIN ${pin})? Your attendance records are kept. You can register a new profile afterwards.`,
        action: t`Delete`,
        busy: t`Deleting...`,
        done: () => t`Your profile has been deleted.`,
        failed: t`Error deleting the profile. Please try again.`,
      };
    case 'reject':
      return {
        title: t`Reject profile`,
        question: ({ name, pin }) =>
          t`Reject the profile of ${name} (PIN ${pin})? It is deleted without being shown anywhere; the student can still register their own. This cannot be undone.`,
        action: t`Reject`,
        busy: t`Rejecting...`,
        done: ({ name }) => t`The profile of ${name} has been rejected and deleted.`,
        failed: t`Error rejecting the profile. Please try again.`,
      };
  }
}

/**
 * Asks before a profile is removed; attendance records are kept, only the profile goes.
 * `onRemoved` runs once the dialog has closed after a removal, e.g. to put the keyboard focus
 * somewhere sensible now that the card (and the button that opened the dialog) is gone.
 */
export function DeleteProfileModal({
  profile,
  kind = 'delete',
  onClose,
  onRemoved,
}: {
  profile: Profile | null;
  kind?: RemoveProfileKind;
  onClose: () => void;
  onRemoved?: () => void;
}) {
  const { t } = useLingui();
  const remove = useDeleteProfile();
  const removed = useRef(false);
  const wording = useWording(kind);
  const close = () => {
    remove.reset();
    onClose();
  };
  const failure = remove.error
    ? remove.error instanceof ApiError && remove.error.status === 404
      ? t`This profile has already been deleted.`
      : wording.failed
    : null;
  return (
    <Modal
      opened={profile !== null}
      onClose={close}
      title={wording.title}
      onExitTransitionEnd={() => {
        if (removed.current) onRemoved?.();
        removed.current = false;
      }}
    >
      {profile && (
        <Stack gap="md">
          <Text style={{ overflowWrap: 'anywhere' }}>{wording.question(profile)}</Text>
          {failure && <FormFailure>{failure}</FormFailure>}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={remove.isPending}>
              <Trans>Cancel</Trans>
            </Button>
            <Button
              color="red"
              disabled={remove.isPending}
              leftSection={remove.isPending ? <Loader size={16} color="gray" aria-hidden /> : undefined}
              onClick={() =>
                remove.mutate(profile.id, {
                  onSuccess: () => {
                    notifications.show({ color: 'green', message: wording.done(profile) });
                    removed.current = true;
                    close();
                  },
                })
              }
            >
              {remove.isPending ? wording.busy : wording.action}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
