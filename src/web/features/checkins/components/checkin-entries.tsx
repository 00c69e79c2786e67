import { Badge, Button, Group, Modal, Stack, Table, Text, Textarea, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import type { CheckinEntry, CheckinFlag } from '../../../../shared/schemas/checkins';
import classes from './projector.module.css';

/** Each flag in words: the badge says it, its colour only repeats it. */
export const FLAG_WORDS: Record<CheckinFlag, string> = {
  'shared-device': 'Shared device',
  'new-device': 'New device',
  'no-device-key': 'No device key',
  'invalid-signature': 'Signature not valid',
};

const STATUS_WORDS: Record<string, string> = { present: 'Present', late: 'Late', absent: 'Absent', excused: 'Excused' };

function timeOf(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
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
  const [asking, setAsking] = useState<CheckinEntry | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const shown = [...entries].sort((a, b) => b.at.localeCompare(a.at));

  const close = () => {
    setAsking(null);
    setReason('');
    setError(null);
  };
  const confirm = () => {
    if (!asking) return;
    if (!reason.trim()) {
      setError('Give the reason for removing the check-in');
      return;
    }
    onRemove(asking.pin, reason.trim()).then(close, (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)));
  };

  return (
    <>
      {shown.length === 0 ? (
        <Text c="dimmed" className={classes.name}>
          No one has checked in yet.
        </Text>
      ) : (
        <div className={classes.list}>
          <Table verticalSpacing="xs" aria-label="Students checked in">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Student</Table.Th>
                <Table.Th>Time</Table.Th>
                <Table.Th>Mark</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
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
                          {FLAG_WORDS[flag]}
                        </Badge>
                      ))}
                      {entry.removed && (
                        <Badge color="gray.8" variant="outline" size="sm" title={entry.removed.reason}>
                          Removed: {entry.removed.reason}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{timeOf(entry.at)}</Table.Td>
                  <Table.Td>
                    {STATUS_WORDS[entry.status] ?? entry.status}
                    {entry.markKept ? ' (your mark kept)' : ''}
                  </Table.Td>
                  <Table.Td>
                    {!entry.removed && (
                      <Button size="compact-sm" variant="default" onClick={() => setAsking(entry)} aria-label={`Remove ${entry.name}'s check-in`}>
                        Remove
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
      <Modal opened={asking !== null} onClose={close} title={asking ? `Remove ${asking.name}'s check-in` : 'Remove a check-in'}>
        <Stack gap="sm">
          <Text size="sm">Their mark goes back to what it was before they checked in. The reason is kept in the register&apos;s history.</Text>
          <Textarea
            label="Reason"
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            maxLength={500}
            error={error}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red.8" onClick={confirm} loading={removing}>
              Remove check-in
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
