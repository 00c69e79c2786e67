import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Pagination, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { bindValue } from '../../../components/forms';
import { ROLES, type Role } from '../../../../shared/constants';
import type { AdminUser } from '../../../../shared/schemas/admin-users';
import { EmptyState, QueryState } from '../../../components/load-states';
import { useUsers } from '../api/users';
import { UsersAddModal } from '../components/users-add-modal';
import { UsersConfirmModal, type ConfirmTarget } from '../components/users-confirm-modal';
import { UsersEditModal, type EditTarget } from '../components/users-edit-modal';
import { UsersLinkModal, type ShownLink } from '../components/users-link-modal';
import { ROLE_LABELS, UsersTable, type UserAction } from '../components/users-table';

const PAGE_SIZE = 50;
/** Typing pauses this long before the search is sent. */
const SEARCH_DEBOUNCE_MS = 300;

/** /admin/users: every account, searchable and paged; add one, change it, or make a new set-password link. */
export function UsersPage() {
  const { t, i18n } = useLingui();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [role, setRole] = useState<Role | null>(null);
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [link, setLink] = useState<ShownLink | null>(null);
  const [editing, setEditing] = useState<EditTarget | null>(null);
  const [confirming, setConfirming] = useState<ConfirmTarget | null>(null);

  // A new search or filter starts from the first page.
  const [filterKey, setFilterKey] = useState(`${debounced}|${role ?? ''}`);
  if (filterKey !== `${debounced}|${role ?? ''}`) {
    setFilterKey(`${debounced}|${role ?? ''}`);
    setPage(1);
  }

  const users = useUsers({ q: debounced || undefined, role: role ?? undefined, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });

  const onAction = (user: AdminUser, action: UserAction) => {
    if (action === 'name' || action === 'role') setEditing({ user, field: action });
    else setConfirming({ user, action });
  };

  let body;
  if (!users.isSuccess) {
    body = <QueryState query={users} loading={t`Loading accounts`} failed={t`Error loading accounts`} />;
  } else if (users.data.users.length === 0) {
    body = (
      <EmptyState icon={<IconUsers size={32} aria-hidden color="var(--mantine-color-gray-6)" />} title={t`No accounts found.`}>
        {debounced || role ? t`No account matches this search.` : t`Add the first account with Add account.`}
      </EmptyState>
    );
  } else {
    const { total, offset } = users.data;
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    const first = offset + 1;
    const last = offset + users.data.users.length;
    body = (
      <Stack gap="sm">
        <UsersTable users={users.data.users} onAction={onAction} />
        <Group justify="space-between">
          <Text size="sm" c="dimmed" aria-live="polite">
            {t`${plural(total, { one: `${first}–${last} of # account`, other: `${first}–${last} of # accounts` })}`}
          </Text>
          {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} aria-label={t`Pages of accounts`} />}
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={2}>
            <Trans>Accounts</Trans>
          </Title>
          <Text c="dimmed" size="sm">
            <Trans>Who can sign in. A new account chooses its password with a one-time link.</Trans>
          </Text>
        </Stack>
        <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          <Trans>Add account</Trans>
        </Button>
      </Group>
      <Group align="flex-end" gap="sm">
        <TextInput
          label={t`Search`}
          placeholder={t`E-mail, name or PIN`}
          leftSection={<IconSearch size={16} aria-hidden />}
          {...bindValue(search, setSearch)}
          type="search"
          w={{ base: '100%', xs: 280 }}
        />
        <Select
          label={t`Role`}
          placeholder={t`All roles`}
          data={ROLES.map((value) => ({ value, label: i18n._(ROLE_LABELS[value]) }))}
          value={role}
          onChange={(value) => setRole(value as Role | null)}
          clearable
          clearButtonProps={{ 'aria-label': t`Clear role` }}
          w={{ base: '100%', xs: 180 }}
        />
      </Group>
      {body}
      <UsersAddModal
        opened={adding}
        onClose={() => setAdding(false)}
        onCreated={(created) => {
          setAdding(false);
          setLink({ email: created.user.email, url: created.setPasswordUrl, kind: 'new', emailed: created.emailed });
        }}
      />
      <UsersLinkModal link={link} onClose={() => setLink(null)} />
      <UsersEditModal target={editing} onClose={() => setEditing(null)} />
      <UsersConfirmModal target={confirming} onClose={() => setConfirming(null)} onLink={(user, url, emailed) => setLink({ email: user.email, url, kind: 'reset', emailed })} />
    </Stack>
  );
}

export default UsersPage;
