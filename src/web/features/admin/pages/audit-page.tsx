import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Code, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconHistory } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { DateField } from '../../../components/date-field';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '../../../../shared/schemas/audit';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { FormFailure } from '../../../components/forms';
import { EmptyState, QueryState } from '../../../components/load-states';
import { formatDateTime } from '../../../lib/calendar-date';
import { saveFile } from '../../../lib/save-file';
import { fetchAuditCsv, useAuditTrail, type AuditFilter } from '../api/audit';

/** Each action's name, as the trail shows it (AUDIT_ACTION_LABELS, in the language shown). */
const ACTION_LABELS: Record<AuditAction, MessageDescriptor> = {
  'account.create': msg`Account created`,
  'account.update': msg`Account changed`,
  'account.disable': msg`Account disabled`,
  'account.enable': msg`Account enabled`,
  'account.reset-password': msg`Password reset`,
  'account.reset-totp': msg`Two-step sign-in reset`,
  'account.unlock': msg`Sign-in failures cleared`,
  'sessions.revoke': msg`Sign-ins ended`,
  'register.save': msg`Register saved`,
  'register.replace': msg`Register replaced`,
  'profile.approve': msg`Profile approved`,
  'profile.edit': msg`Profile edited`,
  'profile.delete': msg`Profile deleted`,
  'roster.import': msg`Roster imported`,
  'class.create': msg`Class created`,
  'class.update': msg`Class changed`,
  'term.create': msg`Term created`,
  'term.update': msg`Term changed`,
  'subject.create': msg`Subject created`,
  'subject.update': msg`Subject renamed`,
  'timetable.update': msg`Timetable changed`,
  'periods.update': msg`Period times changed`,
  'correction.accept': msg`Correction accepted`,
  'correction.decline': msg`Correction declined`,
  'backup.download': msg`Backup downloaded`,
  'student.export': msg`Student's data exported`,
  'student.erase': msg`Student's data erased`,
  'import.firestore': msg`Imported from the Firebase app`,
  'alerts.update': msg`Alert rules changed`,
  'checkin.open': msg`Check-in opened`,
  'checkin.close': msg`Check-in closed`,
  'checkin.remove': msg`Check-in removed`,
};

/** An entry's detail as short `key: value` text. */
function detailText(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .map(([key, value]) => `${key}: ${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`)
    .join(', ');
}

/** /admin/audit: who changed what, newest first, filtered by action and dates, with a CSV download. */
export function AuditPage() {
  const { t, i18n } = useLingui();
  const columns: DataColumn<AuditEntry>[] = [
    { header: t`When`, nowrap: true, cell: (entry) => formatDateTime(entry.at, undefined) },
    { header: t`Who`, cell: (entry) => entry.actor },
    {
      header: t`Action`,
      cell: (entry) => (
        <Badge variant="light" color="gray.8" tt="none">
          {i18n._(ACTION_LABELS[entry.action])}
        </Badge>
      ),
    },
    { header: t`Target`, cell: (entry) => entry.target },
    {
      header: t`Detail`,
      cell: (entry) => {
        const detail = detailText(entry.detail);
        return detail ? <Code>{detail}</Code> : <Text c="dimmed" size="sm">—</Text>;
      },
    },
  ];
  const [action, setAction] = useState<AuditAction | null>(null);
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const filter: AuditFilter = { action: action ?? undefined, from: range[0] ?? undefined, to: range[1] ?? range[0] ?? undefined };
  const trail = useAuditTrail(filter);
  const download = useMutation({
    mutationFn: () => fetchAuditCsv(filter),
    onSuccess: (blob) => saveFile(blob, `audit${filter.from ? `-${filter.from}` : ''}${filter.to && filter.to !== filter.from ? `-${filter.to}` : ''}.csv`),
  });

  const entries = trail.data?.pages.flatMap((page) => page.entries) ?? [];
  const shown = entries.length;
  const downloadError = download.error?.message ?? '';
  let body;
  if (!trail.isSuccess) {
    body = <QueryState query={trail} loading={t`Loading the audit trail`} failed={t`Error loading the audit trail`} />;
  } else if (entries.length === 0) {
    body = (
      <EmptyState icon={<IconHistory size={32} aria-hidden color="var(--mantine-color-gray-6)" />} title={t`No entries.`}>
        {action || range[0] ? t`Nothing matches these filters.` : t`Changes made in the portal appear here.`}
      </EmptyState>
    );
  } else {
    body = (
      <Stack gap="sm">
        <DataTable
          columns={columns}
          rows={entries}
          rowKey={(entry) => String(entry.id)}
          label={t`Audit trail`}
          minWidth={760}
          tableProps={{ striped: true, highlightOnHover: true, verticalSpacing: 'xs' }}
        />
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t`${plural(shown, { one: '# entry shown', other: '# entries shown' })}`}
          </Text>
          {trail.hasNextPage && (
            <Button variant="light" onClick={() => void trail.fetchNextPage()} loading={trail.isFetchingNextPage}>
              <Trans>Show older entries</Trans>
            </Button>
          )}
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2}>
          <Trans>Audit trail</Trans>
        </Title>
        <Text c="dimmed" size="sm">
          <Trans>
            Every change to accounts, registers, profiles, the roster, classes and terms, newest first. Nobody can edit or
            delete an entry.
          </Trans>
        </Text>
      </Stack>
      <Group align="flex-end" gap="sm">
        <Select
          label={t`Action`}
          placeholder={t`All actions`}
          data={AUDIT_ACTIONS.map((value) => ({ value, label: i18n._(ACTION_LABELS[value]) }))}
          value={action}
          onChange={(value) => setAction(value as AuditAction | null)}
          clearable
          clearButtonProps={{ 'aria-label': t`Clear action` }}
          w={220}
        />
        <DateField
          type="range"
          allowSingleDateInRange
          label={t`Dates`}
          placeholder={t`Any date`}
          value={range}
          onChange={setRange}
          clearLabel={t`Clear dates`}
          w={260}
        />
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() => download.mutate()}
          loading={download.isPending}
        >
          <Trans>Download CSV</Trans>
        </Button>
      </Group>
      {download.isError && (
        <FormFailure onDismiss={() => download.reset()}>
          <Trans>The CSV could not be downloaded: {downloadError}</Trans>
        </FormFailure>
      )}
      {body}
    </Stack>
  );
}

export default AuditPage;
