import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { STANDING_WORD } from '../../../components/student-record';
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

/** A student's PIN, opening their record here; named for screen readers by whose record it opens. */
function RecordLink({ row }: { row: StudentSummary }) {
  const { t } = useLingui();
  const { pin, name } = row;
  return (
    <Anchor component={Link} to={studentRecordLink(pin)} aria-label={t`${pin}, open the record of ${name}`}>
      {pin}
    </Anchor>
  );
}

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
  const { t, i18n } = useLingui();
  const threshold = ATTENDANCE_THRESHOLD;
  const query = useStudentSummaries(className, ATTENDANCE_THRESHOLD, term, subjectCode);
  const columns: DataColumn<StudentSummary>[] = [
    { header: t`PIN`, rowHeader: true, cellProps: { fw: 500 }, cell: (row) => <RecordLink row={row} /> },
    { header: t`Name`, cell: (row) => row.name },
    { header: t`Class`, cell: (row) => row.className },
    { header: t`Status`, cell: (row) => <BandBadge band={row.present === 'Good' ? 'good' : 'danger'}>{i18n._(STANDING_WORD[row.present])}</BandBadge> },
    { header: t`Present Days`, numeric: true, cell: (row) => formatCount(row.presentDays) },
    { header: t`Absent Days`, numeric: true, cell: (row) => formatCount(row.absentDays) },
    { header: t`Percentage`, numeric: true, cell: (row) => <PercentBadge value={row.percentage} /> },
  ];
  // Up to fifty rows of a table: rendered in short slices, not as one long task when the list arrives.
  const data = useDeferredValue(query.data);
  const rows = data ?? [];
  const shown = showAll ? rows : rows.slice(0, FIRST_ROWS);
  const options = [{ value: ALL_CLASSES, label: t`All Classes` }, ...classNames.map((name) => ({ value: name, label: name }))];
  const subjectName = subjectCode ? (subjects.find((s) => s.code === subjectCode)?.name ?? subjectCode) : null;
  const termText = termDescription(shownTerm);

  let body;
  if (query.isError && !query.data) {
    body = (
      <LoadError message={t`Error loading students below the threshold. Please try again.`} onRetry={() => void query.refetch()} retryLabel={t`Retry`} />
    );
  } else if (data === undefined) {
    body = <SectionLoading label={t`Loading students below the threshold`} />;
  } else if (rows.length === 0) {
    let none;
    if (className && subjectName) none = t`No student is below ${threshold}% in ${className} in ${subjectName}.`;
    else if (className) none = t`No student is below ${threshold}% in ${className}.`;
    else if (subjectName) none = t`No student is below ${threshold}% in any class in ${subjectName}.`;
    else none = t`No student is below ${threshold}% in any class.`;
    body = (
      <Text c="dimmed" ta="center" py="md">
        {none}
      </Text>
    );
  } else {
    const count = rows.length;
    const total = formatCount(count);
    body = (
      <>
        <DataTable
          columns={columns}
          rows={shown}
          rowKey={(row) => row.pin}
          caption={t`${plural(count, { one: '# student', other: '# students' })} below ${threshold}%, lowest attendance first. Open a PIN to see that student's record.`}
          minWidth={640}
          tableProps={{ striped: true, highlightOnHover: true, verticalSpacing: 'xs', 'aria-busy': query.isFetching }}
        />
        {rows.length > FIRST_ROWS && (
          <Center>
            <Button variant="subtle" onClick={() => setShowAll((value) => !value)}>
              {showAll ? t`Show the first ${FIRST_ROWS}` : t`Show all ${total} students`}
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
              <Trans>Students Below {threshold}%</Trans>
            </Title>
            <Text size="sm" c="dimmed">
              <Trans>{termText}: the students who need to attend more.</Trans>
            </Text>
          </div>
          <Group gap="sm" align="flex-end">
            <Select
              label={t`Class of students`}
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
                label={t`Subject`}
                data={[{ value: ALL_SUBJECTS, label: t`All subjects` }, ...subjects.map((s) => ({ value: s.code, label: s.name }))]}
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
              label={t`Download the students below ${threshold}% as CSV`}
              disabled={rows.length === 0}
            />
          </Group>
        </Group>
        {body}
      </Stack>
    </Paper>
  );
}
