import { Chip, Group, Text } from '@mantine/core';
import { IconChecks } from '@tabler/icons-react';
import type { DayPeriod } from '../../../../shared/schemas/attendance';

export function periodLabel(entry: Pick<DayPeriod, 'period' | 'subject'>): string {
  const name = entry.period === 0 ? 'Whole day' : `Period ${entry.period}`;
  return entry.subject ? `${name}: ${entry.subject.name}` : name;
}

/**
 * The day's lectures of a timetabled class (decision 13), each saying whether its register is
 * taken. Radio chips: arrow keys move between them, and they wrap on a phone.
 */
export function PeriodPicker({ periods, value, onChange }: { periods: DayPeriod[]; value: number; onChange: (period: number) => void }) {
  return (
    <div role="radiogroup" aria-label="Period">
      <Text size="sm" fw={500} mb={4} aria-hidden>
        Period
      </Text>
      <Chip.Group value={String(value)} onChange={(next) => onChange(Number(next))}>
        <Group gap="xs">
          {periods.map((entry) => (
            <Chip key={entry.period} value={String(entry.period)} variant="outline" icon={<IconChecks size={14} aria-hidden />}>
              {periodLabel(entry)}
              {entry.submitted ? ' (taken)' : ''}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
    </div>
  );
}
