import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Text, Title } from '@mantine/core';
import { attendanceBand } from '../../../shared/attendance-rules';
import type { SubjectSummary } from '../../../shared/schemas/students';
import { usePhoneScreen } from '../../lib/screen';
import { DataTable, type DataColumn } from '../data-table';
import { STANDING_WORD } from './attendance-summary';
import { formatCount, formatPercent } from '../../lib/numbers';
import { BAND_TEXT_COLORS, BandBadge } from './status-colors';

/** A subject's name, with its code beside it in small type. */
function SubjectName({ subject }: { subject: SubjectSummary }) {
  return (
    <>
      {subject.name}
      <Text span size="xs" c="dimmed" ml={8} ff="monospace">
        {subject.code}
      </Text>
    </>
  );
}

/**
 * Attendance per subject: held and attended lectures (excused left out), the percentage, Good or
 * Low by the summary's own rule, and how many more can be missed while staying at or above 75%.
 * Shown only when the student had lectures; a list of cards on a phone.
 */
export function SubjectTable({ subjects, headingLevel = 2 }: { subjects: SubjectSummary[]; headingLevel?: 2 | 3 | 4 }) {
  const { t, i18n } = useLingui();
  const headingId = 'subject-attendance-heading';
  const phone = usePhoneScreen();
  const columns: DataColumn<SubjectSummary>[] = [
    { header: t`Subject`, rowHeader: true, cellProps: { fw: 500 }, cell: (subject) => <SubjectName subject={subject} /> },
    { header: t`Held`, cell: (subject) => formatCount(subject.held), numeric: true },
    { header: t`Attended`, cell: (subject) => formatCount(subject.attended), numeric: true },
    {
      header: t`Percentage`,
      cell: (subject) => (
        <Text span inherit c={BAND_TEXT_COLORS[attendanceBand(subject.percentage)]} fw={600}>
          {formatPercent(subject.percentage, 1)}
        </Text>
      ),
      numeric: true,
    },
    {
      header: t`Status`,
      cell: (subject) => <BandBadge band={subject.status === 'Good' ? 'good' : 'danger'}>{i18n._(STANDING_WORD[subject.status])}</BandBadge>,
    },
    { header: t`Can still miss`, cell: (subject) => formatCount(subject.canMiss), numeric: true },
  ];
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={headingLevel} fz="lg" mb="sm" id={headingId}>
        <Trans>Attendance by Subject</Trans>
      </Title>
      <DataTable
        labelledBy={headingId}
        columns={columns}
        rows={subjects}
        rowKey={(subject) => subject.code}
        asCards={phone}
        minWidth={420}
        tableProps={{ striped: true }}
      />
    </Card>
  );
}
