import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconSchool } from '@tabler/icons-react';
import { useState } from 'react';
import type { AdminClass } from '../../../../shared/schemas/classes';
import { EmptyState, QueryState } from '../../../components/load-states';
import { useAdminClasses } from '../api/classes';
import { useUpdateClass } from '../api/classes-update';
import { ClassesAddForm } from '../components/classes-add-form';
import { ClassesArchiveModal } from '../components/classes-archive-modal';
import { ClassesRenameModal } from '../components/classes-rename-modal';
import { ClassesTable } from '../components/classes-table';

/** /admin/classes: the classes in dashboard order; add, rename, reorder, archive and restore them. */
export function ClassesPage() {
  const { t } = useLingui();
  const classes = useAdminClasses();
  const move = useUpdateClass();
  const [renaming, setRenaming] = useState<AdminClass | null>(null);
  const [archiving, setArchiving] = useState<AdminClass | null>(null);

  const active = classes.data?.filter((c) => !c.archived) ?? [];
  const archived = classes.data?.filter((c) => c.archived) ?? [];

  // Up or down among the dashboard's classes: the class takes its neighbour's place in the order.
  const onMove = (target: AdminClass, direction: 'up' | 'down') => {
    if (move.isPending) return;
    const index = active.findIndex((c) => c.name === target.name);
    const neighbour = active[direction === 'up' ? index - 1 : index + 1];
    if (!neighbour) return;
    const className = target.name;
    const neighbourName = neighbour.name;
    move.mutate(
      { name: target.name, changes: { position: neighbour.position } },
      {
        onSuccess: () =>
          notifications.show({
            color: 'green',
            message:
              direction === 'up'
                ? t`${className} moved up: it is now before ${neighbourName} on the dashboard.`
                : t`${className} moved down: it is now after ${neighbourName} on the dashboard.`,
          }),
        onError: (err) => {
          const reason = err.message;
          notifications.show({ color: 'red', message: t`${className} was not moved: ${reason}` });
        },
      },
    );
  };

  let body;
  if (!classes.isSuccess) {
    body = <QueryState query={classes} loading={t`Loading classes`} failed={t`Error loading classes`} />;
  } else {
    body = (
      <Stack gap="lg">
        <Stack gap="xs">
          <Title order={3}>
            <Trans>On the dashboard</Trans>
          </Title>
          {active.length === 0 ? (
            <EmptyState icon={<IconSchool size={32} aria-hidden color="var(--mantine-color-gray-6)" />} title={t`No classes on the dashboard.`}>
              {archived.length > 0
                ? t`Every class is archived. Add a class above, or restore one below.`
                : t`Add the first class above: faculty take its registers from the dashboard.`}
            </EmptyState>
          ) : (
            <ClassesTable label={t`Classes on the dashboard`} classes={active} onMove={onMove} onRename={setRenaming} onArchive={setArchiving} />
          )}
        </Stack>
        {archived.length > 0 && (
          <Stack gap="xs">
            <Title order={3}>
              <Trans>Archived</Trans>
            </Title>
            <Text size="sm" c="dimmed">
              <Trans>Off the dashboard and closed to new registers and students; their registers, records and reports are kept.</Trans>
            </Text>
            <ClassesTable label={t`Archived classes`} classes={archived} onRename={setRenaming} onArchive={setArchiving} />
          </Stack>
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2}>
          <Trans>Classes</Trans>
        </Title>
        <Text c="dimmed" size="sm">
          <Trans>The classes faculty see on the dashboard, in this order. Archive a class that has ended: it keeps its history.</Trans>
        </Text>
      </Stack>
      <ClassesAddForm />
      {body}
      <ClassesRenameModal target={renaming} onClose={() => setRenaming(null)} />
      <ClassesArchiveModal target={archiving} onClose={() => setArchiving(null)} />
    </Stack>
  );
}

export default ClassesPage;
