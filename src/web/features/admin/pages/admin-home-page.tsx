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
                {step.done ? 'Done' : 'To do'}
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

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * /admin: the setup checklist (classes, roster, terms, accounts), which a fresh install opens on,
 * and the way into each section afterwards.
 */
export function AdminHomePage() {
  const classes = useAdminClasses();
  const terms = useTerms();
  const faculty = useFacultyAccountCount();

  if (classes.isPending || terms.isPending || faculty.isPending) return <PageLoader label="Checking the portal's setup" />;
  const failed = [classes, terms, faculty].find((query) => query.isError);
  if (failed?.error || !classes.data || !terms.data || faculty.data === undefined) {
    return (
      <LoadError
        title="Error checking the setup"
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
  const students = active.reduce((sum, c) => sum + c.students, 0);
  const current = terms.data.find((t) => t.current);
  const steps: Step[] = [
    {
      title: 'Classes',
      done: active.length > 0,
      status: active.length > 0 ? `${plural(active.length, 'class', 'classes')} on the dashboard.` : 'No class is on the dashboard.',
      hint: 'Add the classes faculty take registers for, in the order the dashboard shows them.',
      to: '/admin/classes',
      action: 'Manage classes',
    },
    {
      title: 'Roster',
      done: students > 0,
      status: students > 0 ? `${plural(students, 'student', 'students')} on the roster.` : 'Nobody is on the roster yet.',
      hint: 'Upload the roster as a CSV file (pin,name,class); you see every change and error before anything is saved.',
      to: '/admin/roster',
      action: 'Upload the roster',
    },
    {
      title: 'Terms',
      done: terms.data.length > 0,
      status: current
        ? `The current term is ${current.name}.`
        : terms.data.length > 0
          ? `${plural(terms.data.length, 'term', 'terms')}, none holding today.`
          : 'No term yet: reports cover all time.',
      hint: 'Define the terms: reports, summaries, CSV files and PDFs default to the current one.',
      to: '/admin/terms',
      action: 'Manage terms',
    },
    {
      title: 'Accounts',
      done: faculty.data > 0,
      status: faculty.data > 0 ? `${plural(faculty.data, 'faculty account', 'faculty accounts')}.` : 'No faculty account yet.',
      hint: 'Add faculty accounts: each gets a one-time link to choose a password.',
      to: '/admin/users',
      action: 'Manage accounts',
    },
  ];
  const left = steps.filter((step) => !step.done).length;

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2}>{left === 0 ? 'The portal is set up' : 'Set up the portal'}</Title>
        <Text c="dimmed" size="sm">
          {left === 0
            ? 'Every step is done. Come back here to change classes, the roster, terms and accounts, or to read the audit trail.'
            : `${plural(left, 'step', 'steps')} left before faculty can take registers for the term.`}
        </Text>
      </Stack>
      <Stack gap="sm" component="ol" p={0} m={0} aria-label="Setup checklist">
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
            Backup
          </Title>
          <Text size="sm" c="dimmed">
            Download the whole database as one file: accounts, classes, rosters, every register and the audit trail. Keep
            it somewhere safe: it holds students' personal data. The portal also writes backups on its own schedule.
          </Text>
        </Stack>
        <Button component="a" href="/api/admin/backup" download variant="light" leftSection={<IconDownload size={16} aria-hidden />}>
          Download a backup
        </Button>
      </Group>
    </Paper>
  );
}

export default AdminHomePage;
