import { Anchor, Button, Group, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconBook } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { MAX_PERIOD } from '../../../../shared/schemas/attendance';
import type { Subject } from '../../../../shared/schemas/subjects';
import { WEEKDAYS, type SlotInput, type Timetable } from '../../../../shared/schemas/timetable';
import { useFormFailure } from '../../../components/forms';
import { EmptyState, LoadError } from '../../../components/load-states';
import { PageLoader } from '../../../components/page-loader';
import { ApiError } from '../../../lib/api-client';
import { useSubjects } from '../../../lib/subjects';
import { usePutTimetable, useTimetable } from '../api/timetable';

/** Monday to Saturday; Sunday only when the class already has a Sunday lecture. */
const WORKDAYS = 6;
/** Periods shown at first; more as needed, up to 12. */
const SHOWN_PERIODS = 8;

type Cells = Record<string, string>;
const cellKey = (weekday: number, period: number) => `${weekday}/${period}`;

function cellsOf(timetable: Timetable): Cells {
  return Object.fromEntries(timetable.slots.map((slot) => [cellKey(slot.weekday, slot.period), slot.subject.code]));
}

function slotsOf(cells: Cells): SlotInput[] {
  return Object.entries(cells)
    .filter(([, subject]) => subject !== '')
    .map(([key, subject]) => {
      const [weekday, period] = key.split('/').map(Number) as [number, number];
      return { weekday, period, subject };
    })
    .sort((a, b) => a.weekday - b.weekday || a.period - b.period);
}

function TimetableGrid({ className, timetable, subjects }: { className: string; timetable: Timetable; subjects: Subject[] }) {
  const [cells, setCells] = useState<Cells>(() => cellsOf(timetable));
  const failure = useFormFailure();
  const save = usePutTimetable();
  const days = timetable.slots.some((slot) => slot.weekday === 7) ? 7 : WORKDAYS;
  const used = Math.max(0, ...timetable.slots.map((slot) => slot.period));
  const [periods, setPeriods] = useState(Math.max(SHOWN_PERIODS, used));
  const dirty = JSON.stringify(slotsOf(cells)) !== JSON.stringify(slotsOf(cellsOf(timetable)));
  const options = [{ value: '', label: '—' }, ...subjects.map((s) => ({ value: s.code, label: `${s.code} · ${s.name}` }))];

  const submit = () => {
    failure.clear();
    save.mutate(
      { className, slots: slotsOf(cells) },
      {
        onSuccess: (saved) => {
          setCells(cellsOf(saved));
          notifications.show({ color: 'green', message: `The ${className} timetable has been saved.` });
        },
        onError: (error) =>
          // Not reaching the server says so in its own words too.
          failure.setFailure(error instanceof ApiError && error.status < 500 ? error.message : 'Error saving the timetable. Please try again.'),
      },
    );
  };

  return (
    <Stack gap="md">
      {failure.alert}
      <Table.ScrollContainer minWidth={720}>
        <Table withColumnBorders aria-label={`${className} weekly timetable`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Period</Table.Th>
              {WEEKDAYS.slice(0, days).map((day) => (
                <Table.Th key={day} scope="col">
                  {day}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {Array.from({ length: periods }, (_, index) => index + 1).map((period) => (
              <Table.Tr key={period}>
                <Table.Th scope="row">{period}</Table.Th>
                {WEEKDAYS.slice(0, days).map((day, dayIndex) => {
                  const key = cellKey(dayIndex + 1, period);
                  return (
                    <Table.Td key={day} p={4}>
                      <NativeSelect
                        size="xs"
                        aria-label={`${day} period ${period}`}
                        data={options}
                        value={cells[key] ?? ''}
                        onChange={(event) => {
                          const value = event.currentTarget.value;
                          setCells((all) => ({ ...all, [key]: value }));
                        }}
                      />
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between">
        <Button variant="subtle" size="xs" onClick={() => setPeriods((n) => Math.min(MAX_PERIOD, n + 1))} disabled={periods >= MAX_PERIOD}>
          Add a period
        </Button>
        <Group gap="sm">
          {dirty && (
            <Text size="sm" c="var(--portal-text-notice)" fw={500}>
              Unsaved changes
            </Text>
          )}
          <Button onClick={submit} loading={save.isPending}>
            Save timetable
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

/** /admin/classes/:class/timetable: the class's week, a subject per weekday and period. */
export function TimetablePage() {
  const className = useParams().class ?? '';
  const timetable = useTimetable(className);
  const subjects = useSubjects();

  let body;
  if (timetable.isPending || subjects.isPending) {
    body = <PageLoader label="Loading the timetable" />;
  } else if (timetable.isError || subjects.isError) {
    const error = timetable.error ?? subjects.error;
    body = (
      <LoadError
        title="Error loading the timetable"
        message={error?.message ?? ''}
        onRetry={() => {
          void timetable.refetch();
          void subjects.refetch();
        }}
      />
    );
  } else if (subjects.data.length === 0) {
    body = (
      <EmptyState icon={<IconBook size={32} aria-hidden color="var(--mantine-color-gray-6)" />} title="No subjects yet.">
        <Anchor component={Link} to="/admin/subjects">
          Add the subjects
        </Anchor>{' '}
        first; then choose one for each period here.
      </EmptyState>
    );
  } else {
    // Keyed: a saved or reloaded week starts the grid from what is stored.
    body = <TimetableGrid key={JSON.stringify(timetable.data.slots)} className={className} timetable={timetable.data} subjects={subjects.data} />;
  }

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/admin/classes" size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={16} aria-hidden />
          Back to the classes
        </Group>
      </Anchor>
      <Stack gap={4}>
        <Title order={2}>{className} timetable</Title>
        <Text c="dimmed" size="sm">
          A class with a timetable takes a register per lecture; registers already taken keep their subject.
        </Text>
      </Stack>
      {body}
    </Stack>
  );
}

export default TimetablePage;
