import { Button, Group, Switch, Table, Text } from '@mantine/core';
import type { MarkStatus } from '../../../../shared/attendance-rules';
import type { AttendanceRecord } from '../../../../shared/schemas/attendance';
import type { RegisterDraft } from '../hooks/use-register-draft';
import classes from './register.module.css';

interface RegisterTableProps {
  records: AttendanceRecord[];
  draft: RegisterDraft;
  disabled?: boolean;
}

const STATUS_WORD: Record<MarkStatus, string> = { present: 'Present', absent: 'Absent', late: 'Late', excused: 'Excused' };

/** A compact toggle for late or excused: pressed sets the status, pressed again goes back to present or absent. */
function StatusToggle(props: {
  status: 'late' | 'excused';
  current: MarkStatus;
  who: string;
  disabled: boolean;
  onChange: (status: MarkStatus) => void;
}) {
  const { status, current, who, disabled, onChange } = props;
  const pressed = current === status;
  const word = STATUS_WORD[status];
  return (
    <Button
      size="compact-xs"
      // Dark text on amber, white on dark blue: both readable (WCAG AA) on any row.
      variant={pressed ? 'filled' : 'default'}
      color={status === 'late' ? 'yellow.4' : 'blue.9'}
      autoContrast
      aria-pressed={pressed}
      aria-label={`${word}: ${who}`}
      disabled={disabled}
      onClick={() => onChange(pressed ? (status === 'late' ? 'present' : 'absent') : status)}
    >
      {word}
    </Button>
  );
}

/**
 * PIN, Name, Class and a Present/Absent switch per student, with compact Late and Excused toggles. On phones the PIN moves under the
 * name and the Class column (one class per register) is left out, so the switch keeps its room.
 */
export function RegisterTable({ records, draft, disabled = false }: RegisterTableProps) {
  return (
    <Table verticalSpacing={4} highlightOnHover striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th visibleFrom="xs">PIN</Table.Th>
          <Table.Th>Name</Table.Th>
          <Table.Th visibleFrom="sm">Class</Table.Th>
          <Table.Th>Present/Absent</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {records.map((record) => {
          const present = draft.isPresent(record.pin);
          const status = draft.statusOf(record.pin);
          const who = `${record.name} (${record.pin})`;
          return (
            <Table.Tr key={record.pin}>
              <Table.Td visibleFrom="xs" ff="monospace">
                {record.pin}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{record.name}</Text>
                <Text size="xs" c="dimmed" ff="monospace" hiddenFrom="xs">
                  {record.pin}
                </Text>
              </Table.Td>
              <Table.Td visibleFrom="sm">{record.class}</Table.Td>
              <Table.Td className={classes.markCell}>
                <Group gap={6} wrap="nowrap">
                  <Switch
                    size="lg"
                    color={status === 'late' ? 'yellow' : 'teal'}
                    checked={present}
                    disabled={disabled}
                    onChange={(event) => draft.setPresent(record.pin, event.currentTarget.checked)}
                    label={STATUS_WORD[status]}
                    // The visible word only says the state; the name tells a screen reader whose mark it is.
                    aria-label={`Present: ${who}`}
                    classNames={{ label: classes.markLabel, body: classes.markBody }}
                  />
                  <StatusToggle status="late" current={status} who={who} disabled={disabled} onChange={(next) => draft.setStatus(record.pin, next)} />
                  <StatusToggle status="excused" current={status} who={who} disabled={disabled} onChange={(next) => draft.setStatus(record.pin, next)} />
                </Group>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
