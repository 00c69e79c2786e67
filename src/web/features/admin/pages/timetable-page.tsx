import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconBook, IconClock } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { AdminUser } from '../../../../shared/schemas/admin-users';
import type { PeriodTime } from '../../../../shared/schemas/alerts';
import { MAX_PERIOD } from '../../../../shared/schemas/attendance';
import type { Subject } from '../../../../shared/schemas/subjects';
import { WEEKDAYS, type SlotInput, type Timetable } from '../../../../shared/schemas/timetable';
import { useFormFailure } from '../../../components/forms';
import { EmptyState, LoadError } from '../../../components/load-states';
import { PageLoader } from '../../../components/page-loader';
import { ApiError } from '../../../lib/api-client';
import { usePeriodTimes } from '../../../lib/period-times';
import { useSubjects } from '../../../lib/subjects';
import { useTeachers } from '../api/teachers';
import { usePutTimetable, useTimetable } from '../api/timetable';
import { PeriodTimesModal } from '../components/period-times-modal';

/** Monday to Saturday; Sunday only when the class already has a Sunday lecture. */
const WORKDAYS = 6;
/** Periods shown at first; more as needed, up to 12. */
const SHOWN_PERIODS = 8;

/** A slot as the grid edits it: a subject code and a teacher's id ('' for none). */
interface Cell {
  subject: string;
  teacherId: string;
}
type Cells = Record<string, Cell>;
const cellKey = (weekday: number, period: number) => `${weekday}/${period}`;

/** The weekdays' names, Monday first (WEEKDAYS' order). */
const WEEKDAY_NAMES: Record<(typeof WEEKDAYS)[number], MessageDescriptor> = {
  Monday: msg`Monday`,
  Tuesday: msg`Tuesday`,
  Wednesday: msg`Wednesday`,
  Thursday: msg`Thursday`,
  Friday: msg`Friday`,
  Saturday: msg`Saturday`,
  Sunday: msg`Sunday`,
};
const EMPTY_CELL: Cell = { subject: '', teacherId: '' };

function cellsOf(timetable: Timetable): Cells {
  return Object.fromEntries(
    timetable.slots.map((slot) => [cellKey(slot.weekday, slot.period), { subject: slot.subject.code, teacherId: slot.teacher?.id ?? '' }]),
  );
}

function slotsOf(cells: Cells): SlotInput[] {
  return Object.entries(cells)
    .filter(([, cell]) => cell.subject !== '')
    .map(([key, cell]) => {
      const [weekday, period] = key.split('/').map(Number) as [number, number];
      return { weekday, period, subject: cell.subject, teacherId: cell.teacherId === '' ? null : cell.teacherId };
    })
    .sort((a, b) => a.weekday - b.weekday || a.period - b.period);
}

/**
 * The teacher choices: every enabled faculty and admin account (a name shared by two accounts
 * shows its e-mail too), and a slot's teacher who is no longer one of them, marked so: saving the
 * week with them is refused until the slot gets another.
 */
function teacherOptionsOf(teachers: AdminUser[], timetable: Timetable, i18n: I18n) {
  const names = new Map<string, number>();
  for (const teacher of teachers) names.set(teacher.name, (names.get(teacher.name) ?? 0) + 1);
  const options = teachers.map((teacher) => ({
    value: teacher.id,
    label: (names.get(teacher.name) ?? 0) > 1 ? `${teacher.name} (${teacher.email})` : teacher.name,
  }));
  const active = new Set(teachers.map((teacher) => teacher.id));
  const inactive = new Map(timetable.slots.flatMap((slot) => (slot.teacher && !active.has(slot.teacher.id) ? [[slot.teacher.id, slot.teacher]] : [])));
  for (const { id, name: teacherName } of inactive.values()) options.push({ value: id, label: i18n._(msg`${teacherName} (no longer active)`) });
  return [{ value: '', label: i18n._(msg`No teacher`) }, ...options];
}

/** A period's row header: its number, and its hours when they are set. */
function PeriodHeader({ period, time }: { period: number; time: PeriodTime | undefined }) {
  return (
    <Table.Th scope="row">
      <Text inherit>{period}</Text>
      {time && (
        <Text size="xs" c="dimmed" fw={400} style={{ whiteSpace: 'nowrap' }}>
          {time.startsAt}–{time.endsAt}
        </Text>
      )}
    </Table.Th>
  );
}

function TimetableGrid({
  className,
  timetable,
  subjects,
  teachers,
  times,
}: {
  className: string;
  timetable: Timetable;
  subjects: Subject[];
  teachers: AdminUser[];
  times: PeriodTime[];
}) {
  const { t, i18n } = useLingui();
  const [cells, setCells] = useState<Cells>(() => cellsOf(timetable));
  const failure = useFormFailure();
  const save = usePutTimetable();
  const days = timetable.slots.some((slot) => slot.weekday === 7) ? 7 : WORKDAYS;
  const used = Math.max(0, ...timetable.slots.map((slot) => slot.period));
  const [periods, setPeriods] = useState(Math.max(SHOWN_PERIODS, used));
  const dirty = JSON.stringify(slotsOf(cells)) !== JSON.stringify(slotsOf(cellsOf(timetable)));
  const options = [{ value: '', label: '—' }, ...subjects.map((s) => ({ value: s.code, label: `${s.code} · ${s.name}` }))];
  const teacherOptions = teacherOptionsOf(teachers, timetable, i18n);
  const timeOf = new Map(times.map((time) => [time.period, time]));

  const submit = () => {
    failure.clear();
    save.mutate(
      { className, slots: slotsOf(cells) },
      {
        onSuccess: (saved) => {
          setCells(cellsOf(saved));
          notifications.show({ color: 'green', message: t`The ${className} timetable has been saved.` });
        },
        onError: (error) =>
          // Not reaching the server says so in its own words too.
          failure.setFailure(error instanceof ApiError && error.status < 500 ? error.message : t`Error saving the timetable. Please try again.`),
      },
    );
  };

  return (
    <Stack gap="md">
      {failure.alert}
      <Table.ScrollContainer minWidth={720}>
        <Table withColumnBorders aria-label={t`${className} weekly timetable`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">
                <Trans>Period</Trans>
              </Table.Th>
              {WEEKDAYS.slice(0, days).map((day) => (
                <Table.Th key={day} scope="col">
                  {i18n._(WEEKDAY_NAMES[day])}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {Array.from({ length: periods }, (_, index) => index + 1).map((period) => (
              <Table.Tr key={period}>
                <PeriodHeader period={period} time={timeOf.get(period)} />
                {WEEKDAYS.slice(0, days).map((day, dayIndex) => {
                  const key = cellKey(dayIndex + 1, period);
                  const dayName = i18n._(WEEKDAY_NAMES[day]);
                  const cell = cells[key] ?? EMPTY_CELL;
                  const change = (field: keyof Cell, value: string) => setCells((all) => ({ ...all, [key]: { ...(all[key] ?? EMPTY_CELL), [field]: value } }));
                  return (
                    <Table.Td key={day} p={4}>
                      <Stack gap={4}>
                        <NativeSelect
                          size="xs"
                          aria-label={t`${dayName} period ${period}`}
                          data={options}
                          value={cell.subject}
                          onChange={(event) => change('subject', event.currentTarget.value)}
                        />
                        {/* A free period has no teacher to choose. */}
                        <NativeSelect
                          size="xs"
                          aria-label={t`${dayName} period ${period} teacher`}
                          data={teacherOptions}
                          value={cell.teacherId}
                          disabled={cell.subject === ''}
                          onChange={(event) => change('teacherId', event.currentTarget.value)}
                        />
                      </Stack>
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
          <Trans>Add a period</Trans>
        </Button>
        <Group gap="sm">
          {dirty && (
            <Text size="sm" c="var(--portal-text-notice)" fw={500}>
              <Trans>Unsaved changes</Trans>
            </Text>
          )}
          <Button onClick={submit} loading={save.isPending}>
            <Trans>Save timetable</Trans>
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

/** /admin/classes/:class/timetable: the class's week, a subject and a teacher per weekday and period, and the portal's period times. */
export function TimetablePage() {
  const { t } = useLingui();
  const className = useParams().class ?? '';
  const timetable = useTimetable(className);
  const subjects = useSubjects();
  const teachers = useTeachers();
  const times = usePeriodTimes();
  const [editingTimes, setEditingTimes] = useState(false);
  const queries = [timetable, subjects, teachers, times];

  let body;
  if (timetable.isPending || subjects.isPending || teachers.isPending || times.isPending) {
    body = <PageLoader label={t`Loading the timetable`} />;
  } else if (timetable.isError || subjects.isError || teachers.isError || times.isError) {
    const error = queries.find((query) => query.isError)?.error;
    body = (
      <LoadError
        title={t`Error loading the timetable`}
        message={error?.message ?? ''}
        onRetry={() => {
          for (const query of queries) if (query.isError) void query.refetch();
        }}
      />
    );
  } else if (subjects.data.length === 0) {
    body = (
      <EmptyState icon={<IconBook size={32} aria-hidden color="var(--mantine-color-gray-6)" />} title={t`No subjects yet.`}>
        <Trans>
          <Anchor component={Link} to="/admin/subjects">
            Add the subjects
          </Anchor>{' '}
          first; then choose one for each period here.
        </Trans>
      </EmptyState>
    );
  } else {
    // Keyed: a saved or reloaded week starts the grid from what is stored.
    body = (
      <TimetableGrid
        key={JSON.stringify(timetable.data.slots)}
        className={className}
        timetable={timetable.data}
        subjects={subjects.data}
        teachers={teachers.data}
        times={times.data}
      />
    );
  }

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/admin/classes" size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={16} aria-hidden />
          <Trans>Back to the classes</Trans>
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={4}>
          <Title order={2}>
            <Trans>{className} timetable</Trans>
          </Title>
          <Text c="dimmed" size="sm">
            <Trans>A class with a timetable takes a register per lecture; registers already taken keep their subject.</Trans>
          </Text>
        </Stack>
        <Button variant="default" leftSection={<IconClock size={16} aria-hidden />} onClick={() => setEditingTimes(true)} disabled={!times.isSuccess}>
          <Trans>Period times</Trans>
        </Button>
      </Group>
      {body}
      <PeriodTimesModal opened={editingTimes} times={times.data ?? []} onClose={() => setEditingTimes(false)} />
    </Stack>
  );
}

export default TimetablePage;
