import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Badge, Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import type { AdminClass } from '../../../../shared/schemas/classes';
import { DataTable, type DataColumn } from '../../../components/data-table';

export interface ClassesTableProps {
  label: string;
  classes: AdminClass[];
  /** Moves are offered among these classes only (the active ones); none for the archived table. */
  onMove?: ((target: AdminClass, direction: 'up' | 'down') => void) | undefined;
  onRename: (target: AdminClass) => void;
  onArchive: (target: AdminClass) => void;
}

/** The classes in order, with their roster and register counts and what an admin can do to each. */
export function ClassesTable({ label, classes, onMove, onRename, onArchive }: ClassesTableProps) {
  const { t } = useLingui();
  const columns: DataColumn<AdminClass>[] = [
    ...(onMove ? [{ header: t`Order`, headerProps: { w: 60 }, cell: (_item: AdminClass, index: number) => index + 1 }] : []),
    {
      header: t`Class`,
      rowHeader: true,
      cellProps: { fw: 600 },
      cell: (item) => (
        <Group gap="xs" wrap="nowrap">
          <span style={{ whiteSpace: 'nowrap' }}>{item.name}</span>
          {item.archived && (
            <Badge color="gray" variant="outline" tt="none">
              <Trans>Archived</Trans>
            </Badge>
          )}
        </Group>
      ),
    },
    { header: t`Students`, cell: (item) => item.students },
    { header: t`Registers`, cell: (item) => item.registers },
    {
      header: t`Actions`,
      hiddenHeader: true,
      cell: (item, index) => {
        const className = item.name;
        return (
          <Group gap={8} justify="flex-end" wrap="nowrap">
            {onMove && (
              <>
                <ActionIcon variant="default" aria-label={t`Move ${className} up`} disabled={index === 0} onClick={() => onMove(item, 'up')}>
                  <IconArrowUp size={16} aria-hidden />
                </ActionIcon>
                <ActionIcon variant="default" aria-label={t`Move ${className} down`} disabled={index === classes.length - 1} onClick={() => onMove(item, 'down')}>
                  <IconArrowDown size={16} aria-hidden />
                </ActionIcon>
              </>
            )}
            <Button size="xs" variant="default" aria-label={t`Rename ${className}`} onClick={() => onRename(item)}>
              <Trans>Rename</Trans>
            </Button>
            <Button size="xs" variant="default" component={Link} to={`/admin/classes/${encodeURIComponent(item.name)}/timetable`} aria-label={t`Timetable of ${className}`}>
              <Trans>Timetable</Trans>
            </Button>
            <Button
              size="xs"
              variant="light"
              color={item.archived ? undefined : 'red'}
              aria-label={item.archived ? t`Restore ${className}` : t`Archive ${className}`}
              onClick={() => onArchive(item)}
            >
              {item.archived ? t`Restore` : t`Archive`}
            </Button>
          </Group>
        );
      },
    },
  ];
  // On a narrow screen the table scrolls inside its own box.
  return <DataTable columns={columns} rows={classes} rowKey={(item) => item.name} label={label} minWidth={520} tableProps={{ striped: true, verticalSpacing: 'xs' }} />;
}
