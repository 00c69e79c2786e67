import { Trans, useLingui } from '@lingui/react/macro';
import { DonutChart } from './charts';
import { Center, Group, Paper, Select, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { absentBand, attendanceBand } from '../../../../shared/attendance-rules';
import { classWiseCsv } from '../../../../shared/report-rules';
import type { ClassAttendance } from '../../../../shared/schemas/reports';
import type { Term } from '../../../../shared/schemas/terms';
import { termDescription, termFileTag } from '../../../lib/terms';
import { ABSENT_FILL, BAND_FILL, formatCount, formatPercent } from '../format';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { PercentBadge } from './band-badge';
import { ChartFigure } from './chart-figure';
import { CsvDownloadButton } from './csv-download-button';
import type { ChartKind } from './period-report';
import { PresentAbsentBars } from './present-absent-bars';

export const ALL_CLASSES = 'all';

interface ClassWiseReportProps {
  classes: ClassAttendance[];
  chart: ChartKind;
  selected: string;
  onSelect: (value: string) => void;
  today: string;
  /** The term the totals cover (null: all time). */
  term: Term | null;
}

function ClassDonut({ row }: { row: ClassAttendance }) {
  const { t } = useLingui();
  const marks = row.presentCount + row.absentCount;
  const data =
    marks === 0
      ? [{ name: t`No registers`, value: 1, color: 'gray.2' }]
      : [
          { name: t`Present`, value: row.presentCount, color: BAND_FILL[attendanceBand(row.presentPercentage)] },
          { name: t`Absent`, value: row.absentCount, color: ABSENT_FILL },
        ];
  const className = row.className;
  const percent = formatPercent(row.presentPercentage, 0);
  const present = formatCount(row.presentCount);
  const absent = formatCount(row.absentCount);
  const total = formatCount(marks);
  return (
    <Paper withBorder p="sm" radius="md" role="group" aria-label={t`${className} attendance`}>
      <Stack gap={4} align="center">
        <Text fw={700}>{row.className}</Text>
        <div aria-hidden="true">
          <DonutChart
            data={data}
            size={120}
            thickness={18}
            chartLabel={percent}
            withTooltip={false}
            accessibilityLayer={false}
            // Hidden from screen readers (the text below holds the figures), so nothing inside may take focus.
            pieProps={{ rootTabIndex: -1 }}
          />
        </div>
        {/* The donut's figures as text: 'Present: x/y' and 'Absent: x/y'. */}
        <Text size="sm">
          <VisuallyHidden>
            <Trans>{percent} present.</Trans>{' '}
          </VisuallyHidden>
          <Trans>
            Present: {present}/{total}
          </Trans>
        </Text>
        <Text size="sm">
          <Trans>
            Absent: {absent}/{total}
          </Trans>
        </Text>
      </Stack>
    </Paper>
  );
}

/** Per-class totals: the class dropdown, a donut per class (or stacked bars), and the table. */
export function ClassWiseReport({ classes, chart, selected, onSelect, today, term }: ClassWiseReportProps) {
  const { t } = useLingui();
  const rows = selected === ALL_CLASSES ? classes : classes.filter((row) => row.className === selected);
  const options = [{ value: ALL_CLASSES, label: t`All Classes` }, ...classes.map((row) => ({ value: row.className, label: row.className }))];
  const columns: DataColumn<ClassAttendance>[] = [
    { header: t`Class`, rowHeader: true, cell: (row) => row.className },
    { header: t`Total Students`, numeric: true, cell: (row) => formatCount(row.totalStudents) },
    { header: t`Present`, numeric: true, cell: (row) => formatCount(row.presentCount) },
    { header: t`Absent`, numeric: true, cell: (row) => formatCount(row.absentCount) },
    { header: t`Present %`, numeric: true, cell: (row) => formatPercent(row.presentPercentage, 2) },
    { header: t`Absent %`, numeric: true, cell: (row) => <PercentBadge value={row.absentPercentage} band={absentBand(row.absentPercentage)} /> },
  ];
  const termText = termDescription(term);

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="class-wise-heading">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <Title order={2} id="class-wise-heading">
            <Trans>Class-wise Attendance</Trans>
          </Title>
          <Group gap="sm" align="flex-end">
            <Select
              label={t`Class`}
              data={options}
              value={selected}
              onChange={(value) => onSelect(value ?? ALL_CLASSES)}
              allowDeselect={false}
              w={180}
              size="sm"
            />
            <CsvDownloadButton
              csv={() => classWiseCsv(rows)}
              filename={`attendance-by-class-${selected === ALL_CLASSES ? 'all' : selected}-${termFileTag(term)}-${today}.csv`}
              label={t`Download the class-wise report as CSV`}
            />
          </Group>
        </Group>

        {chart === 'pie' ? (
          <SimpleGrid cols={{ base: 2, xs: 3, md: 4 }} spacing="md">
            {rows.map((row) => (
              <ClassDonut key={row.className} row={row} />
            ))}
          </SimpleGrid>
        ) : (
          <ChartFigure caption={t`Present and absent marks per class; the table below lists the figures.`}>
            <PresentAbsentBars
              height={260}
              bars={rows.map((row) => ({ label: row.className, present: row.presentCount, absent: row.absentCount }))}
            />
          </ChartFigure>
        )}

        {rows.length === 0 ? (
          <Center>
            <Text c="dimmed">
              <Trans>No classes to show.</Trans>
            </Text>
          </Center>
        ) : (
          <DataTable
            columns={columns}
            rows={rows}
            rowKey={(row) => row.className}
            caption={<Trans>The registers of {termText} for each class; percentages are of present plus absent marks.</Trans>}
            minWidth={560}
            tableProps={{ striped: true, highlightOnHover: true, verticalSpacing: 'xs' }}
          />
        )}
      </Stack>
    </Paper>
  );
}
