import { ph, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Center, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { Checkin } from '../../../../shared/schemas/checkins';
import { PageLoader } from '../../../components/page-loader';
import { useCheckin, useCloseCheckin, useRemoveEntry } from '../api/checkins';
import { CheckinEntries } from '../components/checkin-entries';
import { CheckinQr } from '../components/checkin-qr';
import classes from '../components/projector.module.css';

/** The time left as m:ss, never below zero. */
export function timeLeft(closesAt: string, now: number): string {
  const seconds = Math.max(0, Math.ceil((Date.parse(closesAt) - now) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function registerAddress(checkin: Checkin): string {
  return `/attendance/${encodeURIComponent(checkin.class)}?date=${checkin.date}${checkin.period > 0 ? `&period=${checkin.period}` : ''}`;
}

/**
 * /checkin/:id, for the projector: the class in large type, the QR of the current code and its six
 * letters, the time left, and the students checked in with their flags. It asks for the code at
 * each code's end; the list comes through the check-in's stream as soon as it changes
 * (api/checkins.ts).
 */
export function ProjectorPage() {
  const { t } = useLingui();
  const { id = '' } = useParams();
  const checkin = useCheckin(id);
  const close = useCloseCheckin(id);
  const remove = useRemoveEntry(id);
  const now = useNow(1000);

  useEffect(() => {
    document.title = checkin.data ? t`Check-in: ${ph({ className: checkin.data.class })}` : t`Check-in`;
  }, [checkin.data, t]);

  if (checkin.isPending) return <PageLoader label={t`Loading the check-in`} />;
  if (!checkin.data) {
    return (
      <Center mih="100dvh" p="md" component="main" id="main-content">
        <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} title={t`Cannot show this check-in`} role="alert">
          <Stack align="flex-start" gap="xs">
            <Text size="sm">{checkin.error?.message}</Text>
            <Button component={Link} to="/dashboard" variant="light">
              <Trans>Back to the dashboard</Trans>
            </Button>
          </Stack>
        </Alert>
      </Center>
    );
  }

  const data = checkin.data;
  const open = data.state === 'open' && data.code !== null;
  const where = data.period > 0 ? t`Period ${ph({ period: data.period })}` : t`Whole day`;

  return (
    <main className={classes.screen} id="main-content">
      <header className={classes.header}>
        <div>
          <Title order={1} className={classes.title}>
            {data.class}
            {data.subject ? ` · ${data.subject.name}` : ''}
          </Title>
          <Text className={classes.subtitle}>
            {where}
            {data.subject ? ` · ${data.subject.code}` : ''}
          </Text>
        </div>
        <Group gap="sm" wrap="nowrap">
          <Button component={Link} to={registerAddress(data)} variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
            <Trans>Register</Trans>
          </Button>
          {open && (
            <Button color="red.8" onClick={() => close.mutate()} loading={close.isPending}>
              <Trans>Close check-in</Trans>
            </Button>
          )}
        </Group>
      </header>
      <section className={classes.codeColumn} aria-label={t`Code`}>
        {open ? (
          <>
            <CheckinQr url={data.code!.url} />
            <Text className={classes.typedCode} data-testid="typed-code">
              <VisuallyHidden>{t`Code to type:`} </VisuallyHidden>
              {data.code!.typedCode}
            </Text>
            <Text className={classes.countdown} role="timer" aria-label={t`Time left to check in`}>
              {t`Closes in ${ph({ time: timeLeft(data.closesAt, now) })}`}
            </Text>
          </>
        ) : (
          <Alert color="gray" variant="light" title={t`Check-in closed`} role="status">
            <Trans>Scans are refused now. The marks are in the register.</Trans>
          </Alert>
        )}
        {close.error && (
          <Alert color="red" role="alert">
            {close.error.message}
          </Alert>
        )}
      </section>
      <section className={classes.listColumn} aria-label={t`Checked in`}>
        <Group justify="space-between" align="baseline">
          <Text className={classes.count} role="status">
            {t`${ph({ count: data.checkedIn })} checked in`}
          </Text>
          <Text size="lg" fw={600}>
            {t`${plural({ refusedCount: data.refusedCount }, { one: '# refused attempt', other: '# refused attempts' })}`}
          </Text>
        </Group>
        <CheckinEntries entries={data.entries} onRemove={(pin, reason) => remove.mutateAsync({ pin, reason })} removing={remove.isPending} />
      </section>
    </main>
  );
}

export default ProjectorPage;
