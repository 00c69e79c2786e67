import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconCalendarPlus, IconCalendarTime } from '@tabler/icons-react';
import { useState } from 'react';
import type { TermListItem } from '../../../../shared/schemas/terms';
import { EmptyState, QueryState } from '../../../components/load-states';
import { useTermList } from '../api/terms';
import { TermFormModal } from '../components/terms-form-modal';
import { TermsTable } from '../components/terms-table';

/** /admin/terms: the terms, newest first, the current one marked; add and edit them in a dialog. */
export function TermsPage() {
  const { t } = useLingui();
  const terms = useTermList();
  const [editing, setEditing] = useState<TermListItem | 'new' | null>(null);

  let body;
  if (!terms.isSuccess) {
    body = <QueryState query={terms} loading={t`Loading the terms`} failed={t`Error loading the terms`} />;
  } else if (terms.data.length === 0) {
    body = (
      <EmptyState icon={<IconCalendarTime size={32} aria-hidden color="var(--mantine-color-gray-6)" />} title={t`No terms yet.`}>
        <Trans>Until there is one, reports and student records cover every date.</Trans>
      </EmptyState>
    );
  } else {
    body = <TermsTable terms={terms.data} onEdit={setEditing} />;
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={2}>
            <Trans>Terms</Trans>
          </Title>
          <Text c="dimmed" size="sm">
            <Trans>Reports and student records show the term that holds today, else the latest that has ended. Terms never overlap.</Trans>
          </Text>
        </Stack>
        <Button leftSection={<IconCalendarPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
          <Trans>Add term</Trans>
        </Button>
      </Group>
      {body}
      <TermFormModal term={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}

export default TermsPage;
