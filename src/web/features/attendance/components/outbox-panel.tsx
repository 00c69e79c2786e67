import { Alert, Button, Group, Radio, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconCloudUpload, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import type { MarkStatus } from '../../../../shared/attendance-rules';
import { MAX_REASON_LENGTH } from '../../../../shared/schemas/attendance';
import { bindValue } from '../../../components/forms';
import type { QueuedSave } from '../../../lib/offline-store';
import { formatDateTime, formatLongDate } from '../format';
import type { RegisterOutbox } from '../hooks/use-register-outbox';
import { isSendable, isStale } from '../outbox';

const STATUS_WORD: Record<MarkStatus, string> = { present: 'Present', absent: 'Absent', late: 'Late', excused: 'Excused' };

function placeOf(save: QueuedSave): string {
  return `${save.class}, ${formatLongDate(save.date)}${save.period > 0 ? `, period ${save.period}` : ''}`;
}

/**
 * The saves waiting on the device: how many, "Sync now", a warning for old ones, a refusal to
 * discard, and for a register changed meanwhile (412) the marks saved beside the queued ones, for
 * the user to choose per student and send again with a reason.
 */
export function OutboxPanel({ outbox, timeZone }: { outbox: RegisterOutbox; timeZone: string | undefined }) {
  const waiting = outbox.saves.filter(isSendable);
  const stale = waiting.filter((save) => isStale(save));
  const refused = outbox.saves.filter((save) => save.refusal);
  const conflicted = outbox.saves.filter((save) => save.conflict);
  if (outbox.saves.length === 0 && outbox.dropped.length === 0) return null;
  return (
    <Stack gap="sm">
      {waiting.length > 0 && (
        <Alert color="blue" variant="light" icon={<IconCloudUpload size={18} aria-hidden />} role="status">
          <Group justify="space-between" gap="sm">
            <Text size="sm">
              Saved on this device; it will be sent when you are online. <strong>{waiting.length} waiting</strong>
            </Text>
            <Button size="compact-sm" variant="default" leftSection={<IconRefresh size={16} aria-hidden />} loading={outbox.syncing} onClick={() => void outbox.syncNow()}>
              Sync now
            </Button>
          </Group>
        </Alert>
      )}
      {stale.map((save) => (
        <Alert key={`stale-${save.id}`} color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
          The register of {placeOf(save)} has waited on this device since {formatDateTime(save.queuedAt, timeZone)}. Connect to send it: the
          portal accepts marks up to 7 days old.
        </Alert>
      ))}
      {refused.map((save) => (
        <Alert key={`refused-${save.id}`} color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
          <Group justify="space-between" gap="sm">
            <Text size="sm">
              The register of {placeOf(save)} was not saved: {save.refusal}
            </Text>
            <Button size="compact-sm" variant="default" onClick={() => void outbox.discard(save.id)}>
              Discard
            </Button>
          </Group>
        </Alert>
      ))}
      {outbox.dropped.map((text) => (
        <Alert key={text} color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
          {text}
        </Alert>
      ))}
      {conflicted.map((save) => (
        <ConflictChooser key={save.id} save={save} outbox={outbox} timeZone={timeZone} />
      ))}
    </Stack>
  );
}

type Choice = 'saved' | 'yours';

function ConflictChooser({ save, outbox, timeZone }: { save: QueuedSave; outbox: RegisterOutbox; timeZone: string | undefined }) {
  const conflict = save.conflict!;
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const send = async () => {
    if (conflict.conflicts.some((mark) => !choices[mark.pin])) {
      setError('Choose a mark for every student.');
      return;
    }
    if (!reason.trim()) {
      setError('Give a reason: your marks replace a colleague’s.');
      return;
    }
    setError(null);
    setSending(true);
    try {
      const marks = Object.fromEntries(conflict.conflicts.map((mark) => [mark.pin, choices[mark.pin] === 'saved' ? mark.saved.status : mark.yours]));
      await outbox.resolve(save, marks, reason.trim());
    } finally {
      setSending(false);
    }
  };
  return (
    // No Alert title: its coloured text is too pale on the light background (contrast).
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} role="region" aria-label={`Changed meanwhile: ${placeOf(save)}`}>
      <Stack gap="sm">
        <Text size="sm" fw={600}>
          Changed meanwhile: {placeOf(save)}
        </Text>
        <Text size="sm">{conflict.message}. Choose, for each student, the mark to keep.</Text>
        <Table.ScrollContainer minWidth={480}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Student</Table.Th>
                <Table.Th>Mark to keep</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conflict.conflicts.map((mark) => (
                <Table.Tr key={mark.pin}>
                  <Table.Td>
                    {mark.name} ({mark.pin})
                  </Table.Td>
                  <Table.Td>
                    <Radio.Group
                      value={choices[mark.pin] ?? null}
                      onChange={(value) => setChoices((all) => ({ ...all, [mark.pin]: value as Choice }))}
                    >
                      <Stack gap={4}>
                        <Radio
                          value="saved"
                          label={`Saved: ${STATUS_WORD[mark.saved.status]}, by ${mark.saved.by ?? 'a removed account'} at ${formatDateTime(mark.saved.markedAt ?? mark.saved.at, timeZone)}`}
                        />
                        <Radio value="yours" label={`Yours: ${STATUS_WORD[mark.yours]}`} />
                      </Stack>
                    </Radio.Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <TextInput label="Reason for sending your marks" required {...bindValue(reason, setReason)} maxLength={MAX_REASON_LENGTH} maw={560} />
        {error && (
          <Text size="sm" c="red.9" role="alert">
            {error}
          </Text>
        )}
        <Group gap="sm">
          <Button onClick={() => void send()} loading={sending}>
            Send again
          </Button>
          <Button variant="default" onClick={() => void outbox.discard(save.id)} disabled={sending}>
            Discard my marks
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
