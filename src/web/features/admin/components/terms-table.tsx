import { Badge, Button, ScrollArea, Table, VisuallyHidden } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import type { TermListItem } from '../../../../shared/schemas/terms';
import { formatDate } from '../../../lib/calendar-date';

const longDate = formatDate;

/** The terms, newest first: name (with a Current badge), first and last day, and Edit. */
export function TermsTable({ terms, onEdit }: { terms: TermListItem[]; onEdit: (term: TermListItem) => void }) {
  return (
    <ScrollArea type="auto">
      <Table striped highlightOnHover verticalSpacing="xs" miw={520} aria-label="Terms">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Term</Table.Th>
            <Table.Th scope="col">Starts</Table.Th>
            <Table.Th scope="col">Ends</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {terms.map((term) => (
            <Table.Tr key={term.id}>
              <Table.Th scope="row" fw={500}>
                {term.name}{' '}
                {term.current && (
                  <Badge color="green.9" variant="light" tt="none" ml={4}>
                    Current
                  </Badge>
                )}
              </Table.Th>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{longDate(term.startsOn)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{longDate(term.endsOn)}</Table.Td>
              <Table.Td ta="right">
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconPencil size={14} aria-hidden />}
                  onClick={() => onEdit(term)}
                  aria-label={`Edit ${term.name}`}
                >
                  Edit
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
