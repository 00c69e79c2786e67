import { Alert, Text } from '@mantine/core';
import type { AttendanceRegister } from '../../../../shared/schemas/attendance';
import { formatDateTime } from '../format';

/** Who took the register and when, or, not taken yet, how it starts (`start`). */
export function TakenNote({ register, timeZone, start }: { register: AttendanceRegister; timeZone: string | undefined; start: string }) {
  if (!register.submitted || !register.takenAt) {
    return (
      <Text size="sm" c="dimmed">
        Not taken yet for this day: {start}.
      </Text>
    );
  }
  const taken = formatDateTime(register.takenAt, timeZone);
  const updated = register.updatedAt ? formatDateTime(register.updatedAt, timeZone) : taken;
  return (
    <Alert color="blue" variant="light" p="sm">
      <Text size="sm">
        {register.takenBy ? `Taken by ${register.takenBy}` : 'Taken'} on {taken}
        {updated !== taken ? `, last changed ${updated}` : ''}.
      </Text>
      <Text size="sm">Submitting again replaces this register; every changed mark is kept in the change history.</Text>
    </Alert>
  );
}
