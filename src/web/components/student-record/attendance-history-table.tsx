import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { MarkStatus } from '../../../shared/attendance-rules';
import type { HistoryEntry } from '../../../shared/schemas/students';
import { formatDate } from '../../lib/calendar-date';
import { usePhoneScreen } from '../../lib/screen';
import { DataTable, type DataColumn } from '../data-table';
import { BandBadge, WordBadge } from './status-colors';

/** A mark's status in words. */
export const STATUS_WORD: Record<MarkStatus, MessageDescriptor> = { present: msg`Present`, absent: msg`Absent`, late: msg`Late`, excused: msg`Excused` };

/** Present and late attend (good, warning), absent does not (danger); excused is left out (a plain badge). */
function StatusBadge({ status }: { status: MarkStatus }) {
  const { i18n } = useLingui();
  if (status === 'excused') {
    return (
      <WordBadge variant="light" color="gray" c="var(--mantine-color-text)">
        {i18n._(STATUS_WORD.excused)}
      </WordBadge>
    );
  }
  const band = status === 'present' ? 'good' : status === 'late' ? 'warning' : 'danger';
  return <BandBadge band={band}>{i18n._(STATUS_WORD[status])}</BandBadge>;
}

/** The lecture of a mark: the whole day, or its period with the subject's name. */
function Lecture({ entry }: { entry: HistoryEntry }) {
  const { t } = useLingui();
  const period = entry.period;
  if (period === 0) return t`Whole day`;
  const subject = entry.subject?.name;
  return subject ? t`Period ${period}: ${subject}` : t`Period ${period}`;
}

/**
 * The attendance history: Date, Class and a Present/Absent badge (Late and Excused too), in the
 * order given (the API sends newest first). A Lecture column (period and subject) appears when the
 * history holds lectures; whole-day registers alone read as the specification's table.
 *
 * Props:
 * - `history`: the `history` of GET /api/students/:pin, with any older pages appended.
 * - `title`: the heading (default 'Attendance History'); `headingLevel` its level (default 2).
 * - `hasMore`, `loadingMore`, `onLoadMore`: a "Show older" button under the table while older pages exist.
 */
export function AttendanceHistoryTable({
  history,
  title,
  headingLevel = 2,
  hasMore = false,
  loadingMore = false,
  onLoadMore,
  rowAction,
}: {
  history: HistoryEntry[];
  /** A last column, "Correction", with this for each mark (the student's own record). */
  rowAction?: ((entry: HistoryEntry) => ReactNode) | undefined;
  title?: string;
  headingLevel?: 2 | 3 | 4;
  hasMore?: boolean;
  loadingMore?: boolean;
  onLoadMore?: () => void;
}) {
  const { t } = useLingui();
  const headingId = 'attendance-history-heading';
  const lectures = history.some((entry) => entry.period > 0);
  const phone = usePhoneScreen();
  const columns: DataColumn<HistoryEntry>[] = [
    { header: t`Date`, cell: (entry) => formatDate(entry.date) },
    { header: t`Class`, cell: (entry) => entry.class },
    ...(lectures ? [{ header: t`Lecture`, cell: (entry: HistoryEntry) => <Lecture entry={entry} />, wide: true }] : []),
    { header: t`Status`, cell: (entry) => <StatusBadge status={entry.status} /> },
    ...(rowAction ? [{ header: t`Correction`, cell: rowAction, printHide: true, wide: true }] : []),
  ];
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={headingLevel} fz="lg" mb="sm" id={headingId}>
        {title ?? t`Attendance History`}
      </Title>
      {history.length === 0 ? (
        <Text c="dimmed">
          <Trans>No attendance has been recorded yet.</Trans>
        </Text>
      ) : (
        <DataTable
          labelledBy={headingId}
          columns={columns}
          rows={history}
          rowKey={(entry) => `${entry.date}-${entry.period}-${entry.class}`}
          // Date, class and status fit a phone; a lecture or a correction's button do not.
          asCards={phone && columns.length > 3}
          minWidth={phone ? undefined : 300}
          tableProps={{ striped: true, highlightOnHover: true }}
        />
      )}
      {hasMore && onLoadMore && (
        <Group justify="center" mt="sm" data-print-hide>
          <Button variant="default" onClick={onLoadMore} loading={loadingMore}>
            <Trans>Show older</Trans>
          </Button>
        </Group>
      )}
    </Card>
  );
}
