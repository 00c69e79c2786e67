import { Badge, Button, Menu, Stack, Text } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { Role } from '../../../../shared/constants';
import type { AdminUser, SetPasswordMail } from '../../../../shared/schemas/admin-users';
import { DataTable, type DataColumn } from '../../../components/data-table';
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

const MAIL_BADGES: Record<SetPasswordMail['state'], { label: string; color: string }> = {
  queued: { label: 'Queued', color: 'gray.9' },
  failing: { label: 'Failing', color: 'orange.9' },
  sent: { label: 'Sent', color: 'green.9' },
  failed: { label: 'Not sent', color: 'red' },
};

/**
 * Whether the account's newest set-password e-mail went out: queued, sent (when), or failing (it is
 * tried again later and later) or given up, with the mail server's reason.
 */
export function SetPasswordMailState({ mail }: { mail: SetPasswordMail | null }) {
  if (!mail) {
    return (
      <Text c="dimmed" span size="sm">
        —
      </Text>
    );
  }
  const badge = MAIL_BADGES[mail.state];
  let line: string;
  if (mail.state === 'sent' && mail.sentAt) line = formatDateTime(mail.sentAt, undefined);
  else if (mail.state === 'queued') line = `Since ${formatDateTime(mail.queuedAt, undefined)}`;
  else if (mail.state === 'failing') {
    const next = mail.nextAttemptAt ? ` Next try ${formatDateTime(mail.nextAttemptAt, undefined)}.` : '';
    line = `${mail.lastError ?? 'Not sent yet'} (${mail.attempts} ${mail.attempts === 1 ? 'try' : 'tries'}).${next}`;
  } else line = mail.lastError ?? 'Given up';
  return (
    <Stack gap={4} maw={260}>
      <Badge color={badge.color} variant="light" tt="none">
        {badge.label}
      </Badge>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {line}
      </Text>
    </Stack>
  );
}

export interface UsersTableProps {
  users: AdminUser[];
  onAction: (user: AdminUser, action: UserAction) => void;
}

/** The accounts of one page: who they are, when they last signed in, their state and what to do. */
export function UsersTable({ users, onAction }: UsersTableProps) {
  const columns: DataColumn<AdminUser>[] = [
    { header: 'Role', cell: (user) => ROLE_LABELS[user.role] },
    { header: 'E-mail', rowHeader: true, cellProps: { fw: 600, style: { wordBreak: 'break-all' } }, cell: (user) => user.email },
    { header: 'Name', cell: (user) => user.name },
    { header: 'PIN', cellProps: { ff: 'monospace' }, cell: (user) => user.pin ?? <Text c="dimmed" span size="sm">—</Text> },
    {
      header: 'Last sign-in',
      nowrap: true,
      cell: (user) => (user.lastSignInAt ? formatDateTime(user.lastSignInAt, undefined) : <Text c="dimmed" span size="sm">Never</Text>),
    },
    { header: 'State', cell: (user) => <UserStateBadge user={user} /> },
    { header: 'Set-password e-mail', cell: (user) => <SetPasswordMailState mail={user.setPasswordMail} /> },
    { header: 'Actions', hiddenHeader: true, cell: (user) => <UserActions user={user} onAction={onAction} /> },
  ];
  return (
    <DataTable
      columns={columns}
      rows={users}
      rowKey={(user) => user.id}
      label="Accounts"
      minWidth={980}
      tableProps={{ striped: true, highlightOnHover: true, verticalSpacing: 'xs' }}
    />
  );
}

/** What an admin can do to an account, in a menu. */
function UserActions({ user, onAction }: { user: AdminUser; onAction: (user: AdminUser, action: UserAction) => void }) {
  return (
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
  );
}
