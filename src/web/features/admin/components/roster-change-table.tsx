import { ScrollArea, Table, Text } from '@mantine/core';
import type { RosterChangeList } from '../../../../shared/schemas/roster';

export type RosterChangeKind = 'added' | 'updated' | 'moved' | 'notInFile';

const CAPTIONS: Record<RosterChangeKind, string> = {
  added: 'Students added',
  updated: 'Students whose name changes',
  moved: 'Students who move class',
  notInFile: 'Students not in the file',
};

/** One list of a roster preview as a table; when the file names more, says how many are not shown. */
export function RosterChangeTable({ kind, list }: { kind: RosterChangeKind; list: RosterChangeList }) {
  if (list.count === 0) {
    return (
      <Text c="dimmed" size="sm" py="sm">
        Nobody.
      </Text>
    );
  }
  return (
    <>
      <ScrollArea type="auto">
        <Table striped verticalSpacing="xs" miw={480} aria-label={CAPTIONS[kind]}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">PIN</Table.Th>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">{kind === 'moved' ? 'Class (from → to)' : 'Class'}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.rows.map((row) => (
              <Table.Tr key={row.pin}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.pin}</Table.Td>
                <Table.Td>
                  {row.fromName !== undefined ? (
                    <>
                      {row.name}{' '}
                      <Text span size="sm" c="dimmed">
                        (was {row.fromName})
                      </Text>
                    </>
                  ) : (
                    row.name
                  )}
                  {row.returning && (
                    <Text span size="sm" c="dimmed">
                      {' '}
                      (withdrawn, coming back)
                    </Text>
                  )}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {row.fromClass !== undefined ? `${row.fromClass} → ${row.className}` : row.className}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {list.count > list.rows.length && (
        <Text size="sm" c="dimmed" mt="xs">
          The first {list.rows.length} of {list.count} are shown.
        </Text>
      )}
    </>
  );
}
