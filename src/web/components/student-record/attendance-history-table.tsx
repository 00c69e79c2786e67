import { Button, Card, Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { MarkStatus } from '../../../shared/attendance-rules';
import type { HistoryEntry } from '../../../shared/schemas/students';
import { formatDate } from '../../lib/calendar-date';
import { usePhoneScreen } from '../../lib/screen';
import { DataTable, type DataColumn } from '../data-table';
import { BandBadge, WordBadge } from './status-colors';

const STATUS_WORD: Record<MarkStatus, string> = { present: 'Present', absent: 'Absent', late: 'Late', excused: 'Excused' };

/** Present and late attend (good, warning), absent does not (danger); excused is left out (a plain badge). */
function StatusBadge({ status }: { status: MarkStatus }) {
  if (status === 'excused') {
    return (
      <WordBadge variant="light" color="gray" c="var(--mantine-color-text)">
        {STATUS_WORD.excused}
      </WordBadge>
    );
  }
  const band = status === 'present' ? 'good' : status === 'late' ? 'warning' : 'danger';
  return <BandBadge band={band}>{STATUS_WORD[status]}</BandBadge>;
}

function lectureOf(entry: HistoryEntry): string {
  if (entry.period === 0) return 'Whole day';
  return entry.subject ? `Period ${entry.period}: ${entry.subject.name}` : `Period ${entry.period}`;
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
  title = 'Attendance History',
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
  const headingId = 'attendance-history-heading';
  const lectures = history.some((entry) => entry.period > 0);
  const phone = usePhoneScreen();
  const columns: DataColumn<HistoryEntry>[] = [
    { header: 'Date', cell: (entry) => formatDate(entry.date) },
    { header: 'Class', cell: (entry) => entry.class },
    ...(lectures ? [{ header: 'Lecture', cell: lectureOf, wide: true }] : []),
    { header: 'Status', cell: (entry) => <StatusBadge status={entry.status} /> },
    ...(rowAction ? [{ header: 'Correction', cell: rowAction, printHide: true, wide: true }] : []),
  ];
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={headingLevel} fz="lg" mb="sm" id={headingId}>
        {title}
      </Title>
      {history.length === 0 ? (
        <Text c="dimmed">No attendance has been recorded yet.</Text>
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
            Show older
          </Button>
        </Group>
      )}
    </Card>
  );
}
