import { Modal, Stack, Table, Text } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { MAX_PERIOD } from '../../../../shared/schemas/attendance';
import { PeriodTimesSchema, type PeriodTime } from '../../../../shared/schemas/alerts';
import { FormActions, useFormFailure } from '../../../components/forms';
import { usePutPeriodTimes } from '../api/periods';

/**
 * The day's period times for the whole portal: a start and an end for each of the 12 periods, or
 * neither. Saving sends every period that has times; the others lose theirs.
 */
export function PeriodTimesModal({ opened, times, onClose }: { opened: boolean; times: PeriodTime[]; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Period times">
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

/**
 * What is wrong with the rows, by period, and what concerns two periods (an overlap): the same
 * rules and words as the server's.
 */
function check(rows: Row[]): { byPeriod: Map<number, RowErrors>; overall: string | null; times: PeriodTime[] } {
  const byPeriod = new Map<number, RowErrors>();
  const times: PeriodTime[] = [];
  rows.forEach((row, index) => {
    const period = index + 1;
    if (row.startsAt === '' && row.endsAt === '') return;
    if (row.startsAt === '') byPeriod.set(period, { startsAt: `Give period ${period} a start, or clear its end` });
    else if (row.endsAt === '') byPeriod.set(period, { endsAt: `Give period ${period} an end, or clear its start` });
    else times.push({ period, startsAt: row.startsAt, endsAt: row.endsAt });
  });
  let overall: string | null = null;
  const parsed = PeriodTimesSchema.safeParse(times);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [index, field] = issue.path;
      const time = typeof index === 'number' ? times[index] : undefined;
      if (time && (field === 'startsAt' || field === 'endsAt')) byPeriod.set(time.period, { ...byPeriod.get(time.period), [field]: issue.message });
      else overall ??= issue.message;
    }
  }
  return { byPeriod, overall, times };
}

function PeriodTimesForm({ times, onDone }: { times: PeriodTime[]; onDone: () => void }) {
  const [rows, setRows] = useState<Row[]>(() => rowsOf(times));
  const [errors, setErrors] = useState<Map<number, RowErrors>>(new Map());
  const failure = useFormFailure();
  const save = usePutPeriodTimes();

  const change = (period: number, field: keyof Row, value: string) =>
    setRows((all) => all.map((row, index) => (index === period - 1 ? { ...row, [field]: value } : row)));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    failure.clear();
    const found = check(rows);
    setErrors(found.byPeriod);
    if (found.overall) failure.setFailure(found.overall);
    if (found.byPeriod.size > 0 || found.overall) return;
    save.mutate(found.times, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: 'The period times have been saved.' });
        onDone();
      },
      onError: (error) => failure.fail(error, 'Error saving the period times. Please try again.'),
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Period times">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          The same every weekday, for every class, in 24-hour time. Leave a period blank if it has no fixed time.
        </Text>
        {failure.alert}
        <Table aria-label="Times of each period" verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Period</Table.Th>
              <Table.Th scope="col">Starts</Table.Th>
              <Table.Th scope="col">Ends</Table.Th>
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
                        aria-label={`Period ${period} ${field === 'startsAt' ? 'starts' : 'ends'}`}
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
        <FormActions submitLabel="Save period times" onCancel={onDone} saving={save.isPending} />
      </Stack>
    </form>
  );
}
