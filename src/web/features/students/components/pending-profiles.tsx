import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { Profile } from '../../../../shared/schemas/profiles';
import { LoadError } from '../../../components/load-states';
import { PageLoader } from '../../../components/page-loader';
import { ProfileGrid } from '../../../components/profile-grid';
import { BandBadge } from '../../../components/student-record';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/calendar-date';
import { useApproveProfile } from '../api/approve-profile';
import { useProfiles } from '../api/get-profiles';
import { DeleteProfileModal } from './delete-profile-modal';

/**
 * Staff review the profiles registered by someone not signed in as that student:
 * until approved, a profile shows nowhere else. Approve shows it; Reject asks, then deletes it.
 * Only staff get pending profiles from the server, so their pictures are shown here to staff only.
 */
export function PendingProfiles() {
  const { t } = useLingui();
  const pending = useProfiles('pending');
  const approve = useApproveProfile();
  const [rejecting, setRejecting] = useState<Profile | null>(null);
  const [page, setPage] = useState(1);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // After an approval or a rejection the card, and the button that had the focus, leave the list
  // when its new answer renders, which may be before or after the success is known. Until the list
  // has changed, a focus that was lost goes to the section's heading: keyboard users stay here.
  const [refocusSince, setRefocusSince] = useState<{ list: unknown } | null>(null);
  useEffect(() => {
    if (!refocusSince) return;
    const frame = requestAnimationFrame(() => {
      const active = document.activeElement;
      if (!active || active === document.body || !active.isConnected) headingRef.current?.focus();
      else if (pending.data === refocusSince.list) return;
      // The focus was kept here, or the list changed and it survived (elsewhere, on purpose).
      setRefocusSince(null);
    });
    return () => cancelAnimationFrame(frame);
  }, [refocusSince, pending.data]);
  const refocus = () => setRefocusSince({ list: pending.data });

  const approveProfile = (profile: Profile) => {
    const { name } = profile;
    approve.mutate(profile.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: t`The profile of ${name} has been approved. It now shows on their record.` });
        refocus();
      },
      onError: (error) => {
        notifications.show({
          color: 'red',
          message:
            error instanceof ApiError && error.status === 404
              ? t`The profile of ${name} is no longer waiting for review.`
              : t`Error approving the profile. Please try again.`,
        });
        if (error instanceof ApiError && error.status === 404) void pending.refetch();
      },
    });
  };

  let content;
  if (pending.isPending) {
    content = <PageLoader label={t`Loading profiles waiting for review`} />;
  } else if (pending.isError) {
    content = <LoadError message={t`Error loading the profiles waiting for review. Please try again.`} onRetry={() => void pending.refetch()} />;
  } else if (pending.data.length === 0) {
    content = (
      <Text c="dimmed" role="status">
        <Trans>No profiles are waiting for review.</Trans>
      </Text>
    );
  } else {
    const count = pending.data.length;
    content = (
      <Stack gap="md">
        <Text size="sm" c="dimmed" role="status">
          {t`${plural(count, { one: '# profile is waiting for review', other: '# profiles are waiting for review' })}`}
        </Text>
        <ProfileGrid
          profiles={pending.data}
          page={page}
          onPageChange={setPage}
          pagesLabel={t`Pages of profiles waiting for review`}
          // The status in a colour and a word: the warning band's tint, with readable text.
          badge={() => <BandBadge band="warning">{t`Pending review`}</BandBadge>}
        >
          {(profile) => {
            const approving = approve.isPending && approve.variables === profile.id;
            const { name } = profile;
            const registered = formatDateTime(profile.createdAt, undefined);
            return (
              <>
                <Text size="xs" c="dimmed">
                  <Trans>Registered {registered}</Trans>
                </Text>
                <Group gap="xs" justify="center" mt="auto" pt="xs">
                  <Button
                    size="xs"
                    leftSection={<IconCheck size={16} aria-hidden />}
                    loading={approving}
                    disabled={approve.isPending && !approving}
                    onClick={() => approveProfile(profile)}
                    aria-label={t`Approve profile of ${name}`}
                  >
                    <Trans>Approve</Trans>
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    leftSection={<IconX size={16} aria-hidden />}
                    disabled={approving}
                    onClick={() => setRejecting(profile)}
                    aria-label={t`Reject profile of ${name}`}
                  >
                    <Trans>Reject</Trans>
                  </Button>
                </Group>
              </>
            );
          }}
        </ProfileGrid>
      </Stack>
    );
  }

  return (
    <Stack gap="md" component="section" aria-labelledby="pending-heading">
      <Stack gap={4}>
        <Title order={2} id="pending-heading" ref={headingRef} tabIndex={-1}>
          <Trans>Pending review</Trans>
        </Title>
        <Text size="sm" c="dimmed">
          <Trans>Profiles registered without the student’s sign-in. They show nowhere else until you approve them.</Trans>
        </Text>
      </Stack>
      {content}
      <DeleteProfileModal profile={rejecting} kind="reject" onClose={() => setRejecting(null)} onRemoved={refocus} />
    </Stack>
  );
}
