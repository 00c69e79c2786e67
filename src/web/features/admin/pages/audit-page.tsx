import { Badge, Button, Code, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconHistory } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { DateField } from '../../../components/date-field';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '../../../../shared/schemas/audit';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { FormFailure } from '../../../components/forms';
import { EmptyState, QueryState } from '../../../components/load-states';
import { formatDateTime } from '../../../lib/calendar-date';
import { saveFile } from '../../../lib/save-file';
import { fetchAuditCsv, useAuditTrail, type AuditFilter } from '../api/audit';

const ACTION_OPTIONS = AUDIT_ACTIONS.map((action) => ({ value: action, label: AUDIT_ACTION_LABELS[action] }));

/** An entry's detail as short `key: value` text. */
function detailText(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .map(([key, value]) => `${key}: ${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`)
    .join(', ');
}

const ENTRY_COLUMNS: DataColumn<AuditEntry>[] = [
  { header: 'When', nowrap: true, cell: (entry) => formatDateTime(entry.at, undefined) },
  { header: 'Who', cell: (entry) => entry.actor },
  {
    header: 'Action',
    cell: (entry) => (
      <Badge variant="light" color="gray.8" tt="none">
        {AUDIT_ACTION_LABELS[entry.action]}
      </Badge>
    ),
  },
  { header: 'Target', cell: (entry) => entry.target },
  {
    header: 'Detail',
    cell: (entry) => {
      const detail = detailText(entry.detail);
      return detail ? <Code>{detail}</Code> : <Text c="dimmed" size="sm">—</Text>;
    },
  },
];

/** /admin/audit: who changed what, newest first, filtered by action and dates, with a CSV download. */
export function AuditPage() {
  const [action, setAction] = useState<AuditAction | null>(null);
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const filter: AuditFilter = { action: action ?? undefined, from: range[0] ?? undefined, to: range[1] ?? range[0] ?? undefined };
  const trail = useAuditTrail(filter);
  const download = useMutation({
    mutationFn: () => fetchAuditCsv(filter),
    onSuccess: (blob) => saveFile(blob, `audit${filter.from ? `-${filter.from}` : ''}${filter.to && filter.to !== filter.from ? `-${filter.to}` : ''}.csv`),
  });

  const entries = trail.data?.pages.flatMap((page) => page.entries) ?? [];
  let body;
  if (!trail.isSuccess) {
    body = <QueryState query={trail} loading="Loading the audit trail" failed="Error loading the audit trail" />;
  } else if (entries.length === 0) {
    body = (
      <EmptyState icon={<IconHistory size={32} aria-hidden color="var(--mantine-color-gray-6)" />} title="No entries.">
        {action || range[0] ? 'Nothing matches these filters.' : 'Changes made in the portal appear here.'}
      </EmptyState>
    );
  } else {
    body = (
      <Stack gap="sm">
        <DataTable
          columns={ENTRY_COLUMNS}
          rows={entries}
          rowKey={(entry) => String(entry.id)}
          label="Audit trail"
          minWidth={760}
          tableProps={{ striped: true, highlightOnHover: true, verticalSpacing: 'xs' }}
        />
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {entries.length} {entries.length === 1 ? 'entry' : 'entries'} shown
          </Text>
          {trail.hasNextPage && (
            <Button variant="light" onClick={() => void trail.fetchNextPage()} loading={trail.isFetchingNextPage}>
              Show older entries
            </Button>
          )}
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2}>Audit trail</Title>
        <Text c="dimmed" size="sm">
          Every change to accounts, registers, profiles, the roster, classes and terms, newest first. Nobody can edit or
          delete an entry.
        </Text>
      </Stack>
      <Group align="flex-end" gap="sm">
        <Select
          label="Action"
          placeholder="All actions"
          data={ACTION_OPTIONS}
          value={action}
          onChange={(value) => setAction(value as AuditAction | null)}
          clearable
          clearButtonProps={{ 'aria-label': 'Clear action' }}
          w={220}
        />
        <DateField
          type="range"
          allowSingleDateInRange
          label="Dates"
          placeholder="Any date"
          value={range}
          onChange={setRange}
          clearLabel="Clear dates"
          w={260}
        />
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() => download.mutate()}
          loading={download.isPending}
        >
          Download CSV
        </Button>
      </Group>
      {download.isError && (
        <FormFailure onDismiss={() => download.reset()}>The CSV could not be downloaded: {download.error.message}</FormFailure>
      )}
      {body}
    </Stack>
  );
}

export default AuditPage;
