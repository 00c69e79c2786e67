import { Switch, Table, Text } from '@mantine/core';
import type { AttendanceRecord } from '../../../../shared/schemas/attendance';
import type { RegisterDraft } from '../hooks/use-register-draft';
import classes from './register.module.css';

interface RegisterTableProps {
  records: AttendanceRecord[];
  draft: RegisterDraft;
  disabled?: boolean;
}

/**
 * PIN, Name, Class and a Present/Absent switch per student. On phones the PIN moves under the
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
                <Switch
                  size="lg"
                  color="teal"
                  checked={present}
                  disabled={disabled}
                  onChange={(event) => draft.setPresent(record.pin, event.currentTarget.checked)}
                  label={present ? 'Present' : 'Absent'}
                  // The visible word only says the state; the name tells a screen reader whose mark it is.
                  aria-label={`Present: ${record.name} (${record.pin})`}
                  classNames={{ label: classes.markLabel, body: classes.markBody }}
                />
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
