import { Anchor, Button, Center, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { ATTENDANCE_THRESHOLD } from '../../../../shared/constants';
import { studentSummariesCsv } from '../../../../shared/report-rules';
import type { StudentSummary } from '../../../../shared/schemas/reports';
import type { Subject } from '../../../../shared/schemas/subjects';
import type { Term } from '../../../../shared/schemas/terms';
import { termDescription, termFileTag, type TermChoice } from '../../../lib/terms';
import { useStudentSummaries } from '../api/get-student-summaries';
import { formatCount } from '../format';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { LoadError } from '../../../components/load-states';
import { BandBadge, PercentBadge } from './band-badge';
import { CsvDownloadButton } from './csv-download-button';
import { SectionLoading } from './section-states';
import { ALL_CLASSES } from './class-wise-report';

/** The Subject picker's value for every mark, lectures and whole days alike. */
const ALL_SUBJECTS = '__all_subjects__';

/** Enough to act on at a glance; the rest is one click (or the CSV) away. */
const FIRST_ROWS = 50;

/** Where a student's record opens: this page's student search, searched for the PIN. */
const studentRecordLink = (pin: string) => `?pin=${encodeURIComponent(pin)}`;

const BELOW_THRESHOLD_COLUMNS: DataColumn<StudentSummary>[] = [
  {
    header: 'PIN',
    rowHeader: true,
    cellProps: { fw: 500 },
    cell: (row) => (
      <Anchor component={Link} to={studentRecordLink(row.pin)} aria-label={`${row.pin}, open the record of ${row.name}`}>
        {row.pin}
      </Anchor>
    ),
  },
  { header: 'Name', cell: (row) => row.name },
  { header: 'Class', cell: (row) => row.className },
  { header: 'Status', cell: (row) => <BandBadge band={row.present === 'Good' ? 'good' : 'danger'}>{row.present}</BandBadge> },
  { header: 'Present Days', numeric: true, cell: (row) => formatCount(row.presentDays) },
  { header: 'Absent Days', numeric: true, cell: (row) => formatCount(row.absentDays) },
  { header: 'Percentage', numeric: true, cell: (row) => <PercentBadge value={row.percentage} /> },
];

/**
 * The students under 75% over the page's term: `term` is what the page asked for (undefined: the
 * server's default), `shownTerm` the term the dashboard's answer covers (the same dates).
 */
export function StudentsBelowThreshold({
  classNames,
  today,
  term,
  shownTerm,
  subjects = [],
}: {
  classNames: string[];
  today: string;
  term: TermChoice;
  shownTerm: Term | null;
  /** The subjects; when there are some, a Subject picker lists the students below 75% in one of them. */
  subjects?: Subject[];
}) {
  const [selected, setSelected] = useState(ALL_CLASSES);
  const [subject, setSubject] = useState(ALL_SUBJECTS);
  const [showAll, setShowAll] = useState(false);
  const className = selected === ALL_CLASSES ? null : selected;
  const subjectCode = subject === ALL_SUBJECTS ? null : subject;
  const query = useStudentSummaries(className, ATTENDANCE_THRESHOLD, term, subjectCode);
  // Up to fifty rows of a table: rendered in short slices, not as one long task when the list arrives.
  const data = useDeferredValue(query.data);
  const rows = data ?? [];
  const shown = showAll ? rows : rows.slice(0, FIRST_ROWS);
  const options = [{ value: ALL_CLASSES, label: 'All Classes' }, ...classNames.map((name) => ({ value: name, label: name }))];

  let body;
  if (query.isError && !query.data) {
    body = <LoadError message="Error loading students below the threshold. Please try again." onRetry={() => void query.refetch()} retryLabel="Retry" />;
  } else if (data === undefined) {
    body = <SectionLoading label="Loading students below the threshold" />;
  } else if (rows.length === 0) {
    body = (
      <Text c="dimmed" ta="center" py="md">
        No student is below {ATTENDANCE_THRESHOLD}% {className ? `in ${className}` : 'in any class'}
        {subjectCode ? ` in ${subjects.find((s) => s.code === subjectCode)?.name ?? subjectCode}` : ''}.
      </Text>
    );
  } else {
    body = (
      <>
        <DataTable
          columns={BELOW_THRESHOLD_COLUMNS}
          rows={shown}
          rowKey={(row) => row.pin}
          caption={
            <>
              {formatCount(rows.length)} {rows.length === 1 ? 'student' : 'students'} below {ATTENDANCE_THRESHOLD}%, lowest
              attendance first. Open a PIN to see that student&apos;s record.
            </>
          }
          minWidth={640}
          tableProps={{ striped: true, highlightOnHover: true, verticalSpacing: 'xs', 'aria-busy': query.isFetching }}
        />
        {rows.length > FIRST_ROWS && (
          <Center>
            <Button variant="subtle" onClick={() => setShowAll((value) => !value)}>
              {showAll ? `Show the first ${FIRST_ROWS}` : `Show all ${formatCount(rows.length)} students`}
            </Button>
          </Center>
        )}
      </>
    );
  }

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="below-threshold-heading">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={2} id="below-threshold-heading">
              Students Below {ATTENDANCE_THRESHOLD}%
            </Title>
            <Text size="sm" c="dimmed">
              {termDescription(shownTerm)}: the students who need to attend more.
            </Text>
          </div>
          <Group gap="sm" align="flex-end">
            <Select
              label="Class of students"
              data={options}
              value={selected}
              onChange={(value) => {
                setSelected(value ?? ALL_CLASSES);
                setShowAll(false);
              }}
              allowDeselect={false}
              w={180}
              size="sm"
            />
            {subjects.length > 0 && (
              <Select
                label="Subject"
                data={[{ value: ALL_SUBJECTS, label: 'All subjects' }, ...subjects.map((s) => ({ value: s.code, label: s.name }))]}
                value={subject}
                onChange={(value) => {
                  setSubject(value ?? ALL_SUBJECTS);
                  setShowAll(false);
                }}
                allowDeselect={false}
                w={200}
                size="sm"
              />
            )}
            <CsvDownloadButton
              csv={() => studentSummariesCsv(rows)}
              filename={`students-below-${ATTENDANCE_THRESHOLD}-${className ?? 'all'}${subjectCode ? `-${subjectCode}` : ''}-${termFileTag(shownTerm)}-${today}.csv`}
              label={`Download the students below ${ATTENDANCE_THRESHOLD}% as CSV`}
              disabled={rows.length === 0}
            />
          </Group>
        </Group>
        {body}
      </Stack>
    </Paper>
  );
}
