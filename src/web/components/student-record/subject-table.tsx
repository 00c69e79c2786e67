import { Card, Text, Title } from '@mantine/core';
import { attendanceBand, formatPercent } from '../../../shared/attendance-rules';
import type { SubjectSummary } from '../../../shared/schemas/students';
import { usePhoneScreen } from '../../lib/screen';
import { DataTable, type DataColumn } from '../data-table';
import { BAND_TEXT_COLORS, BandBadge } from './status-colors';

const COLUMNS: DataColumn<SubjectSummary>[] = [
  {
    header: 'Subject',
    rowHeader: true,
    cellProps: { fw: 500 },
    cell: (subject) => (
      <>
        {subject.name}
        <Text span size="xs" c="dimmed" ml={8} ff="monospace">
          {subject.code}
        </Text>
      </>
    ),
  },
  { header: 'Held', cell: (subject) => subject.held, numeric: true },
  { header: 'Attended', cell: (subject) => subject.attended, numeric: true },
  {
    header: 'Percentage',
    cell: (subject) => (
      <Text span inherit c={BAND_TEXT_COLORS[attendanceBand(subject.percentage)]} fw={600}>
        {formatPercent(subject.percentage, 1)}
      </Text>
    ),
    numeric: true,
  },
  { header: 'Status', cell: (subject) => <BandBadge band={subject.status === 'Good' ? 'good' : 'danger'}>{subject.status}</BandBadge> },
  { header: 'Can still miss', cell: (subject) => subject.canMiss, numeric: true },
];

/**
 * Attendance per subject: held and attended lectures (excused left out), the percentage, Good or
 * Low by the summary's own rule, and how many more can be missed while staying at or above 75%.
 * Shown only when the student had lectures; a list of cards on a phone.
 */
export function SubjectTable({ subjects, headingLevel = 2 }: { subjects: SubjectSummary[]; headingLevel?: 2 | 3 | 4 }) {
  const headingId = 'subject-attendance-heading';
  const phone = usePhoneScreen();
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={headingLevel} fz="lg" mb="sm" id={headingId}>
        Attendance by Subject
      </Title>
      <DataTable
        labelledBy={headingId}
        columns={COLUMNS}
        rows={subjects}
        rowKey={(subject) => subject.code}
        asCards={phone}
        minWidth={420}
        tableProps={{ striped: true }}
      />
    </Card>
  );
}
