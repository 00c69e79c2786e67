import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { SubjectReportRow } from '../../../../shared/schemas/reports';
import type { Term } from '../../../../shared/schemas/terms';
import { termDescription, type TermChoice } from '../../../lib/terms';
import { useSubjectReport } from '../api/get-subject-report';
import { formatCount } from '../format';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { LoadError } from '../../../components/load-states';
import { PercentBadge } from './band-badge';
import { SectionLoading } from './section-states';
import { ALL_CLASSES } from './class-wise-report';

/** A subject's name, with its code beside it in small type. */
function SubjectName({ row }: { row: SubjectReportRow }) {
  return (
    <>
      {row.name}
      <Text span size="xs" c="dimmed" ml={8} ff="monospace">
        {row.code}
      </Text>
    </>
  );
}

/**
 * Attendance per subject for one class or all: lectures taken, held and attended marks (excused
 * left out) and the percentage, over the page's term.
 */
export function SubjectReport({ classNames, term, shownTerm }: { classNames: string[]; term: TermChoice; shownTerm: Term | null }) {
  const { t } = useLingui();
  const [selected, setSelected] = useState(ALL_CLASSES);
  const className = selected === ALL_CLASSES ? null : selected;
  const report = useSubjectReport(className, term, true);
  const options = [{ value: ALL_CLASSES, label: t`All Classes` }, ...classNames.map((name) => ({ value: name, label: name }))];
  const columns: DataColumn<SubjectReportRow>[] = [
    { header: t`Subject`, rowHeader: true, cellProps: { fw: 500 }, cell: (row) => <SubjectName row={row} /> },
    { header: t`Lectures`, numeric: true, cell: (row) => formatCount(row.lectures) },
    { header: t`Held`, numeric: true, cell: (row) => formatCount(row.held) },
    { header: t`Attended`, numeric: true, cell: (row) => formatCount(row.attended) },
    { header: t`Percentage`, numeric: true, cell: (row) => <PercentBadge value={row.percentage} /> },
  ];
  const termText = termDescription(shownTerm);

  let body;
  if (report.isPending) {
    body = <SectionLoading label={t`Loading attendance by subject`} />;
  } else if (report.isError && !report.data) {
    body = <LoadError message={t`Error loading attendance by subject. Please try again.`} onRetry={() => void report.refetch()} retryLabel={t`Retry`} />;
  } else if (report.data.length === 0) {
    body = (
      <Text c="dimmed" ta="center" py="md">
        {className ? t`No lecture has been taken in ${className} in this period.` : t`No lecture has been taken yet in this period.`}
      </Text>
    );
  } else {
    body = (
      <DataTable
        columns={columns}
        rows={report.data}
        rowKey={(row) => row.code}
        labelledBy="subject-report-heading"
        minWidth={520}
        tableProps={{ striped: true, verticalSpacing: 'xs', 'aria-busy': report.isFetching }}
      />
    );
  }

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="subject-report-heading">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={2} id="subject-report-heading">
              <Trans>Attendance by Subject</Trans>
            </Title>
            <Text size="sm" c="dimmed">
              <Trans>{termText}: lectures taken, and the marks held and attended (excused marks left out).</Trans>
            </Text>
          </div>
          <Select
            label={t`Class of lectures`}
            data={options}
            value={selected}
            onChange={(value) => setSelected(value ?? ALL_CLASSES)}
            allowDeselect={false}
            w={180}
            size="sm"
          />
        </Group>
        {body}
      </Stack>
    </Paper>
  );
}
