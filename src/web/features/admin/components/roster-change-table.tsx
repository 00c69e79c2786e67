import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ScrollArea, Table, Text } from '@mantine/core';
import type { RosterChangeList } from '../../../../shared/schemas/roster';

export type RosterChangeKind = 'added' | 'updated' | 'moved' | 'notInFile';

const CAPTIONS: Record<RosterChangeKind, MessageDescriptor> = {
  added: msg`Students added`,
  updated: msg`Students whose name changes`,
  moved: msg`Students who move class`,
  notInFile: msg`Students not in the file`,
};

/** One list of a roster preview as a table; when the file names more, says how many are not shown. */
export function RosterChangeTable({ kind, list }: { kind: RosterChangeKind; list: RosterChangeList }) {
  const { i18n } = useLingui();
  if (list.count === 0) {
    return (
      <Text c="dimmed" size="sm" py="sm">
        <Trans>Nobody.</Trans>
      </Text>
    );
  }
  const shown = list.rows.length;
  const count = list.count;
  return (
    <>
      <ScrollArea type="auto">
        <Table striped verticalSpacing="xs" miw={480} aria-label={i18n._(CAPTIONS[kind])}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">
                <Trans>PIN</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Name</Trans>
              </Table.Th>
              <Table.Th scope="col">{kind === 'moved' ? <Trans>Class (from → to)</Trans> : <Trans>Class</Trans>}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.rows.map((row) => {
              const fromName = row.fromName;
              return (
                <Table.Tr key={row.pin}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.pin}</Table.Td>
                  <Table.Td>
                    {row.fromName !== undefined ? (
                      <>
                        {row.name}{' '}
                        <Text span size="sm" c="dimmed">
                          <Trans>(was {fromName})</Trans>
                        </Text>
                      </>
                    ) : (
                      row.name
                    )}
                    {row.returning && (
                      <Text span size="sm" c="dimmed">
                        {' '}
                        <Trans>(withdrawn, coming back)</Trans>
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {row.fromClass !== undefined ? `${row.fromClass} → ${row.className}` : row.className}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {list.count > list.rows.length && (
        <Text size="sm" c="dimmed" mt="xs">
          <Trans>The first {shown} of {count} are shown.</Trans>
        </Text>
      )}
    </>
  );
}
