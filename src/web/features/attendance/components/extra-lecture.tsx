import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { IconInfoCircle, IconPlus } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { bindValue } from '../../../components/forms';
import type { DayPeriod } from '../../../../shared/schemas/attendance';
import type { Subject } from '../../../../shared/schemas/subjects';
import { extraLecturePeriods, firstFreePeriod, hasWholeDayRegister, WHOLE_DAY_TAKES_NO_LECTURES } from '../extra-lecture';

interface ExtraLectureProps {
  /** The day's periods as the server lists them: the timetable's and every register taken. */
  periods: DayPeriod[];
  subjects: Subject[];
  /** Shows the register of that period, to be taken for that subject (its code). */
  onChoose: (period: number, subject: string) => void;
}

function ExtraLectureForm({ periods, subjects, onChoose, onCancel }: ExtraLectureProps & { onCancel: () => void }) {
  const { t, i18n } = useLingui();
  const options = extraLecturePeriods(periods, i18n);
  const wholeDay = hasWholeDayRegister(periods);
  const closed = wholeDay || options.length === 0;
  const [period, setPeriod] = useState(firstFreePeriod(periods) ?? '');
  const [subject, setSubject] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (closed) return;
    if (!subject) {
      setMissing(true);
      return;
    }
    onChoose(Number(period), subject);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          <Trans>
            A lecture the timetable does not give this day, or another subject in one of its periods. Its register is taken like any
            other and then appears among the day&apos;s periods.
          </Trans>
        </Text>
        {closed && (
          <Alert color="yellow" variant="light" p="sm" role="note" icon={<IconInfoCircle size={18} aria-hidden />}>
            <Text size="sm">{wholeDay ? i18n._(WHOLE_DAY_TAKES_NO_LECTURES) : t`Every period of this date is taken.`}</Text>
          </Alert>
        )}
        <NativeSelect
          label={t`Period`}
          data={options}
          {...bindValue(period, setPeriod)}
          disabled={closed}
          data-autofocus
        />
        <NativeSelect
          label={t`Subject`}
          data={[{ value: '', label: t`Pick a subject` }, ...subjects.map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }))]}
          value={subject}
          onChange={(event) => {
            setSubject(event.currentTarget.value);
            setMissing(false);
          }}
          error={missing ? t`Pick the subject of the lecture` : undefined}
          disabled={closed}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={closed}>
            <Trans>Take the register</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * `Add an extra lecture`: a period (1 to 12, not taken that day) and a subject, in a dialog; the
 * page then shows that register, taken and submitted like any other (decision 13).
 */
export function ExtraLecture(props: ExtraLectureProps) {
  const { t } = useLingui();
  const [opened, setOpened] = useState(false);
  return (
    <div>
      <Button variant="subtle" size="compact-sm" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setOpened(true)} aria-haspopup="dialog">
        <Trans>Add an extra lecture</Trans>
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t`Add an extra lecture`} centered>
        {opened && (
          <ExtraLectureForm
            {...props}
            onCancel={() => setOpened(false)}
            onChoose={(period, subject) => {
              setOpened(false);
              props.onChoose(period, subject);
            }}
          />
        )}
      </Modal>
    </div>
  );
}
