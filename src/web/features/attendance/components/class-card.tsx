import { Badge, Card, Group, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ClassSummary } from '../../../../shared/schemas/attendance';
import { formatTime } from '../format';
import classes from './class-card.module.css';

/** Today's registers in a line: who saved one last and when, and the share attending. */
export function todayLine(today: NonNullable<ClassSummary['today']>, timeZone: string | undefined): string {
  const who = today.lastBy ? ` by ${today.lastBy}` : '';
  const what = today.registers === 1 ? 'Taken' : `${today.registers} registers, the last`;
  const share = today.held > 0 ? `, ${Math.round(today.percentage)}% attending` : '';
  return `${what}${who} at ${formatTime(today.lastAt, timeZone)}${share}`;
}

/** One class on the faculty dashboard: a link to its register, with its size and today's status. */
export function ClassCard({ summary, timeZone }: { summary: ClassSummary; timeZone?: string | undefined }) {
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
            Taken today
          </Badge>
        ) : (
          <Badge color="gray" variant="outline">
            Not taken today
          </Badge>
        )}
      </Group>
      <Text c="dimmed" size="sm" mb={summary.today ? 4 : 'md'}>
        {summary.studentCount === 1 ? '1 student' : `${summary.studentCount} students`}
      </Text>
      {summary.today && (
        <Text size="sm" mb="md">
          {todayLine(summary.today, timeZone)}
        </Text>
      )}
      <Group gap={8} className={classes.cardAction} mt="auto">
        <Text fw={600} size="sm" inherit>
          View/Manage Attendance
        </Text>
        <IconArrowRight size={16} aria-hidden />
      </Group>
    </Card>
  );
}
