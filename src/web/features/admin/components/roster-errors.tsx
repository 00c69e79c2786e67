import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, ScrollArea, Table, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { RosterLineError } from '../../../../shared/schemas/roster';
import { serverText } from '../../../i18n/server-text';

/** The problems of a roster file, by line: shown first, and nothing can be imported until they are fixed. */
export function RosterErrors({ errors }: { errors: RosterLineError[] }) {
  const { t } = useLingui();
  const count = errors.length;
  return (
    <Alert
      color="red"
      icon={<IconAlertCircle size={18} aria-hidden />}
      title={t`${plural(count, { one: 'The file has # problem: fix it and choose the file again', other: 'The file has # problems: fix them and choose the file again' })}`}
      role="alert"
    >
      <Text size="sm" mb="xs">
        <Trans>
          Nothing can be imported until the file has no problems. Lines are counted as in a text editor, the header being
          line 1.
        </Trans>
      </Text>
      <ScrollArea.Autosize type="auto" mah={320}>
        <Table verticalSpacing={4} aria-label={t`Problems in the file`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col" w={72}>
                <Trans>Line</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Problem</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {errors.map((error, index) => (
              <Table.Tr key={`${error.line ?? 'file'}-${index}`}>
                <Table.Td>{error.line ?? '—'}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{serverText(error.message)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Alert>
  );
}
