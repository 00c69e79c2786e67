import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import type { TermListItem } from '../../../../shared/schemas/terms';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { formatDate } from '../../../lib/calendar-date';

/** The terms, newest first: name (with a Current badge), first and last day, and Edit. */
export function TermsTable({ terms, onEdit }: { terms: TermListItem[]; onEdit: (term: TermListItem) => void }) {
  const { t } = useLingui();
  const columns: DataColumn<TermListItem>[] = [
    {
      header: t`Term`,
      rowHeader: true,
      cellProps: { fw: 500 },
      cell: (term) => (
        <>
          {term.name}{' '}
          {term.current && (
            <Badge color="green.9" variant="light" tt="none" ml={4}>
              <Trans>Current</Trans>
            </Badge>
          )}
        </>
      ),
    },
    { header: t`Starts`, nowrap: true, cell: (term) => formatDate(term.startsOn) },
    { header: t`Ends`, nowrap: true, cell: (term) => formatDate(term.endsOn) },
    {
      header: t`Actions`,
      hiddenHeader: true,
      cellProps: { ta: 'right' },
      cell: (term) => {
        const termName = term.name;
        return (
          <Button size="xs" variant="default" leftSection={<IconPencil size={14} aria-hidden />} onClick={() => onEdit(term)} aria-label={t`Edit ${termName}`}>
            <Trans>Edit</Trans>
          </Button>
        );
      },
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={terms}
      rowKey={(term) => term.id}
      label={t`Terms`}
      minWidth={520}
      tableProps={{ striped: true, highlightOnHover: true, verticalSpacing: 'xs' }}
    />
  );
}
