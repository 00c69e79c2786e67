import { Badge, Button, Menu, ScrollArea, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { Role } from '../../../../shared/constants';
import type { AdminUser } from '../../../../shared/schemas/admin-users';
import { formatDateTime } from '../../../lib/calendar-date';

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', faculty: 'Faculty', student: 'Student' };

export type UserAction = 'name' | 'role' | 'toggle' | 'reset' | 'reset-totp';

/** An account's state in a word and a colour: disabled, waiting for its password, or active. */
export function UserStateBadge({ user }: { user: AdminUser }) {
  if (user.disabled) {
    return (
      <Badge color="red" variant="light" tt="none">
        Disabled
      </Badge>
    );
  }
  if (!user.hasPassword) {
    return (
      <Badge color="yellow.9" variant="light" tt="none">
        No password yet
      </Badge>
    );
  }
  return (
    <Badge color="green.9" variant="light" tt="none">
      Active
    </Badge>
  );
}

export interface UsersTableProps {
  users: AdminUser[];
  onAction: (user: AdminUser, action: UserAction) => void;
}

/** The accounts of one page: who they are, when they last signed in, their state and what to do. */
export function UsersTable({ users, onAction }: UsersTableProps) {
  return (
    <ScrollArea type="auto">
      <Table striped highlightOnHover verticalSpacing="xs" miw={820} aria-label="Accounts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Role</Table.Th>
            <Table.Th scope="col">E-mail</Table.Th>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">PIN</Table.Th>
            <Table.Th scope="col">Last sign-in</Table.Th>
            <Table.Th scope="col">State</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user.id}>
              <Table.Td>{ROLE_LABELS[user.role]}</Table.Td>
              <Table.Th scope="row" fw={600} style={{ wordBreak: 'break-all' }}>
                {user.email}
              </Table.Th>
              <Table.Td>{user.name}</Table.Td>
              <Table.Td ff="monospace">{user.pin ?? <Text c="dimmed" span size="sm">—</Text>}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {user.lastSignInAt ? formatDateTime(user.lastSignInAt, undefined) : <Text c="dimmed" span size="sm">Never</Text>}
              </Table.Td>
              <Table.Td>
                <UserStateBadge user={user} />
              </Table.Td>
              <Table.Td>
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <Button size="xs" variant="default" rightSection={<IconChevronDown size={14} aria-hidden />} aria-label={`Actions for ${user.email}`}>
                      Actions
                    </Button>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item onClick={() => onAction(user, 'name')}>Edit name</Menu.Item>
                    <Menu.Item onClick={() => onAction(user, 'role')}>Change role</Menu.Item>
                    <Menu.Item onClick={() => onAction(user, 'reset')} disabled={user.disabled}>
                      Reset password
                    </Menu.Item>
                    <Menu.Item onClick={() => onAction(user, 'reset-totp')}>Reset two-step sign-in</Menu.Item>
                    <Menu.Divider />
                    <Menu.Item color={user.disabled ? undefined : 'red'} onClick={() => onAction(user, 'toggle')}>
                      {user.disabled ? 'Enable account' : 'Disable account'}
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
