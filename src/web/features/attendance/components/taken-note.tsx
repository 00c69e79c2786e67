import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Text } from '@mantine/core';
import type { AttendanceRegister } from '../../../../shared/schemas/attendance';
import { formatDateTime } from '../format';

/** Who took the register and when, or, not taken yet, how it starts (`start`: that sentence, in full). */
export function TakenNote({ register, timeZone, start }: { register: AttendanceRegister; timeZone: string | undefined; start: string }) {
  const { t } = useLingui();
  if (!register.submitted || !register.takenAt) {
    return (
      <Text size="sm" c="dimmed">
        {start}
      </Text>
    );
  }
  const taken = formatDateTime(register.takenAt, timeZone);
  const updated = register.updatedAt ? formatDateTime(register.updatedAt, timeZone) : taken;
  const takenBy = register.takenBy;
  let line;
  if (updated !== taken) line = takenBy ? t`Taken by ${takenBy} on ${taken}, last changed ${updated}.` : t`Taken on ${taken}, last changed ${updated}.`;
  else line = takenBy ? t`Taken by ${takenBy} on ${taken}.` : t`Taken on ${taken}.`;
  return (
    <Alert color="blue" variant="light" p="sm">
      <Text size="sm">{line}</Text>
      <Text size="sm">
        <Trans>Submitting again replaces this register; every changed mark is kept in the change history.</Trans>
      </Text>
    </Alert>
  );
}
