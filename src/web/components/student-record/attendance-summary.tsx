import { Alert, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { CSSProperties } from 'react';
import { attendanceBand, attendanceForecast, formatPercent, percentage } from '../../../shared/attendance-rules';
import { ATTENDANCE_THRESHOLD } from '../../../shared/constants';
import type { AttendanceSummaryResponse } from '../../../shared/schemas/students';
import { BAND_COLORS, BAND_TEXT_COLORS, BandBadge } from './status-colors';

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
  title = 'Attendance Summary',
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
  const band = attendanceBand(summary.percentage);
  const absentPercent = percentage(summary.absentDays, summary.totalDays);
  const forecast = showForecast ? attendanceForecast(summary) : null;
  const low = summary.totalDays > 0 && summary.percentage < ATTENDANCE_THRESHOLD;
  return (
    <Card withBorder radius="md" padding="lg" h="100%">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div>
            <Title order={headingLevel} fz="lg">
              {title}
            </Title>
            {caption && (
              <Text size="sm" c="dimmed" data-testid="summary-term">
                {caption}
              </Text>
            )}
          </div>
          {summary.totalDays > 0 && (
            <BandBadge band={band}>{summary.status}</BandBadge>
          )}
        </Group>
        <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="sm">
          <Tile label="Total Days" value={String(summary.totalDays)} />
          <Tile label="Present" value={String(summary.presentDays)} color={BAND_TEXT_COLORS.good} />
          <Tile label="Absent" value={String(summary.absentDays)} color={BAND_TEXT_COLORS.danger} />
          <Tile label="Percentage" value={formatPercent(summary.percentage, 1)} color={BAND_TEXT_COLORS[band]} />
        </SimpleGrid>
        <Stack gap={8}>
          <Bar label="Present" value={summary.percentage} color="green" />
          <Bar label="Absent" value={absentPercent} color="red" />
        </Stack>
        {low && (
          <Alert
            color={BAND_COLORS[band]}
            variant="light"
            style={{ '--alert-color': BAND_TEXT_COLORS[band] } as CSSProperties}
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title="Low attendance"
          >
            Attendance is {formatPercent(summary.percentage, 1)}, below the required {ATTENDANCE_THRESHOLD}%.
          </Alert>
        )}
        {summary.totalDays === 0 && <Text c="dimmed">No attendance has been recorded yet.</Text>}
        {forecast && <Text size="sm">{forecast}</Text>}
      </Stack>
    </Card>
  );
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
