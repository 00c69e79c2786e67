import { Badge, Card, Group, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ClassSummary } from '../../../../shared/schemas/attendance';
import classes from './class-card.module.css';

/** One class on the faculty dashboard: a link to its register, with its size and today's status. */
export function ClassCard({ summary }: { summary: ClassSummary }) {
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
      <Text c="dimmed" size="sm" mb="md">
        {summary.studentCount === 1 ? '1 student' : `${summary.studentCount} students`}
      </Text>
      <Group gap={6} className={classes.cardAction} mt="auto">
        <Text fw={600} size="sm" inherit>
          View/Manage Attendance
        </Text>
        <IconArrowRight size={16} aria-hidden />
      </Group>
    </Card>
  );
}
