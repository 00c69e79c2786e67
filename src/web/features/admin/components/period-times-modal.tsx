import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Modal, Stack, Table, Text } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { MAX_PERIOD } from '../../../../shared/schemas/attendance';
import { PeriodTimesSchema, type PeriodTime } from '../../../../shared/schemas/alerts';
import { FormActions, useFormFailure } from '../../../components/forms';
import { serverText } from '../../../i18n/server-text';
import { usePutPeriodTimes } from '../api/periods';

/**
 * The day's period times for the whole portal: a start and an end for each of the 12 periods, or
 * neither. Saving sends every period that has times; the others lose theirs.
 */
export function PeriodTimesModal({ opened, times, onClose }: { opened: boolean; times: PeriodTime[]; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <Modal opened={opened} onClose={onClose} title={t`Period times`}>
      {/* Mounted while open: each opening starts from the saved times. */}
      {opened && <PeriodTimesForm times={times} onDone={onClose} />}
    </Modal>
  );
}

interface Row {
  startsAt: string;
  endsAt: string;
}

interface RowErrors {
  startsAt?: string | undefined;
  endsAt?: string | undefined;
}

const PERIODS = Array.from({ length: MAX_PERIOD }, (_, index) => index + 1);

function rowsOf(times: PeriodTime[]): Row[] {
  const byPeriod = new Map(times.map((time) => [time.period, time]));
  return PERIODS.map((period) => ({ startsAt: byPeriod.get(period)?.startsAt ?? '', endsAt: byPeriod.get(period)?.endsAt ?? '' }));
}

/** The first two periods, in order, where one starts before the one before it ends: as the rules find them. */
function firstOverlap(times: PeriodTime[]): { period: number; previous: number } | null {
  const sorted = [...times].sort((a, b) => a.period - b.period);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.startsAt < sorted[i - 1]!.endsAt) return { period: sorted[i]!.period, previous: sorted[i - 1]!.period };
  }
  return null;
}

/**
 * What is wrong with the rows, by period, and what concerns two periods (an overlap): the same
 * rules and words as the server's, in the language shown.
 */
function check(rows: Row[], i18n: I18n): { byPeriod: Map<number, RowErrors>; overall: string | null; times: PeriodTime[] } {
  const byPeriod = new Map<number, RowErrors>();
  const times: PeriodTime[] = [];
  rows.forEach((row, index) => {
    const period = index + 1;
    if (row.startsAt === '' && row.endsAt === '') return;
    if (row.startsAt === '') byPeriod.set(period, { startsAt: i18n._(msg`Give period ${period} a start, or clear its end`) });
    else if (row.endsAt === '') byPeriod.set(period, { endsAt: i18n._(msg`Give period ${period} an end, or clear its start`) });
    else times.push({ period, startsAt: row.startsAt, endsAt: row.endsAt });
  });
  let overall: string | null = null;
  const parsed = PeriodTimesSchema.safeParse(times);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [index, field] = issue.path;
      const time = typeof index === 'number' ? times[index] : undefined;
      if (time && (field === 'startsAt' || field === 'endsAt')) {
        // The rules' own check (an end before the start) names the period; a time's format does not.
        const period = time.period;
        const text = issue.code === 'custom' ? i18n._(msg`Period ${period} must end after it starts`) : serverText(issue.message);
        byPeriod.set(period, { ...byPeriod.get(period), [field]: text });
      } else if (overall === null) {
        const overlap = issue.code === 'custom' && issue.path.length === 0 ? firstOverlap(times) : null;
        if (overlap) {
          const { period, previous } = overlap;
          overall = i18n._(msg`Period ${period} starts before period ${previous} ends`);
        } else overall = serverText(issue.message);
      }
    }
  }
  return { byPeriod, overall, times };
}

function PeriodTimesForm({ times, onDone }: { times: PeriodTime[]; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const [rows, setRows] = useState<Row[]>(() => rowsOf(times));
  const [errors, setErrors] = useState<Map<number, RowErrors>>(new Map());
  const failure = useFormFailure();
  const save = usePutPeriodTimes();

  const change = (period: number, field: keyof Row, value: string) =>
    setRows((all) => all.map((row, index) => (index === period - 1 ? { ...row, [field]: value } : row)));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    failure.clear();
    const found = check(rows, i18n);
    setErrors(found.byPeriod);
    if (found.overall) failure.setFailure(found.overall);
    if (found.byPeriod.size > 0 || found.overall) return;
    save.mutate(found.times, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: t`The period times have been saved.` });
        onDone();
      },
      onError: (error) => failure.fail(error, t`Error saving the period times. Please try again.`),
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t`Period times`}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          <Trans>The same every weekday, for every class, in 24-hour time. Leave a period blank if it has no fixed time.</Trans>
        </Text>
        {failure.alert}
        <Table aria-label={t`Times of each period`} verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">
                <Trans>Period</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Starts</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Ends</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {PERIODS.map((period) => {
              const row = rows[period - 1]!;
              const rowErrors = errors.get(period);
              return (
                <Table.Tr key={period}>
                  <Table.Th scope="row">{period}</Table.Th>
                  {(['startsAt', 'endsAt'] as const).map((field) => (
                    <Table.Td key={field}>
                      <TimeInput
                        size="xs"
                        aria-label={field === 'startsAt' ? t`Period ${period} starts` : t`Period ${period} ends`}
                        value={row[field]}
                        onChange={(event) => change(period, field, event.currentTarget.value)}
                        error={rowErrors?.[field]}
                        data-autofocus={period === 1 && field === 'startsAt' ? true : undefined}
                      />
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
        <FormActions submitLabel={t`Save period times`} onCancel={onDone} saving={save.isPending} />
      </Stack>
    </form>
  );
}
