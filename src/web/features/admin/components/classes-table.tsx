import { ActionIcon, Badge, Button, Group, ScrollArea, Table, VisuallyHidden } from '@mantine/core';
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

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The classes in order, with their roster and register counts and what an admin can do to each. */
export function ClassesTable({ label, classes, onMove, onRename, onArchive }: ClassesTableProps) {
  return (
    <ScrollArea type="auto">
      <Table striped verticalSpacing="xs" miw={560} aria-label={label}>
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
                  <span style={{ overflowWrap: 'anywhere' }}>{item.name}</span>
                  {item.archived && (
                    <Badge color="gray" variant="outline" tt="none">
                      Archived
                    </Badge>
                  )}
                </Group>
              </Table.Th>
              <Table.Td>{count(item.students, 'student', 'students')}</Table.Td>
              <Table.Td>{count(item.registers, 'register', 'registers')}</Table.Td>
              <Table.Td>
                <Group gap={6} justify="flex-end" wrap="nowrap">
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
    </ScrollArea>
  );
}
