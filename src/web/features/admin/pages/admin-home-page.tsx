import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconCircleDashed, IconDownload } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/load-states';
import { PageLoader } from '../../../components/page-loader';
import { useTerms } from '../../../lib/terms';
import { useAdminClasses } from '../api/classes';
import { useFacultyAccountCount } from '../api/setup-accounts';

interface Step {
  title: string;
  done: boolean;
  status: ReactNode;
  hint: string;
  to: string;
  action: string;
}

function ChecklistStep({ step, index }: { step: Step; index: number }) {
  const { t } = useLingui();
  return (
    <Paper withBorder radius="md" p="md" component="li" style={{ listStyle: 'none' }}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" color={step.done ? 'teal' : 'gray'} radius="xl" size="lg" aria-hidden>
            {step.done ? <IconCheck size={18} /> : <IconCircleDashed size={18} />}
          </ThemeIcon>
          <Stack gap={4}>
            <Group gap="xs">
              <Text fw={600}>
                {index + 1}. {step.title}
              </Text>
              <Badge variant="light" color={step.done ? 'teal.8' : 'yellow.9'}>
                {step.done ? t`Done` : t`To do`}
              </Badge>
            </Group>
            <Text size="sm">{step.status}</Text>
            {!step.done && (
              <Text size="sm" c="dimmed">
                {step.hint}
              </Text>
            )}
          </Stack>
        </Group>
        <Button component={Link} to={step.to} variant={step.done ? 'subtle' : 'light'}>
          {step.action}
        </Button>
      </Group>
    </Paper>
  );
}

/**
 * /admin: the setup checklist (classes, roster, terms, accounts), which a fresh install opens on,
 * and the way into each section afterwards.
 */
export function AdminHomePage() {
  const { t } = useLingui();
  const classes = useAdminClasses();
  const terms = useTerms();
  const faculty = useFacultyAccountCount();

  if (classes.isPending || terms.isPending || faculty.isPending) return <PageLoader label={t`Checking the portal's setup`} />;
  const failed = [classes, terms, faculty].find((query) => query.isError);
  if (failed?.error || !classes.data || !terms.data || faculty.data === undefined) {
    return (
      <LoadError
        title={t`Error checking the setup`}
        message={failed?.error?.message}
        onRetry={() => {
          void classes.refetch();
          void terms.refetch();
          void faculty.refetch();
        }}
      />
    );
  }

  const active = classes.data.filter((c) => !c.archived);
  const classCount = active.length;
  const studentCount = active.reduce((sum, c) => sum + c.students, 0);
  const termCount = terms.data.length;
  const termName = terms.data.find((term) => term.current)?.name;
  const facultyCount = faculty.data;
  const steps: Step[] = [
    {
      title: t`Classes`,
      done: classCount > 0,
      status:
        classCount > 0
          ? t`${plural(classCount, { one: '# class on the dashboard.', other: '# classes on the dashboard.' })}`
          : t`No class is on the dashboard.`,
      hint: t`Add the classes faculty take registers for, in the order the dashboard shows them.`,
      to: '/admin/classes',
      action: t`Manage classes`,
    },
    {
      title: t`Roster`,
      done: studentCount > 0,
      status:
        studentCount > 0
          ? t`${plural(studentCount, { one: '# student on the roster.', other: '# students on the roster.' })}`
          : t`Nobody is on the roster yet.`,
      hint: t`Upload the roster as a CSV file (pin,name,class); you see every change and error before anything is saved.`,
      to: '/admin/roster',
      action: t`Upload the roster`,
    },
    {
      title: t`Terms`,
      done: termCount > 0,
      status:
        termName !== undefined
          ? t`The current term is ${termName}.`
          : termCount > 0
            ? t`${plural(termCount, { one: '# term, none holding today.', other: '# terms, none holding today.' })}`
            : t`No term yet: reports cover all time.`,
      hint: t`Define the terms: reports, summaries, CSV files and PDFs default to the current one.`,
      to: '/admin/terms',
      action: t`Manage terms`,
    },
    {
      title: t`Accounts`,
      done: facultyCount > 0,
      status:
        facultyCount > 0
          ? t`${plural(facultyCount, { one: '# faculty account.', other: '# faculty accounts.' })}`
          : t`No faculty account yet.`,
      hint: t`Add faculty accounts: each gets a one-time link to choose a password.`,
      to: '/admin/users',
      action: t`Manage accounts`,
    },
  ];
  const left = steps.filter((step) => !step.done).length;

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2}>{left === 0 ? t`The portal is set up` : t`Set up the portal`}</Title>
        <Text c="dimmed" size="sm">
          {left === 0
            ? t`Every step is done. Come back here to change classes, the roster, terms and accounts, or to read the audit trail.`
            : t`${plural(left, { one: '# step left before faculty can take registers for the term.', other: '# steps left before faculty can take registers for the term.' })}`}
        </Text>
      </Stack>
      <Stack gap="sm" component="ol" p={0} m={0} aria-label={t`Setup checklist`}>
        {steps.map((step, index) => (
          <ChecklistStep key={step.title} step={step} index={index} />
        ))}
      </Stack>
      <BackupPanel />
    </Stack>
  );
}

/**
 * A backup of the whole database, downloaded as it is now: the same file `portal backup` writes,
 * which `portal restore` loads into either engine. A plain link: the browser shows the download's
 * progress, and the server writes the file whole before sending it, so a large one takes a while.
 */
function BackupPanel() {
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 280px' }}>
          <Title order={3} size="h4">
            <Trans>Backup</Trans>
          </Title>
          <Text size="sm" c="dimmed">
            <Trans>
              Download the whole database as one file: accounts, classes, rosters, every register and the audit trail. Keep
              it somewhere safe: it holds students' personal data. The portal also writes backups on its own schedule.
            </Trans>
          </Text>
        </Stack>
        <Button component="a" href="/api/admin/backup" download variant="light" leftSection={<IconDownload size={16} aria-hidden />}>
          <Trans>Download a backup</Trans>
        </Button>
      </Group>
    </Paper>
  );
}

export default AdminHomePage;
