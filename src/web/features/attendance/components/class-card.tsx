import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Card, Group, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ClassSummary } from '../../../../shared/schemas/attendance';
import { formatPercent, formatTime } from '../format';
import classes from './class-card.module.css';

/** Today's registers in a line: who saved one last and when, and the share attending. */
export function todayLine(today: NonNullable<ClassSummary['today']>, timeZone: string | undefined, i18n: I18n): string {
  const { registers, lastBy: who } = today;
  const time = formatTime(today.lastAt, timeZone);
  const one = registers === 1;
  if (today.held > 0) {
    const share = formatPercent(today.percentage);
    if (one) return who ? i18n._(msg`Taken by ${who} at ${time}, ${share} attending`) : i18n._(msg`Taken at ${time}, ${share} attending`);
    return who
      ? i18n._(msg`${registers} registers, the last by ${who} at ${time}, ${share} attending`)
      : i18n._(msg`${registers} registers, the last at ${time}, ${share} attending`);
  }
  if (one) return who ? i18n._(msg`Taken by ${who} at ${time}`) : i18n._(msg`Taken at ${time}`);
  return who ? i18n._(msg`${registers} registers, the last by ${who} at ${time}`) : i18n._(msg`${registers} registers, the last at ${time}`);
}

/** One class on the faculty dashboard: a link to its register, with its size and today's status. */
export function ClassCard({ summary, timeZone }: { summary: ClassSummary; timeZone?: string | undefined }) {
  const { t, i18n } = useLingui();
  const studentCount = summary.studentCount;
  const navigate = useNavigate();
  const to = `/attendance/${encodeURIComponent(summary.name)}`;

  // Links open on Enter only; the card looks like a button, so Space must open it too.
  const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>) => {
    if (event.key === ' ') {
      event.preventDefault();
      void navigate(to);
    }
  };

  return (
    <Card component={Link} to={to} onKeyDown={onKeyDown} withBorder radius="md" padding="lg" className={classes.classCard}>
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <Title order={2} fz="h3">
          {summary.name}
        </Title>
        {summary.todayTaken ? (
          <Badge color="teal.9" variant="filled">
            <Trans>Taken today</Trans>
          </Badge>
        ) : (
          <Badge color="gray" variant="outline">
            <Trans>Not taken today</Trans>
          </Badge>
        )}
      </Group>
      <Text c="dimmed" size="sm" mb={summary.today ? 4 : 'md'}>
        {t`${plural(studentCount, { one: '# student', other: '# students' })}`}
      </Text>
      {summary.today && (
        <Text size="sm" mb="md">
          {todayLine(summary.today, timeZone, i18n)}
        </Text>
      )}
      <Group gap={8} className={classes.cardAction} mt="auto">
        <Text fw={600} size="sm" inherit>
          <Trans>View/Manage Attendance</Trans>
        </Text>
        <IconArrowRight size={16} aria-hidden />
      </Group>
    </Card>
  );
}
