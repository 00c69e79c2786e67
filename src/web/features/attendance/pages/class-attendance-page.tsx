import '@mantine/dates/styles.css';
import { Alert, Anchor, Button, Chip, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconAlertCircle, IconArrowLeft, IconCalendar, IconChecks, IconUsers, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { isIsoDate } from '../../../../shared/dates';
import { MAX_REASON_LENGTH, type AttendanceRegister, type DayPeriod } from '../../../../shared/schemas/attendance';
import { PageLoader } from '../../../components/page-loader';
import { ApiError } from '../../../lib/api-client';
import { useDayPeriods } from '../api/get-day-periods';
import { usePortalToday } from '../api/get-portal-today';
import { useRegister } from '../api/get-register';
import { useSaveRegister } from '../api/save-register';
import { RegisterFooter } from '../components/register-footer';
import { RegisterHistory } from '../components/register-history';
import { RegisterTable } from '../components/register-table';
import { formatDateTime, formatLongDate } from '../format';
import { useFlashMessage } from '../hooks/use-flash-message';
import { useRegisterDraft } from '../hooks/use-register-draft';

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

function TakenNote({ register, timeZone }: { register: AttendanceRegister; timeZone: string | undefined }) {
  if (!register.submitted || !register.takenAt) {
    return (
      <Text size="sm" c="dimmed">
        Not taken yet for this day: everyone starts absent.
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
  const draft = useRegisterDraft(register.data);
  const save = useSaveRegister();
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
        <TakenNote register={register.data} timeZone={timeZone} />
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
        <RegisterTable records={register.data.records} draft={draft} disabled={saving} />
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
        valueFormat="D MMM YYYY"
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
