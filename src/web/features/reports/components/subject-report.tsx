import { Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { attendanceBand, formatPercent } from '../../../../shared/attendance-rules';
import type { Term } from '../../../../shared/schemas/terms';
import { termDescription, type TermChoice } from '../../../lib/terms';
import { useSubjectReport } from '../api/get-subject-report';
import { formatCount } from '../format';
import { LoadError } from '../../../components/load-states';
import { BandBadge } from './band-badge';
import { SectionLoading } from './section-states';
import { ALL_CLASSES } from './class-wise-report';

/**
 * Attendance per subject for one class or all: lectures taken, held and attended marks (excused
 * left out) and the percentage, over the page's term.
 */
export function SubjectReport({ classNames, term, shownTerm }: { classNames: string[]; term: TermChoice; shownTerm: Term | null }) {
  const [selected, setSelected] = useState(ALL_CLASSES);
  const className = selected === ALL_CLASSES ? null : selected;
  const report = useSubjectReport(className, term, true);
  const options = [{ value: ALL_CLASSES, label: 'All Classes' }, ...classNames.map((name) => ({ value: name, label: name }))];

  let body;
  if (report.isPending) {
    body = <SectionLoading label="Loading attendance by subject" />;
  } else if (report.isError && !report.data) {
    body = <LoadError message="Error loading attendance by subject. Please try again." onRetry={() => void report.refetch()} retryLabel="Retry" />;
  } else if (report.data.length === 0) {
    body = (
      <Text c="dimmed" ta="center" py="md">
        No lecture has been taken {className ? `in ${className}` : 'yet'} in this period.
      </Text>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={520}>
        <Table striped verticalSpacing="xs" aria-labelledby="subject-report-heading" aria-busy={report.isFetching}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Subject</Table.Th>
              <Table.Th scope="col" ta="right">Lectures</Table.Th>
              <Table.Th scope="col" ta="right">Held</Table.Th>
              <Table.Th scope="col" ta="right">Attended</Table.Th>
              <Table.Th scope="col" ta="right">Percentage</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.data.map((row) => (
              <Table.Tr key={row.code}>
                <Table.Th scope="row" fw={500}>
                  {row.name}
                  <Text span size="xs" c="dimmed" ml={8} ff="monospace">
                    {row.code}
                  </Text>
                </Table.Th>
                <Table.Td ta="right">{formatCount(row.lectures)}</Table.Td>
                <Table.Td ta="right">{formatCount(row.held)}</Table.Td>
                <Table.Td ta="right">{formatCount(row.attended)}</Table.Td>
                <Table.Td ta="right">
                  <BandBadge band={attendanceBand(row.percentage)}>{formatPercent(row.percentage, 2)}</BandBadge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="subject-report-heading">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={2} id="subject-report-heading">
              Attendance by Subject
            </Title>
            <Text size="sm" c="dimmed">
              {termDescription(shownTerm)}: lectures taken, and the marks held and attended (excused marks left out).
            </Text>
          </div>
          <Select
            label="Class of lectures"
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
