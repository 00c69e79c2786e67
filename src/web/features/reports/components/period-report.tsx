import { Trans, useLingui } from '@lingui/react/macro';
import { PieChart } from './charts';
import { Center, ColorSwatch, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { attendanceBand, percentage } from '../../../../shared/attendance-rules';
import { dailyReportCsv, periodTotals, type ReportPeriod } from '../../../../shared/report-rules';
import type { DailyReportRow } from '../../../../shared/schemas/reports';
import { ABSENT_FILL, BAND_FILL, formatCount, formatLongDate, formatPercent, formatShortDate } from '../format';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { PercentBadge } from './band-badge';
import { ChartFigure } from './chart-figure';
import { CsvDownloadButton } from './csv-download-button';
import { PresentAbsentBars } from './present-absent-bars';

export type ChartKind = 'pie' | 'bar';

/** How many days, up to today, each report covers. */
const PERIOD_DAYS: Record<ReportPeriod, number> = { weekly: 7, monthly: 30 };

interface PeriodReportProps {
  period: ReportPeriod;
  chart: ChartKind;
  rows: DailyReportRow[];
  today: string;
}

function Legend({ items }: { items: { color: string; label: string }[] }) {
  return (
    <Group justify="center" gap="lg" component="span" wrap="wrap">
      {items.map((item) => (
        <Group key={item.label} gap={8} component="span" wrap="nowrap">
          <ColorSwatch color={`var(--mantine-color-${item.color.replace('.', '-')})`} size={12} withShadow={false} aria-hidden />
          <span>{item.label}</span>
        </Group>
      ))}
    </Group>
  );
}

/** The weekly or monthly report: a pie of the period's totals or stacked bars per date, and the table. */
export function PeriodReport({ period, chart, rows, today }: PeriodReportProps) {
  const { t } = useLingui();
  const days = PERIOD_DAYS[period];
  const columns: DataColumn<DailyReportRow>[] = [
    {
      header: t`Date`,
      rowHeader: true,
      cellProps: { fw: 400 },
      cell: (row) => <time dateTime={row.date}>{formatLongDate(row.date)}</time>,
    },
    { header: t`Present`, numeric: true, cell: (row) => formatCount(row.present) },
    { header: t`Absent`, numeric: true, cell: (row) => formatCount(row.absent) },
    { header: t`Total`, numeric: true, cell: (row) => formatCount(row.total) },
    { header: t`Attendance Rate`, numeric: true, cell: (row) => <PercentBadge value={percentage(row.present, row.total)} /> },
  ];
  const totals = periodTotals(rows);
  const present = formatCount(totals.present);
  const absent = formatCount(totals.absent);
  const presentPercent = formatPercent(totals.presentPercentage, 0);
  const absentPercent = formatPercent(totals.absentPercentage, 0);
  const presentFill = BAND_FILL[attendanceBand(totals.presentPercentage)];
  const headingId = `period-report-${period}`;

  let drawing;
  if (rows.length === 0) {
    drawing = (
      <Center mih={120}>
        <Text c="dimmed">
          <Trans>No registers were saved in the last {days} days.</Trans>
        </Text>
      </Center>
    );
  } else if (chart === 'pie') {
    drawing = (
      <ChartFigure
        caption={
          <Legend
            items={[
              { color: presentFill, label: t`Present: ${present} (${presentPercent})` },
              { color: ABSENT_FILL, label: t`Absent: ${absent} (${absentPercent})` },
            ]}
          />
        }
      >
        <Center>
          <PieChart
            data={[
              { name: t`Present`, value: totals.present, color: presentFill },
              { name: t`Absent`, value: totals.absent, color: ABSENT_FILL },
            ]}
            size={200}
            withLabels
            labelsType="percent"
            labelsPosition="inside"
            // Black labels read on all three band colours; set as a variable because the labelColor prop leaks into the DOM.
            vars={() => ({ root: { '--chart-labels-color': 'var(--mantine-color-black)' } })}
            withTooltip
            tooltipDataSource="segment"
            accessibilityLayer={false}
            // Hidden from screen readers (the caption holds the figures), so nothing inside may take focus.
            pieProps={{ rootTabIndex: -1 }}
          />
        </Center>
      </ChartFigure>
    );
  } else {
    drawing = (
      <ChartFigure
        caption={t`Present and absent students per date over the last ${days} days: ${present} present, ${absent} absent; the table below lists every date.`}
      >
        <PresentAbsentBars
          height={280}
          bars={rows.map((row) => ({ label: formatShortDate(row.date), present: row.present, absent: row.absent }))}
        />
      </ChartFigure>
    );
  }

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Group justify="space-between" align="center">
          <Title order={3} id={headingId}>
            {period === 'weekly' ? t`Weekly Report` : t`Monthly Report`}
          </Title>
          <CsvDownloadButton
            csv={() => dailyReportCsv(rows)}
            filename={`attendance-${period}-${today}.csv`}
            label={period === 'weekly' ? t`Download the weekly report as CSV` : t`Download the monthly report as CSV`}
            disabled={rows.length === 0}
          />
        </Group>
        {drawing}
        {rows.length > 0 && (
          <DataTable
            columns={columns}
            rows={rows}
            rowKey={(row) => row.date}
            caption={<Trans>Every class merged, one row per date with registers, the last {days} days up to today.</Trans>}
            minWidth={480}
            tableProps={{ striped: true, highlightOnHover: true, verticalSpacing: 'xs' }}
          />
        )}
      </Stack>
    </Paper>
  );
}
