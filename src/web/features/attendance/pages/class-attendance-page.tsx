import { msg, ph } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { DateField } from '../../../components/date-field';
import { bindValue } from '../../../components/forms';
import { IconAlertCircle, IconArrowLeft, IconChecks, IconSearch, IconUsers, IconX } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { MAX_REASON_LENGTH } from '../../../../shared/schemas/attendance';
import { PageLoader } from '../../../components/page-loader';
import { ApiError } from '../../../lib/api-client';
import { useMe } from '../../../lib/session';
import { useRegister } from '../api/get-register';
import { AbsenteeBox } from '../components/absentee-box';
import { OutboxPanel } from '../components/outbox-panel';
import { ExtraLecture } from '../components/extra-lecture';
import { OpenCheckin } from '../components/open-checkin';
import { PeriodPicker } from '../components/period-picker';
import { RegisterFooter } from '../components/register-footer';
import { RegisterHistory } from '../components/register-history';
import { RegisterTable } from '../components/register-table';
import { StartChoice } from '../components/start-choice';
import { TakenNote } from '../components/taken-note';
import { saveRefusal } from '../extra-lecture';
import { formatDateTime, formatLongDate } from '../format';
import { useExtraLecture } from '../hooks/use-extra-lecture';
import { useFlashMessage } from '../hooks/use-flash-message';
import { useRegisterAddress } from '../hooks/use-register-address';
import { useRegisterOutbox } from '../hooks/use-register-outbox';
import { useRegisterStart } from '../hooks/use-register-start';
import { useUnsavedGuard } from '../hooks/use-unsaved-guard';
import { waitingSaveOf, withWaitingMarks } from '../outbox';
import { REGISTER_KEYS_HINT } from '../register-keys';

function BackToDashboard() {
  return (
    <Anchor component={Link} to="/dashboard" size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={16} aria-hidden />
        <Trans>Back to the dashboard</Trans>
      </Group>
    </Anchor>
  );
}

/** The two buttons that mark the whole register at once (late and excused marks too). */
const MARK_ALL = [
  { present: true, label: msg`Mark all present`, Icon: IconChecks, color: 'var(--mantine-color-teal-8)' },
  { present: false, label: msg`Mark all absent`, Icon: IconX, color: 'var(--mantine-color-red-8)' },
] as const;

export function ClassAttendancePage() {
  const { t, i18n } = useLingui();
  const { className, today, date, periods, period, extraSubject, showPeriod, showExtraLecture, pickDate } = useRegisterAddress();
  const register = useRegister(className, date, period);
  const { extra, subject, dayPeriods, subjects } = useExtraLecture({ extraSubject, period, periods: periods.data, register: register.data });
  const lectures = dayPeriods.filter((p) => p.period > 0);
  const me = useMe();
  const userId = me.data?.id;
  const outbox = useRegisterOutbox(userId);
  // The user's save of this register waiting on the device: its marks are shown over the register
  // as fetched or kept (after a reload offline too), until it is sent.
  const waiting = waitingSaveOf(outbox.saves, { className, date, period });
  const shown = useMemo(() => (register.data && waiting ? withWaitingMarks(register.data, waiting) : register.data), [register.data, waiting]);
  const start = useRegisterStart({ className, date, period, register: shown, userId, waiting: waiting !== null });
  const { draft } = start;
  const [filter, setFilter] = useState('');
  const [saving, setSaving] = useState(false);
  const guardDialog = useUnsavedGuard(Boolean(draft?.dirty) && !saving);
  const [message, showMessage] = useFlashMessage();
  const [reason, setReason] = useState('');
  const timeZone = today.data?.timeZone;

  const submit = async () => {
    // Without a date the register and its Submit button are not shown; the date field asks for one.
    if (!date || !draft || period === null || !shown) return;
    const trimmed = reason.trim();
    const body = { records: draft.records, ...(extra ? { subject: extra.code } : {}), ...(trimmed ? { reason: trimmed } : {}) };
    setSaving(true);
    try {
      // Sent through the outbox (outbox.ts): with a key, the revision the marks started from and the time of Submit.
      const outcome = await outbox.submit({ className, date, period, body, ifMatch: register.revision });
      if (outcome.kind === 'sent' || outcome.kind === 'offline' || outcome.kind === 'conflict') {
        // The marks are on the server or on the device: the draft has done its work.
        draft.discard();
        setReason('');
      }
      if (outcome.kind === 'sent') showMessage({ kind: 'success', text: t`Attendance submitted successfully!` });
      // The screen shows the marks as taken (the save waiting, laid over the register) until it is sent.
      else if (outcome.kind === 'offline') showMessage({ kind: 'success', text: t`Saved on this device; it will be sent when you are online` });
      else if (outcome.kind === 'conflict') {
        showMessage({ kind: 'error', text: t`Not saved yet`, detail: t`This register was changed meanwhile: choose the marks to keep above.` });
      } else {
        // Refused now, with the page open: the draft keeps the marks, as before the outbox.
        await outbox.discard(outcome.save.id);
        showMessage({ kind: 'error', text: t`Error submitting attendance`, detail: saveRefusal(outcome.message, period, i18n) });
      }
    } catch (error) {
      showMessage({ kind: 'error', text: t`Error submitting attendance`, detail: error instanceof Error ? error.message : String(error) });
    } finally {
      setSaving(false);
    }
  };

  if (register.error instanceof ApiError && register.error.status === 404) {
    return (
      <Stack align="flex-start">
        <Title order={1}>
          <Trans>Class not found</Trans>
        </Title>
        <Alert color="yellow" icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
          {register.error.message}
        </Alert>
        <Button component={Link} to="/dashboard" variant="light" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          <Trans>Back to the dashboard</Trans>
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
  const savedAt = waiting ? formatDateTime(waiting.queuedAt, timeZone) : null;
  let body;
  if (loadError) {
    body = (
      <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} title={t`Error loading students`} role="alert">
        <Stack align="flex-start" gap="xs">
          <Text size="sm">{loadError.message}</Text>
          <Button variant="light" onClick={retry}>
            <Trans>Try Again</Trans>
          </Button>
        </Stack>
      </Alert>
    );
  } else if (date === null && !today.isPending) {
    body = null;
  } else if (!shown || !draft) {
    body = <PageLoader label={t`Loading students`} />;
  } else if (shown.records.length === 0) {
    body = (
      <Stack align="center" py="xl" ta="center">
        <IconUsers size={40} aria-hidden color="var(--mantine-color-gray-6)" />
        <Text>
          <Trans>No students found for the selected class.</Trans>
        </Text>
        <Button variant="light" onClick={() => void register.refetch()} loading={register.isFetching}>
          <Trans>Try Again</Trans>
        </Button>
      </Stack>
    );
  } else {
    body = (
      <>
        <TakenNote register={shown} timeZone={timeZone} start={start.note} />
        {waiting && savedAt && (
          <Text size="sm" role="status">
            {t`Shown with your marks saved on this device (${savedAt}), not sent yet.`}
          </Text>
        )}
        {draft.restoredAt && (
          <Alert color="yellow" variant="light" p="sm" role="status">
            <Group justify="space-between" gap="sm">
              <Text size="sm">{t`Restored the marks you had not submitted (${ph({ time: formatDateTime(draft.restoredAt.toISOString(), timeZone) })}).`}</Text>
              <Button size="compact-sm" variant="default" onClick={draft.discard}>
                <Trans>Discard draft</Trans>
              </Button>
            </Group>
          </Alert>
        )}
        {!shown.submitted && !waiting && (
          <StartChoice value={start.pattern} disabled={saving} onChange={start.choosePattern} />
        )}
        <AbsenteeBox pins={shown.records.map((r) => r.pin)} draft={draft} disabled={saving} />
        <Group gap="sm">
          {MARK_ALL.map(({ present, label, Icon, color }) => (
            <Button
              key={String(present)}
              variant="default"
              leftSection={<Icon size={18} color={color} aria-hidden />}
              onClick={() => draft.setAll(present)}
              disabled={saving}
            >
              {i18n._(label)}
            </Button>
          ))}
        </Group>
        <Group gap="sm" align="flex-end" justify="space-between">
          <TextInput
            label={t`Filter`}
            placeholder={t`Name or PIN`}
            leftSection={<IconSearch size={16} aria-hidden />}
            {...bindValue(filter, setFilter)}
            w={260}
          />
          <Text size="xs" c="dimmed" visibleFrom="sm">
            {i18n._(REGISTER_KEYS_HINT)}
          </Text>
        </Group>
        <RegisterTable records={shown.records} draft={draft} disabled={saving} filter={filter} timeZone={timeZone} />
        {shown.submitted && (
          <TextInput
            label={t`Reason for the change (optional)`}
            description={t`Kept with each changed mark in the change history.`}
            {...bindValue(reason, setReason)}
            maxLength={MAX_REASON_LENGTH}
            maw={560}
          />
        )}
        {shown.submitted && (
          <RegisterHistory className={className} date={shown.date} period={shown.period} timeZone={timeZone} />
        )}
        <RegisterFooter stats={draft.stats} dirty={draft.dirty} submitting={saving} message={message} onSubmit={() => void submit()} />
      </>
    );
  }

  const subjectName = subject?.name;
  let heading;
  if (period === null || period === 0) heading = t`${className} Attendance`;
  else if (subjectName) heading = t`${className} Attendance · Period ${period}: ${subjectName}`;
  else heading = t`${className} Attendance · Period ${period}`;

  return (
    <Stack gap="md">
      {guardDialog}
      <BackToDashboard />
      <div>
        <Title order={1}>{heading}</Title>
        <Text c="dimmed">{date ? formatLongDate(date) : t`No date selected`}</Text>
      </div>
      <DateField
        label={t`Date`}
        value={date}
        onChange={pickDate}
        maxDate={today.data?.date}
        clearLabel={t`Clear date`}
        disabled={!today.data}
        error={date === null && today.data ? t`Please select a date` : undefined}
        maw={260}
      />
      {lectures.length > 0 && period !== null && (
        <PeriodPicker periods={dayPeriods} value={period} onChange={showPeriod} />
      )}
      {date !== null && date === today.data?.date && period !== null && register.data && register.data.records.length > 0 && (
        <OpenCheckin className={className} period={period} />
      )}
      {date !== null && periods.data && subjects.length > 0 && (
        <ExtraLecture periods={periods.data} subjects={subjects} onChoose={showExtraLecture} />
      )}
      <OutboxPanel outbox={outbox} timeZone={timeZone} />
      {body}
    </Stack>
  );
}

export default ClassAttendancePage;
