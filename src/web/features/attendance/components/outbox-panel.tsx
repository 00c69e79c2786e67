import type { I18n } from '@lingui/core';
import { msg, ph } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Radio, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconCloudUpload, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import type { MarkStatus } from '../../../../shared/attendance-rules';
import { MAX_REASON_LENGTH } from '../../../../shared/schemas/attendance';
import { bindValue } from '../../../components/forms';
import { serverText } from '../../../i18n/server-text';
import type { QueuedSave } from '../../../lib/offline-store';
import { formatDateTime, formatLongDate } from '../format';
import type { RegisterOutbox } from '../hooks/use-register-outbox';
import { isSendable, isStale } from '../outbox';

const STATUS_WORD = { present: msg`Present`, absent: msg`Absent`, late: msg`Late`, excused: msg`Excused` } as const satisfies Record<MarkStatus, unknown>;

function placeOf(save: QueuedSave, i18n: I18n): string {
  const { class: className, period } = save;
  const date = formatLongDate(save.date);
  return period > 0 ? i18n._(msg`${className}, ${date}, period ${period}`) : i18n._(msg`${className}, ${date}`);
}

/**
 * The saves waiting on the device: how many, "Sync now", a warning for old ones, a refusal to
 * discard, and for a register changed meanwhile (412) the marks saved beside the queued ones, for
 * the user to choose per student and send again with a reason.
 */
export function OutboxPanel({ outbox, timeZone }: { outbox: RegisterOutbox; timeZone: string | undefined }) {
  const { i18n } = useLingui();
  const waiting = outbox.saves.filter(isSendable);
  const waitingCount = waiting.length;
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
              <Trans>
                Saved on this device; it will be sent when you are online. <strong>{waitingCount} waiting</strong>
              </Trans>
            </Text>
            <Button size="compact-sm" variant="default" leftSection={<IconRefresh size={16} aria-hidden />} loading={outbox.syncing} onClick={() => void outbox.syncNow()}>
              <Trans>Sync now</Trans>
            </Button>
          </Group>
        </Alert>
      )}
      {stale.map((save) => (
        <Alert key={`stale-${save.id}`} color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
          {i18n._(
            msg`The register of ${ph({ place: placeOf(save, i18n) })} has waited on this device since ${ph({ since: formatDateTime(save.queuedAt, timeZone) })}. Connect to send it: the portal accepts marks up to 7 days old.`,
          )}
        </Alert>
      ))}
      {refused.map((save) => (
        <Alert key={`refused-${save.id}`} color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
          <Group justify="space-between" gap="sm">
            <Text size="sm">
              {i18n._(msg`The register of ${ph({ place: placeOf(save, i18n) })} was not saved: ${ph({ refusal: serverText(save.refusal) ?? '' })}`)}
            </Text>
            <Button size="compact-sm" variant="default" onClick={() => void outbox.discard(save.id)}>
              <Trans>Discard</Trans>
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
  const { t, i18n } = useLingui();
  const removedAccount = t`a removed account`;
  const conflict = save.conflict!;
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const send = async () => {
    if (conflict.conflicts.some((mark) => !choices[mark.pin])) {
      setError(t`Choose a mark for every student.`);
      return;
    }
    if (!reason.trim()) {
      setError(t`Give a reason: your marks replace a colleague’s.`);
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
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} role="region" aria-label={t`Changed meanwhile: ${ph({ place: placeOf(save, i18n) })}`}>
      <Stack gap="sm">
        <Text size="sm" fw={600}>
          {t`Changed meanwhile: ${ph({ place: placeOf(save, i18n) })}`}
        </Text>
        <Text size="sm">{t`${ph({ message: serverText(conflict.message) })}. Choose, for each student, the mark to keep.`}</Text>
        <Table.ScrollContainer minWidth={480}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Trans>Student</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Mark to keep</Trans>
                </Table.Th>
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
                          label={t`Saved: ${ph({ status: i18n._(STATUS_WORD[mark.saved.status]) })}, by ${ph({ by: mark.saved.by ?? removedAccount })} at ${ph({ time: formatDateTime(mark.saved.markedAt ?? mark.saved.at, timeZone) })}`}
                        />
                        <Radio value="yours" label={t`Yours: ${ph({ status: i18n._(STATUS_WORD[mark.yours]) })}`} />
                      </Stack>
                    </Radio.Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <TextInput label={t`Reason for sending your marks`} required {...bindValue(reason, setReason)} maxLength={MAX_REASON_LENGTH} maw={560} />
        {error && (
          <Text size="sm" c="red.9" role="alert">
            {error}
          </Text>
        )}
        <Group gap="sm">
          <Button onClick={() => void send()} loading={sending}>
            <Trans>Send again</Trans>
          </Button>
          <Button variant="default" onClick={() => void outbox.discard(save.id)} disabled={sending}>
            <Trans>Discard my marks</Trans>
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
