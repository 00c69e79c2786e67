import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Navigate } from 'react-router';
import { canAdminister } from '../../../../shared/access';
import { PageLoader } from '../../../components/page-loader';
import { useMe } from '../../../lib/session';
import { useClasses } from '../api/get-classes';
import { usePortalToday } from '../api/get-portal-today';
import { ClassCard } from '../components/class-card';
import { OutboxPanel } from '../components/outbox-panel';
import { useRegisterOutbox } from '../hooks/use-register-outbox';

export function DashboardPage() {
  const { t } = useLingui();
  const classes = useClasses();
  const me = useMe();
  // Times of today's registers read in the portal's zone.
  const today = usePortalToday();
  // Register saves waiting on the device are sent from here too: the dashboard is where the app starts.
  const outbox = useRegisterOutbox(me.data?.id);

  // A fresh install (no roster yet) opens an admin on the setup checklist instead of empty classes.
  const emptyRoster = classes.data !== undefined && classes.data.every((summary) => summary.studentCount === 0);
  if (canAdminister(me.data) && emptyRoster) return <Navigate to="/admin" replace />;

  return (
    <Stack>
      <div>
        <Title order={1}>
          <Trans>Faculty Dashboard</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>Select a class to manage attendance</Trans>
        </Text>
      </div>
      <OutboxPanel outbox={outbox} timeZone={today.data?.timeZone} />
      {classes.isPending ? (
        <PageLoader label={t`Loading classes`} />
      ) : classes.isError ? (
        <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} title={t`Error loading classes`} role="alert">
          <Stack align="flex-start" gap="xs">
            <Text size="sm">{classes.error.message}</Text>
            <Button variant="light" onClick={() => void classes.refetch()} loading={classes.isFetching}>
              <Trans>Try Again</Trans>
            </Button>
          </Stack>
        </Alert>
      ) : classes.data.length === 0 ? (
        <Alert color="gray" title={t`No classes yet`}>
          <Trans>
            No classes are open for attendance. An administrator adds classes, or restores archived ones, under Administration,
            Classes.
          </Trans>
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" component="ul" aria-label={t`Classes`} p={0} m={0} style={{ listStyle: 'none' }}>
          {classes.data.map((summary) => (
            <li key={summary.name}>
              <ClassCard summary={summary} timeZone={today.data?.timeZone} />
            </li>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

export default DashboardPage;
