import type { MessageDescriptor } from '@lingui/core';
import { msg, ph } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Modal, Stack, Table, Text, Textarea, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import type { CheckinEntry, CheckinFlag } from '../../../../shared/schemas/checkins';
import { formatTime } from '../../../lib/calendar-date';
import classes from './projector.module.css';

/** Each flag in words: the badge says it, its colour only repeats it. */
export const FLAG_WORDS: Record<CheckinFlag, MessageDescriptor> = {
  'shared-device': msg`Shared device`,
  'new-device': msg`New device`,
  'no-device-key': msg`No device key`,
  'invalid-signature': msg`Signature not valid`,
};

const STATUS_WORDS: Record<string, MessageDescriptor> = { present: msg`Present`, late: msg`Late`, absent: msg`Absent`, excused: msg`Excused` };

/** The time of a check-in, in this device's zone. */
function timeOf(iso: string): string {
  return formatTime(iso, undefined);
}

/** The students checked in, newest first, with their flags and a Remove button each. */
export function CheckinEntries({
  entries,
  onRemove,
  removing,
}: {
  entries: CheckinEntry[];
  onRemove: (pin: string, reason: string) => Promise<unknown>;
  removing: boolean;
}) {
  const { t, i18n } = useLingui();
  const [asking, setAsking] = useState<CheckinEntry | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const markWord = (status: string) => {
    const word = STATUS_WORDS[status];
    return word ? i18n._(word) : status;
  };
  const shown = [...entries].sort((a, b) => b.at.localeCompare(a.at));

  const close = () => {
    setAsking(null);
    setReason('');
    setError(null);
  };
  const confirm = () => {
    if (!asking) return;
    if (!reason.trim()) {
      setError(t`Give the reason for removing the check-in`);
      return;
    }
    onRemove(asking.pin, reason.trim()).then(close, (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)));
  };

  return (
    <>
      {shown.length === 0 ? (
        <Text c="dimmed" className={classes.name}>
          <Trans>No one has checked in yet.</Trans>
        </Text>
      ) : (
        <div className={classes.list}>
          <Table verticalSpacing="xs" aria-label={t`Students checked in`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Trans>Student</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Time</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Mark</Trans>
                </Table.Th>
                <Table.Th>
                  <VisuallyHidden>
                    <Trans>Actions</Trans>
                  </VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((entry) => (
                <Table.Tr key={entry.pin}>
                  <Table.Td>
                    <Text className={classes.name} fw={600} td={entry.removed ? 'line-through' : undefined}>
                      {entry.name}
                    </Text>
                    <Group gap={4}>
                      <Text size="sm" c="dimmed" ff="monospace">
                        {entry.pin}
                      </Text>
                      {entry.flags.map((flag) => (
                        <Badge key={flag} color="orange.9" c="var(--portal-text-warning)" variant="outline" size="sm">
                          {i18n._(FLAG_WORDS[flag])}
                        </Badge>
                      ))}
                      {entry.removed && (
                        <Badge color="gray.8" variant="outline" size="sm" title={entry.removed.reason}>
                          {t`Removed: ${ph({ reason: entry.removed.reason })}`}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{timeOf(entry.at)}</Table.Td>
                  <Table.Td>{entry.markKept ? t`${ph({ mark: markWord(entry.status) })} (your mark kept)` : markWord(entry.status)}</Table.Td>
                  <Table.Td>
                    {!entry.removed && (
                      <Button size="compact-sm" variant="default" onClick={() => setAsking(entry)} aria-label={t`Remove ${ph({ name: entry.name })}'s check-in`}>
                        <Trans>Remove</Trans>
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
      <Modal opened={asking !== null} onClose={close} title={asking ? t`Remove ${ph({ name: asking.name })}'s check-in` : t`Remove a check-in`}>
        <Stack gap="sm">
          <Text size="sm">
            <Trans>Their mark goes back to what it was before they checked in. The reason is kept in the register&apos;s history.</Trans>
          </Text>
          <Textarea
            label={t`Reason`}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            maxLength={500}
            error={error}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              <Trans>Cancel</Trans>
            </Button>
            <Button color="red.8" onClick={confirm} loading={removing}>
              <Trans>Remove check-in</Trans>
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
