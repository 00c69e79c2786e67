import { ActionIcon, Badge, Button, Group, Table, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import type { AdminClass } from '../../../../shared/schemas/classes';

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
  return (
    // On a narrow screen the table scrolls inside its own box.
    <Table.ScrollContainer minWidth={520}>
      <Table striped verticalSpacing="xs" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {onMove && (
              <Table.Th scope="col" w={60}>
                Order
              </Table.Th>
            )}
            <Table.Th scope="col">Class</Table.Th>
            <Table.Th scope="col">Students</Table.Th>
            <Table.Th scope="col">Registers</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {classes.map((item, index) => (
            <Table.Tr key={item.name}>
              {onMove && <Table.Td>{index + 1}</Table.Td>}
              <Table.Th scope="row" fw={600}>
                <Group gap="xs" wrap="nowrap">
                  <span style={{ whiteSpace: 'nowrap' }}>{item.name}</span>
                  {item.archived && (
                    <Badge color="gray" variant="outline" tt="none">
                      Archived
                    </Badge>
                  )}
                </Group>
              </Table.Th>
              <Table.Td>{item.students}</Table.Td>
              <Table.Td>{item.registers}</Table.Td>
              <Table.Td>
                <Group gap={8} justify="flex-end" wrap="nowrap">
                  {onMove && (
                    <>
                      <ActionIcon
                        variant="default"
                        aria-label={`Move ${item.name} up`}
                        disabled={index === 0}
                        onClick={() => onMove(item, 'up')}
                      >
                        <IconArrowUp size={16} aria-hidden />
                      </ActionIcon>
                      <ActionIcon
                        variant="default"
                        aria-label={`Move ${item.name} down`}
                        disabled={index === classes.length - 1}
                        onClick={() => onMove(item, 'down')}
                      >
                        <IconArrowDown size={16} aria-hidden />
                      </ActionIcon>
                    </>
                  )}
                  <Button size="xs" variant="default" aria-label={`Rename ${item.name}`} onClick={() => onRename(item)}>
                    Rename
                  </Button>
                  <Button
                    size="xs"
                    variant="default"
                    component={Link}
                    to={`/admin/classes/${encodeURIComponent(item.name)}/timetable`}
                    aria-label={`Timetable of ${item.name}`}
                  >
                    Timetable
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    color={item.archived ? undefined : 'red'}
                    aria-label={`${item.archived ? 'Restore' : 'Archive'} ${item.name}`}
                    onClick={() => onArchive(item)}
                  >
                    {item.archived ? 'Restore' : 'Archive'}
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
