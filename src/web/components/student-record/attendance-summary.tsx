import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { CSSProperties } from 'react';
import { attendanceBand, percentage } from '../../../shared/attendance-rules';
import { ATTENDANCE_THRESHOLD } from '../../../shared/constants';
import type { AttendanceSummaryResponse } from '../../../shared/schemas/students';
import { formatCount, formatPercent } from '../../lib/numbers';
import { BAND_COLORS, BAND_TEXT_COLORS, BandBadge } from './status-colors';

/** A summary's standing, as the server says it: at or above 75%, or below. */
export const STANDING_WORD = { Good: msg`Good`, Low: msg`Low` } as const;

/**
 * Total days, present, absent and percentage (1 decimal), a progress bar each for present and
 * absent, and, below 75%, the low-attendance warning.
 *
 * Props:
 * - `summary`: the `summary` of GET /api/students/:pin.
 * - `title`: the heading (default 'Attendance Summary'); `headingLevel` its level (default 2).
 * - `showForecast`: add the sentence on classes that can be missed or must be attended (default true).
 * - `caption`: what the figures cover, under the heading (the term: 'Autumn 2026 (1 Jul 2026 – 30 Nov 2026)').
 */
export function AttendanceSummary({
  summary,
  title,
  headingLevel = 2,
  showForecast = true,
  caption,
}: {
  summary: AttendanceSummaryResponse;
  title?: string;
  headingLevel?: 2 | 3 | 4;
  showForecast?: boolean;
  caption?: string;
}) {
  const { t, i18n } = useLingui();
  const band = attendanceBand(summary.percentage);
  const absentPercent = percentage(summary.absentDays, summary.totalDays);
  const low = summary.totalDays > 0 && summary.percentage < ATTENDANCE_THRESHOLD;
  const shownPercent = formatPercent(summary.percentage, 1);
  const threshold = ATTENDANCE_THRESHOLD;
  return (
    <Card withBorder radius="md" padding="lg" h="100%">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div>
            <Title order={headingLevel} fz="lg">
              {title ?? t`Attendance Summary`}
            </Title>
            {caption && (
              <Text size="sm" c="dimmed" data-testid="summary-term">
                {caption}
              </Text>
            )}
          </div>
          {summary.totalDays > 0 && (
            <BandBadge band={band}>{i18n._(STANDING_WORD[summary.status])}</BandBadge>
          )}
        </Group>
        <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="sm">
          <Tile label={t`Total Days`} value={formatCount(summary.totalDays)} />
          <Tile label={t`Present`} value={formatCount(summary.presentDays)} color={BAND_TEXT_COLORS.good} />
          <Tile label={t`Absent`} value={formatCount(summary.absentDays)} color={BAND_TEXT_COLORS.danger} />
          <Tile label={t`Percentage`} value={shownPercent} color={BAND_TEXT_COLORS[band]} />
        </SimpleGrid>
        <Stack gap={8}>
          <Bar label={t`Present`} value={summary.percentage} color="green" />
          <Bar label={t`Absent`} value={absentPercent} color="red" />
        </Stack>
        {low && (
          <Alert
            color={BAND_COLORS[band]}
            variant="light"
            style={{ '--alert-color': BAND_TEXT_COLORS[band] } as CSSProperties}
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title={t`Low attendance`}
          >
            <Trans>
              Attendance is {shownPercent}, below the required {threshold}%.
            </Trans>
          </Alert>
        )}
        {summary.totalDays === 0 && (
          <Text c="dimmed">
            <Trans>No attendance has been recorded yet.</Trans>
          </Text>
        )}
        {showForecast && <Forecast summary={summary} />}
      </Stack>
    </Card>
  );
}

/**
 * The advice the original app did not give (the PDF has it too, in English): how many more
 * classes can be missed while staying at or above 75%, or how many presents in a row bring
 * attendance back to it. Nothing when nothing has been recorded yet.
 */
function Forecast({ summary }: { summary: Pick<AttendanceSummaryResponse, 'totalDays' | 'canMiss' | 'needToAttend'> }) {
  const { t } = useLingui();
  if (summary.totalDays === 0) return null;
  const threshold = ATTENDANCE_THRESHOLD;
  let forecast;
  if (summary.needToAttend > 0) {
    const count = summary.needToAttend;
    forecast = t`Attending the next ${plural(count, { one: '# class', other: '# classes' })} in a row brings attendance back to ${threshold}%.`;
  } else if (summary.canMiss > 0) {
    const count = summary.canMiss;
    forecast = t`${plural(count, { one: '# more class', other: '# more classes' })} can be missed while staying at or above ${threshold}%.`;
  } else {
    forecast = t`Missing the next class would take attendance below ${threshold}%.`;
  }
  return <Text size="sm">{forecast}</Text>;
}

function Tile({ label, value, color }: { label: string; value: string; color?: string }) {
  return (
    <Card withBorder radius="sm" padding="sm" bg="var(--portal-surface-muted)">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="xl" fw={700} c={color}>
        {value}
      </Text>
    </Card>
  );
}

function Bar({ label, value, color }: { label: string; value: number; color: string }) {
  const shown = formatPercent(value, 1);
  return (
    <div>
      <Group justify="space-between" mb={4}>
        <Text size="sm">{label}</Text>
        <Text size="sm" fw={500}>
          {shown}
        </Text>
      </Group>
      <Progress value={Number(value.toFixed(1))} color={color} size="lg" aria-label={`${label} ${shown}`} />
    </div>
  );
}
