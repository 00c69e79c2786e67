import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Chip, Group, Text } from '@mantine/core';
import { IconChecks } from '@tabler/icons-react';
import type { DayPeriod } from '../../../../shared/schemas/attendance';

export function periodLabel(entry: Pick<DayPeriod, 'period' | 'subject'>, i18n: I18n): string {
  const { period } = entry;
  const subject = entry.subject?.name;
  if (period === 0) return subject ? i18n._(msg`Whole day: ${subject}`) : i18n._(msg`Whole day`);
  return subject ? i18n._(msg`Period ${period}: ${subject}`) : i18n._(msg`Period ${period}`);
}

/**
 * The day's lectures of a timetabled class (decision 13), each saying whether its register is
 * taken. Radio chips: arrow keys move between them, and they wrap on a phone.
 */
export function PeriodPicker({ periods, value, onChange }: { periods: DayPeriod[]; value: number; onChange: (period: number) => void }) {
  const { t, i18n } = useLingui();
  return (
    <div role="radiogroup" aria-label={t`Period`}>
      <Text size="sm" fw={500} mb={4} aria-hidden>
        {t`Period`}
      </Text>
      <Chip.Group value={String(value)} onChange={(next) => onChange(Number(next))}>
        <Group gap="xs">
          {periods.map((entry) => {
            const label = periodLabel(entry, i18n);
            return (
              <Chip key={entry.period} value={String(entry.period)} variant="outline" icon={<IconChecks size={14} aria-hidden />}>
                {entry.submitted ? t`${label} (taken)` : label}
              </Chip>
            );
          })}
        </Group>
      </Chip.Group>
    </div>
  );
}
