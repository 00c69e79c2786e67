import { useLingui } from '@lingui/react/macro';
import { Paper, SimpleGrid, Text } from '@mantine/core';
import { attendanceBand } from '../../../../shared/attendance-rules';
import type { OverallAttendance } from '../../../../shared/schemas/reports';
import { BAND_TEXT_COLORS } from '../../../components/student-record';
import { formatCount, formatPercent } from '../format';

function Tile({ label, value, color }: { label: string; value: string; color?: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text component="dt" size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text component="dd" m={0} fz="xl" fw={700} c={color} lh={1.3}>
        {value}
      </Text>
    </Paper>
  );
}

/** The four overview tiles of every register ever saved; the rate to 1 decimal in its band's colour. */
export function OverviewTiles({ overall }: { overall: OverallAttendance }) {
  const { t } = useLingui();
  return (
    // A description list: each figure is read with its label.
    <SimpleGrid component="dl" cols={{ base: 2, sm: 4 }} spacing="md" m={0}>
      <Tile label={t`Total Records`} value={formatCount(overall.total)} />
      <Tile label={t`Present`} value={formatCount(overall.present)} />
      <Tile label={t`Absent`} value={formatCount(overall.absent)} />
      <Tile
        label={t`Attendance Rate`}
        value={formatPercent(overall.presentPercentage, 1)}
        color={overall.total > 0 ? BAND_TEXT_COLORS[attendanceBand(overall.presentPercentage)] : undefined}
      />
    </SimpleGrid>
  );
}
