import { Alert, ScrollArea, Table, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { RosterLineError } from '../../../../shared/schemas/roster';

/** The problems of a roster file, by line: shown first, and nothing can be imported until they are fixed. */
export function RosterErrors({ errors }: { errors: RosterLineError[] }) {
  const noun = errors.length === 1 ? 'problem' : 'problems';
  return (
    <Alert
      color="red"
      icon={<IconAlertCircle size={18} aria-hidden />}
      title={`The file has ${errors.length} ${noun}: fix ${errors.length === 1 ? 'it' : 'them'} and choose the file again`}
      role="alert"
    >
      <Text size="sm" mb="xs">
        Nothing can be imported until the file has no problems. Lines are counted as in a text editor, the header being
        line 1.
      </Text>
      <ScrollArea.Autosize type="auto" mah={320}>
        <Table verticalSpacing={4} aria-label="Problems in the file">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col" w={72}>
                Line
              </Table.Th>
              <Table.Th scope="col">Problem</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {errors.map((error, index) => (
              <Table.Tr key={`${error.line ?? 'file'}-${index}`}>
                <Table.Td>{error.line ?? '—'}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{error.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Alert>
  );
}
