import { msg, plural } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Menu, Stack, Text } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { Role } from '../../../../shared/constants';
import type { AdminUser, SetPasswordMail } from '../../../../shared/schemas/admin-users';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/calendar-date';

/** Each role's name, shown with `i18n._`. */
export const ROLE_LABELS: Record<Role, MessageDescriptor> = { admin: msg`Admin`, faculty: msg`Faculty`, student: msg`Student` };

export type UserAction = 'name' | 'role' | 'toggle' | 'reset' | 'reset-totp';

/** An account's state in a word and a colour: disabled, waiting for its password, or active. */
export function UserStateBadge({ user }: { user: AdminUser }) {
  if (user.disabled) {
    return (
      <Badge color="red" variant="light" tt="none">
        <Trans>Disabled</Trans>
      </Badge>
    );
  }
  if (!user.hasPassword) {
    return (
      <Badge color="yellow.9" variant="light" tt="none">
        <Trans>No password yet</Trans>
      </Badge>
    );
  }
  return (
    <Badge color="green.9" variant="light" tt="none">
      <Trans>Active</Trans>
    </Badge>
  );
}

const MAIL_BADGES: Record<SetPasswordMail['state'], { label: MessageDescriptor; color: string }> = {
  queued: { label: msg`Queued`, color: 'gray.9' },
  failing: { label: msg`Failing`, color: 'orange.9' },
  sent: { label: msg`Sent`, color: 'green.9' },
  failed: { label: msg`Not sent`, color: 'red' },
};

/**
 * Whether the account's newest set-password e-mail went out: queued, sent (when), or failing (it is
 * tried again later and later) or given up, with the mail server's reason.
 */
export function SetPasswordMailState({ mail }: { mail: SetPasswordMail | null }) {
  const { t, i18n } = useLingui();
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
  else if (mail.state === 'queued') {
    const queuedAt = formatDateTime(mail.queuedAt, undefined);
    line = t`Since ${queuedAt}`;
  } else if (mail.state === 'failing') {
    // The mail server's reason is its own words.
    const reason = mail.lastError ?? t`Not sent yet`;
    const attempts = mail.attempts;
    if (mail.nextAttemptAt) {
      const nextTry = formatDateTime(mail.nextAttemptAt, undefined);
      line = t`${plural(attempts, { one: `${reason} (# try). Next try ${nextTry}.`, other: `${reason} (# tries). Next try ${nextTry}.` })}`;
    } else {
      line = t`${plural(attempts, { one: `${reason} (# try).`, other: `${reason} (# tries).` })}`;
    }
  } else line = mail.lastError ?? t`Given up`;
  return (
    <Stack gap={4} maw={260}>
      <Badge color={badge.color} variant="light" tt="none">
        {i18n._(badge.label)}
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
  const { t, i18n } = useLingui();
  const columns: DataColumn<AdminUser>[] = [
    { header: t`Role`, cell: (user) => i18n._(ROLE_LABELS[user.role]) },
    { header: t`E-mail`, rowHeader: true, cellProps: { fw: 600, style: { wordBreak: 'break-all' } }, cell: (user) => user.email },
    { header: t`Name`, cell: (user) => user.name },
    { header: t`PIN`, cellProps: { ff: 'monospace' }, cell: (user) => user.pin ?? <Text c="dimmed" span size="sm">—</Text> },
    {
      header: t`Last sign-in`,
      nowrap: true,
      cell: (user) =>
        user.lastSignInAt ? (
          formatDateTime(user.lastSignInAt, undefined)
        ) : (
          <Text c="dimmed" span size="sm">
            <Trans>Never</Trans>
          </Text>
        ),
    },
    { header: t`State`, cell: (user) => <UserStateBadge user={user} /> },
    { header: t`Set-password e-mail`, cell: (user) => <SetPasswordMailState mail={user.setPasswordMail} /> },
    { header: t`Actions`, hiddenHeader: true, cell: (user) => <UserActions user={user} onAction={onAction} /> },
  ];
  return (
    <DataTable
      columns={columns}
      rows={users}
      rowKey={(user) => user.id}
      label={t`Accounts`}
      minWidth={980}
      tableProps={{ striped: true, highlightOnHover: true, verticalSpacing: 'xs' }}
    />
  );
}

/** What an admin can do to an account, in a menu. */
function UserActions({ user, onAction }: { user: AdminUser; onAction: (user: AdminUser, action: UserAction) => void }) {
  const { t } = useLingui();
  const email = user.email;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="xs" variant="default" rightSection={<IconChevronDown size={14} aria-hidden />} aria-label={t`Actions for ${email}`}>
          <Trans>Actions</Trans>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => onAction(user, 'name')}>
          <Trans>Edit name</Trans>
        </Menu.Item>
        <Menu.Item onClick={() => onAction(user, 'role')}>
          <Trans>Change role</Trans>
        </Menu.Item>
        <Menu.Item onClick={() => onAction(user, 'reset')} disabled={user.disabled}>
          <Trans>Reset password</Trans>
        </Menu.Item>
        <Menu.Item onClick={() => onAction(user, 'reset-totp')}>
          <Trans>Reset two-step sign-in</Trans>
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color={user.disabled ? undefined : 'red'} onClick={() => onAction(user, 'toggle')}>
          {user.disabled ? t`Enable account` : t`Disable account`}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
