import { Badge, Button } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import type { TermListItem } from '../../../../shared/schemas/terms';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { formatDate } from '../../../lib/calendar-date';

/** The terms, newest first: name (with a Current badge), first and last day, and Edit. */
export function TermsTable({ terms, onEdit }: { terms: TermListItem[]; onEdit: (term: TermListItem) => void }) {
  const columns: DataColumn<TermListItem>[] = [
    {
      header: 'Term',
      rowHeader: true,
      cellProps: { fw: 500 },
      cell: (term) => (
        <>
          {term.name}{' '}
          {term.current && (
            <Badge color="green.9" variant="light" tt="none" ml={4}>
              Current
            </Badge>
          )}
        </>
      ),
    },
    { header: 'Starts', nowrap: true, cell: (term) => formatDate(term.startsOn) },
    { header: 'Ends', nowrap: true, cell: (term) => formatDate(term.endsOn) },
    {
      header: 'Actions',
      hiddenHeader: true,
      cellProps: { ta: 'right' },
      cell: (term) => (
        <Button size="xs" variant="default" leftSection={<IconPencil size={14} aria-hidden />} onClick={() => onEdit(term)} aria-label={`Edit ${term.name}`}>
          Edit
        </Button>
      ),
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={terms}
      rowKey={(term) => term.id}
      label="Terms"
      minWidth={520}
      tableProps={{ striped: true, highlightOnHover: true, verticalSpacing: 'xs' }}
    />
  );
}
