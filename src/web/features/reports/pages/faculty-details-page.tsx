// The charts' styles load with this page's chunk only, not with every page.
import '@mantine/charts/styles.css';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Badge, Group, Paper, SegmentedControl, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { ATTENDANCE_THRESHOLD } from '../../../../shared/constants';
import type { ReportPeriod } from '../../../../shared/report-rules';
import { DASHBOARD_ERROR_MESSAGE, type AttendanceEvent } from '../../../../shared/schemas/reports';
import { LoadError } from '../../../components/load-states';
import { serverText } from '../../../i18n/server-text';
import { PageLoader } from '../../../components/page-loader';
import { studentRecordsKey, TermSelect } from '../../../components/student-record';
import { termDescription, type TermChoice } from '../../../lib/terms';
import { useDashboard } from '../api/get-dashboard';
import { useSubjects } from '../../../lib/subjects';
import { reportKeys } from '../api/query-keys';
import { invalidateTouched, useBurst } from '../api/live-refresh';
import { useAttendanceEvents, type LiveState } from '../api/use-attendance-events';
import { ALL_CLASSES, ClassWiseReport } from '../components/class-wise-report';
import { OverviewTiles } from '../components/overview-tiles';
import { PeriodReport, type ChartKind } from '../components/period-report';
import { SectionMenu, type PageSection } from '../components/section-menu';
import { StudentSearchSection } from '../components/student-search-section';
import { StudentsBelowThreshold } from '../components/students-below-threshold';
import { SubjectReport } from '../components/subject-report';

const LIVE_TEXT: Record<LiveState, { label: MessageDescriptor; color: string; hint: MessageDescriptor }> = {
  connecting: { label: msg`Connecting…`, color: 'gray', hint: msg`Connecting to live updates` },
  live: { label: msg`Live`, color: 'green', hint: msg`Figures update as soon as a register is saved` },
  reconnecting: { label: msg`Reconnecting…`, color: 'yellow', hint: msg`Live updates paused; reconnecting to the server` },
  unsupported: { label: msg`Not live`, color: 'gray', hint: msg`This browser cannot receive live updates; reload to refresh` },
};

function LiveBadge({ state }: { state: LiveState }) {
  const { i18n } = useLingui();
  const text = LIVE_TEXT[state];
  const hint = i18n._(text.hint);
  return (
    <Badge color={text.color} variant="dot" size="lg" tt="none" c="var(--mantine-color-text)" title={hint} data-live={state}>
      {i18n._(text.label)}
      <VisuallyHidden>: {hint}</VisuallyHidden>
    </Badge>
  );
}

const PERIOD_CHOICES: { value: ReportPeriod; label: MessageDescriptor }[] = [
  { value: 'weekly', label: msg`Weekly` },
  { value: 'monthly', label: msg`Monthly` },
];
const CHART_CHOICES: { value: ChartKind; label: MessageDescriptor }[] = [
  { value: 'pie', label: msg`Pie` },
  { value: 'bar', label: msg`Bar` },
];

export function FacultyDetailsPage() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  // Undefined until picked: the server's default term, shown from the answer.
  const [term, setTerm] = useState<TermChoice>(undefined);
  const dashboard = useDashboard(term);
  // Without subjects the portal takes whole-day registers only: the page is the specification's.
  const subjects = useSubjects();
  const [period, setPeriod] = useState<ReportPeriod>('weekly');
  const [chart, setChart] = useState<ChartKind>('pie');
  const [selectedClass, setSelectedClass] = useState(ALL_CLASSES);

  const refreshReports = () => {
    void queryClient.invalidateQueries({ queryKey: reportKeys.all });
    // The student record shown below counts the same marks.
    void queryClient.invalidateQueries({ queryKey: studentRecordsKey });
  };
  // Saves come in bursts: at most one refetch per 2 s, of what they touched.
  const onAttendance = useBurst<AttendanceEvent>((events) => void invalidateTouched(queryClient, events));
  const live = useAttendanceEvents({ onAttendance, onReconnected: refreshReports });

  const data = dashboard.data;
  // The first screen (the heading, the search, the overview's title) shows as soon as the answer
  // is here; the figures and sections below it render just after, in short slices, so that the
  // page paints first and stays responsive while they render.
  const shown = useDeferredValue(data);
  const classNames = shown?.classWiseAttendance.map((row) => row.className) ?? [];
  const hasSubjects = (subjects.data?.length ?? 0) > 0;
  const threshold = ATTENDANCE_THRESHOLD;
  const sections: PageSection[] = [
    { headingId: 'overview-heading', label: t`Overview` },
    { headingId: 'class-wise-heading', label: t`Class-wise` },
    ...(hasSubjects ? [{ headingId: 'subject-report-heading', label: t`Subjects` }] : []),
    { headingId: 'below-threshold-heading', label: t`Students below ${threshold}%` },
  ];
  const periodChoices = PERIOD_CHOICES.map((choice) => ({ value: choice.value, label: i18n._(choice.label) }));
  const chartChoices = CHART_CHOICES.map((choice) => ({ value: choice.value, label: i18n._(choice.label) }));
  const termText = data ? termDescription(data.term) : '';

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center">
        <div>
          <Title order={1}>
            <Trans>Faculty Dashboard</Trans>
          </Title>
          <Text c="dimmed">
            <Trans>Attendance of every class, updated as registers are saved.</Trans>
          </Text>
        </div>
        <Group gap="md" align="flex-end">
          <TermSelect value={term} shown={data?.term} onChange={setTerm} width={220} />
          <LiveBadge state={live} />
        </Group>
      </Group>

      {/* The search first: looking a student up is the page's quickest task. */}
      <StudentSearchSection term={term} onTermChange={setTerm} />
      <SectionMenu sections={sections} />

      {dashboard.isError && (
        <LoadError message={serverText(DASHBOARD_ERROR_MESSAGE)} onRetry={() => void dashboard.refetch()} retryLabel={t`Retry`} retrying={dashboard.isFetching} />
      )}

      {dashboard.isPending ? (
        <PageLoader label={t`Loading dashboard data`} />
      ) : data ? (
        <>
          <Paper component="section" aria-labelledby="overview-heading" p={0} bg="transparent">
            <Stack gap="md">
              <Group justify="space-between" align="flex-end">
                <div>
                  <Title order={2} id="overview-heading">
                    <Trans>Overview</Trans>
                  </Title>
                  <Text size="sm" c="dimmed">
                    <Trans>Totals of {termText}; the weekly and monthly reports cover the last 7 and 30 days.</Trans>
                  </Text>
                </div>
                <Group gap="sm">
                  <SegmentedControl aria-label={t`Report period`} value={period} onChange={(value) => setPeriod(value as ReportPeriod)} data={periodChoices} />
                  <SegmentedControl aria-label={t`Chart type`} value={chart} onChange={(value) => setChart(value as ChartKind)} data={chartChoices} />
                </Group>
              </Group>
              {shown && (
                <>
                  <OverviewTiles overall={shown.overallAttendance} />
                  <PeriodReport
                    period={period}
                    chart={chart}
                    rows={period === 'weekly' ? shown.weeklyReport : shown.monthlyReport}
                    today={shown.today}
                  />
                </>
              )}
            </Stack>
          </Paper>
          {shown && (
            <>
              <ClassWiseReport
                classes={shown.classWiseAttendance}
                chart={chart}
                selected={selectedClass}
                onSelect={setSelectedClass}
                today={shown.today}
                term={shown.term}
              />
              {hasSubjects && <SubjectReport classNames={classNames} term={term} shownTerm={shown.term} />}
              <StudentsBelowThreshold
                classNames={classNames}
                today={shown.today}
                term={term}
                shownTerm={shown.term}
                subjects={subjects.data ?? []}
              />
            </>
          )}
        </>
      ) : null}
    </Stack>
  );
}

export default FacultyDetailsPage;
