import '@mantine/dates/styles.css';
import { Alert, Anchor, Button, Chip, Group, SegmentedControl, Stack, Text, TextInput, Title, useMatches } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconAlertCircle, IconArrowLeft, IconCalendar, IconChecks, IconSearch, IconUsers, IconX } from '@tabler/icons-react';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { isIsoDate } from '../../../../shared/dates';
import { MAX_REASON_LENGTH, type AttendanceRegister, type DayPeriod, type PreviousRegister } from '../../../../shared/schemas/attendance';
import { PageLoader } from '../../../components/page-loader';
import { ApiError } from '../../../lib/api-client';
import { formatPickerDate } from '../../../lib/calendar-date';
import { useMe } from '../../../lib/session';
import { absenteeProblems, parseAbsentees } from '../absentees';
import { usePreviousRegister } from '../api/get-previous-register';
import { useDayPeriods } from '../api/get-day-periods';
import { usePortalToday } from '../api/get-portal-today';
import { useRegister } from '../api/get-register';
import { useSaveRegister } from '../api/save-register';
import { RegisterFooter } from '../components/register-footer';
import { RegisterHistory } from '../components/register-history';
import { RegisterTable } from '../components/register-table';
import { formatDateTime, formatLongDate } from '../format';
import { useFlashMessage } from '../hooks/use-flash-message';
import { useRegisterDraft, type RegisterDraft } from '../hooks/use-register-draft';
import { useUnsavedGuard } from '../hooks/use-unsaved-guard';
import { REGISTER_KEYS_HINT } from '../register-keys';
import { readStartPattern, START_PATTERNS, writeStartPattern, type Marks, type StartPattern } from '../register-storage';

function BackToDashboard() {
  return (
    <Anchor component={Link} to="/dashboard" size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={16} aria-hidden />
        Back to the dashboard
      </Group>
    </Anchor>
  );
}

const START_NOTES: Record<StartPattern, string> = {
  absent: 'everyone starts absent',
  present: 'everyone starts present',
  copy: 'it starts as a copy of the last register',
};

function TakenNote({ register, timeZone, start }: { register: AttendanceRegister; timeZone: string | undefined; start: string }) {
  if (!register.submitted || !register.takenAt) {
    return (
      <Text size="sm" c="dimmed">
        Not taken yet for this day: {start}.
      </Text>
    );
  }
  const taken = formatDateTime(register.takenAt, timeZone);
  const updated = register.updatedAt ? formatDateTime(register.updatedAt, timeZone) : taken;
  return (
    <Alert color="blue" variant="light" p="sm">
      <Text size="sm">
        {register.takenBy ? `Taken by ${register.takenBy}` : 'Taken'} on {taken}
        {updated !== taken ? `, last changed ${updated}` : ''}.
      </Text>
      <Text size="sm">Submitting again replaces this register; every changed mark is kept in the change history.</Text>
    </Alert>
  );
}

/**
 * How a register not taken yet starts (DESIGN.md 7.7): the specification's everyone absent, or the
 * user's choice, remembered in this browser for them.
 */
function StartChoice({ value, onChange, disabled }: { value: StartPattern; onChange: (value: StartPattern) => void; disabled: boolean }) {
  // The three choices side by side do not fit a phone: one under another there.
  const orientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', xs: 'horizontal' });
  return (
    <div>
      <Text size="sm" fw={500} mb={4} id="register-start-label">
        New registers start with
      </Text>
      <SegmentedControl
        aria-labelledby="register-start-label"
        data={START_PATTERNS.map((pattern) => ({ value: pattern.value, label: pattern.label }))}
        value={value}
        onChange={(next) => onChange(next as StartPattern)}
        disabled={disabled}
        size="sm"
        orientation={orientation}
      />
    </div>
  );
}

/**
 * `Absentees (PIN endings)`: the few students away, by the ends of their PINs; Apply marks exactly
 * those absent and everyone else present (late and excused stay). Refused, with the reasons,
 * when an ending fits no PIN or several.
 */
function AbsenteeBox({ pins, draft, disabled }: { pins: string[]; draft: RegisterDraft; disabled: boolean }) {
  const [text, setText] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const [applied, setApplied] = useState<string | null>(null);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const entry = parseAbsentees(text, pins);
    const found = absenteeProblems(entry);
    setProblems(found);
    if (found.length > 0) {
      setApplied(null);
      return;
    }
    draft.setAbsentees(entry.absent);
    setApplied(
      entry.absent.length === 0
        ? 'Everyone marked present.'
        : `${entry.absent.length} marked absent (${entry.absent.join(', ')}), everyone else present.`,
    );
  };
  return (
    <form onSubmit={apply} noValidate>
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <TextInput
          label="Absentees (PIN endings)"
          description="Separated by spaces or commas. Apply marks them absent and everyone else present; late and excused stay."
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setApplied(null);
          }}
          error={problems.length > 0 ? problems.join(' ') : undefined}
          disabled={disabled}
          autoComplete="off"
          spellCheck={false}
          style={{ flex: 1 }}
          maw={560}
        />
        <Button type="submit" variant="light" disabled={disabled} mt={problems.length > 0 ? 0 : 'calc(var(--mantine-spacing-xl) + 1.5rem)'}>
          Apply
        </Button>
      </Group>
      <div aria-live="polite">
        {applied && (
          <Text size="sm" c="var(--portal-text-present)" mt={4}>
            {applied}
          </Text>
        )}
      </div>
    </form>
  );
}

function periodLabel(entry: DayPeriod): string {
  const name = entry.period === 0 ? 'Whole day' : `Period ${entry.period}`;
  return entry.subject ? `${name}: ${entry.subject.name}` : name;
}

/**
 * The day's lectures of a timetabled class (DESIGN.md 7.6), each saying whether its register is
 * taken. Radio chips: arrow keys move between them, and they wrap on a phone.
 */
function PeriodPicker({ periods, value, onChange }: { periods: DayPeriod[]; value: number; onChange: (period: number) => void }) {
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

/**
 * Which register the page shows: `?period=` when given; otherwise, for a class with lectures that
 * day, the first one not taken yet (else the first), and for a class without, the whole day (0).
 * Null while the day's periods load.
 */
function choosePeriod(asked: string | null, periods: DayPeriod[] | undefined): number | null {
  if (asked !== null && /^\d{1,2}$/.test(asked)) return Number(asked);
  if (!periods) return null;
  const lectures = periods.filter((p) => p.period > 0);
  if (lectures.length === 0) return 0;
  return (lectures.find((p) => !p.submitted) ?? lectures[0]!).period;
}

/** The marks a register not taken yet starts from, or null for everyone absent (the register as loaded). */
function startMarks(pattern: StartPattern, register: AttendanceRegister | undefined, previous: PreviousRegister | undefined): Marks | null {
  if (!register || register.submitted) return null;
  if (pattern === 'present') return Object.fromEntries(register.records.map((r) => [r.pin, 'present']));
  if (pattern === 'copy' && previous) {
    const before = new Map(previous.marks.map((mark) => [mark.pin, mark.status]));
    // A student who joined since starts absent, as the specification's register does.
    return Object.fromEntries(register.records.map((r) => [r.pin, before.get(r.pin) ?? 'absent']));
  }
  return null;
}

function startNote(pattern: StartPattern, previous: PreviousRegister | undefined): string {
  if (pattern === 'copy') {
    if (previous === undefined) return 'loading the last register to copy';
    if (previous === null) return 'there is no earlier register to copy, so everyone starts absent';
    return `it starts as a copy of the register of ${formatLongDate(previous.date)}${previous.period > 0 ? `, period ${previous.period}` : ''}`;
  }
  return START_NOTES[pattern];
}

export function ClassAttendancePage() {
  const className = useParams().class ?? '';
  const today = usePortalToday();
  const [searchParams, setSearchParams] = useSearchParams();
  // The day is in the address (?date=, so a link or a reload keeps it); without one, the portal's
  // today. Cleared, there is no day until one is picked.
  const [cleared, setCleared] = useState(false);
  const asked = searchParams.get('date');
  const date = cleared ? null : asked !== null && isIsoDate(asked) ? asked : (today.data?.date ?? null);
  const periods = useDayPeriods(className, date);
  const period = choosePeriod(searchParams.get('period'), periods.data);
  const lectures = (periods.data ?? []).filter((p) => p.period > 0);
  const register = useRegister(className, date, period);
  const me = useMe();
  const userId = me.data?.id;
  // The user's choice of how a new register starts, remembered in this browser.
  const [chosenStart, setChosenStart] = useState<StartPattern | null>(null);
  const startPattern = chosenStart ?? readStartPattern(userId);
  const isNew = register.data !== undefined && !register.data.submitted;
  const previous = usePreviousRegister(className, date, period, isNew && startPattern === 'copy');
  const start = useMemo(() => startMarks(startPattern, register.data, previous.data), [startPattern, register.data, previous.data]);
  const draft = useRegisterDraft(register.data, { userId, start });
  const [filter, setFilter] = useState('');
  const save = useSaveRegister();
  const guardDialog = useUnsavedGuard(Boolean(draft?.dirty) && !save.isPending);
  const [message, showMessage] = useFlashMessage();
  const [reason, setReason] = useState('');
  const timeZone = today.data?.timeZone;

  const submit = () => {
    // Without a date the register and its Submit button are not shown; the date field asks for one.
    if (!date || !draft || period === null) return;
    const trimmed = reason.trim();
    save.mutate(
      { className, date, period, body: { records: draft.records, ...(trimmed ? { reason: trimmed } : {}) } },
      {
        onSuccess: () => {
          // Saved: the draft kept in the browser has done its work.
          draft.discard();
          setReason('');
          showMessage({ kind: 'success', text: 'Attendance submitted successfully!' });
        },
        onError: (error) => showMessage({ kind: 'error', text: 'Error submitting attendance', detail: error.message }),
      },
    );
  };

  if (register.error instanceof ApiError && register.error.status === 404) {
    return (
      <Stack align="flex-start">
        <Title order={1}>Class not found</Title>
        <Alert color="yellow" icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
          {register.error.message}
        </Alert>
        <Button component={Link} to="/dashboard" variant="light" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          Back to the dashboard
        </Button>
      </Stack>
    );
  }

  const loadError = today.error ?? periods.error ?? register.error;
  const retry = () => {
    if (today.isError) void today.refetch();
    if (periods.isError) void periods.refetch();
    if (register.isError) void register.refetch();
  };
  const choosePeriodOf = (next: number) =>
    setSearchParams(
      (params) => {
        params.set('period', String(next));
        return params;
      },
      { replace: true },
    );
  const pickDate = (next: string | null) => {
    setCleared(next === null);
    setSearchParams(
      (params) => {
        if (next === null) params.delete('date');
        else params.set('date', next);
        // Another day has other lectures: the picker chooses again.
        params.delete('period');
        return params;
      },
      { replace: true },
    );
  };
  const subject = register.data?.subject;

  let body;
  if (loadError) {
    body = (
      <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} title="Error loading students" role="alert">
        <Stack align="flex-start" gap="xs">
          <Text size="sm">{loadError.message}</Text>
          <Button variant="light" onClick={retry}>
            Try Again
          </Button>
        </Stack>
      </Alert>
    );
  } else if (date === null && !today.isPending) {
    body = null;
  } else if (!register.data || !draft) {
    body = <PageLoader label="Loading students" />;
  } else if (register.data.records.length === 0) {
    body = (
      <Stack align="center" py="xl" ta="center">
        <IconUsers size={40} aria-hidden color="var(--mantine-color-gray-6)" />
        <Text>No students found for the selected class.</Text>
        <Button variant="light" onClick={() => void register.refetch()} loading={register.isFetching}>
          Try Again
        </Button>
      </Stack>
    );
  } else {
    const saving = save.isPending;
    body = (
      <>
        <TakenNote register={register.data} timeZone={timeZone} start={startNote(startPattern, previous.data)} />
        {draft.restoredAt && (
          <Alert color="yellow" variant="light" p="sm" role="status">
            <Group justify="space-between" gap="sm">
              <Text size="sm">
                Restored the marks you had not submitted ({formatDateTime(draft.restoredAt.toISOString(), timeZone)}).
              </Text>
              <Button size="compact-sm" variant="default" onClick={draft.discard}>
                Discard draft
              </Button>
            </Group>
          </Alert>
        )}
        {!register.data.submitted && (
          <StartChoice
            value={startPattern}
            disabled={saving}
            onChange={(next) => {
              setChosenStart(next);
              if (userId) writeStartPattern(userId, next);
            }}
          />
        )}
        <AbsenteeBox pins={register.data.records.map((r) => r.pin)} draft={draft} disabled={saving} />
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={<IconChecks size={18} color="var(--mantine-color-teal-8)" aria-hidden />}
            onClick={() => draft.setAll(true)}
            disabled={saving}
          >
            Mark all present
          </Button>
          <Button
            variant="default"
            leftSection={<IconX size={18} color="var(--mantine-color-red-8)" aria-hidden />}
            onClick={() => draft.setAll(false)}
            disabled={saving}
          >
            Mark all absent
          </Button>
        </Group>
        <Group gap="sm" align="flex-end" justify="space-between">
          <TextInput
            label="Filter"
            placeholder="Name or PIN"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value)}
            w={260}
          />
          <Text size="xs" c="dimmed" visibleFrom="sm">
            {REGISTER_KEYS_HINT}
          </Text>
        </Group>
        <RegisterTable records={register.data.records} draft={draft} disabled={saving} filter={filter} />
        {register.data.submitted && (
          <TextInput
            label="Reason for the change (optional)"
            description="Kept with each changed mark in the change history."
            value={reason}
            maxLength={MAX_REASON_LENGTH}
            onChange={(event) => setReason(event.currentTarget.value)}
            maw={560}
          />
        )}
        {register.data.submitted && (
          <RegisterHistory className={className} date={register.data.date} period={register.data.period} timeZone={timeZone} />
        )}
        <RegisterFooter stats={draft.stats} dirty={draft.dirty} submitting={saving} message={message} onSubmit={submit} />
      </>
    );
  }

  return (
    <Stack gap="md">
      {guardDialog}
      <BackToDashboard />
      <div>
        <Title order={1}>
          {className} Attendance
          {period !== null && period > 0 ? ` · Period ${period}${subject ? `: ${subject.name}` : ''}` : ''}
        </Title>
        <Text c="dimmed">{date ? formatLongDate(date) : 'No date selected'}</Text>
      </div>
      <DatePickerInput
        label="Date"
        placeholder="Pick a date"
        leftSection={<IconCalendar size={18} aria-hidden />}
        value={date}
        onChange={pickDate}
        maxDate={today.data?.date}
        valueFormatter={formatPickerDate}
        clearable
        clearButtonProps={{ 'aria-label': 'Clear date' }}
        disabled={!today.data}
        error={date === null && today.data ? 'Please select a date' : undefined}
        maw={260}
      />
      {lectures.length > 0 && period !== null && (
        <PeriodPicker periods={periods.data ?? []} value={period} onChange={choosePeriodOf} />
      )}
      {body}
    </Stack>
  );
}

export default ClassAttendancePage;
