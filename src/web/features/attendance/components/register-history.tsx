import { Accordion, Alert, Badge, Button, Group, List, Loader, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconArrowRight, IconHistory } from '@tabler/icons-react';
import { useState } from 'react';
import { countMarks, type MarkStatus } from '../../../../shared/attendance-rules';
import type { AttendanceChange } from '../../../../shared/schemas/attendance';
import { useRegisterHistory } from '../api/get-register-history';
import { formatDateTime } from '../format';

/** The changes of one save: they share the save's time, saver and reason. */
interface Save {
  changedAt: string;
  changedBy: string | null;
  reason: string | null;
  changes: AttendanceChange[];
}

function groupBySave(changes: AttendanceChange[]): Save[] {
  const saves: Save[] = [];
  for (const change of changes) {
    const last = saves.at(-1);
    if (last && last.changedAt === change.changedAt && last.changedBy === change.changedBy && last.reason === change.reason) {
      last.changes.push(change);
    } else {
      saves.push({ changedAt: change.changedAt, changedBy: change.changedBy, reason: change.reason, changes: [change] });
    }
  }
  return saves;
}

const STATUS_BADGE: Record<MarkStatus, { word: string; color: string }> = {
  present: { word: 'Present', color: 'teal.9' },
  absent: { word: 'Absent', color: 'red.9' },
  late: { word: 'Late', color: 'yellow.4' },
  excused: { word: 'Excused', color: 'blue.9' },
};

function Mark({ value }: { value: MarkStatus | null }) {
  if (value === null) return <Text size="sm" c="dimmed">Not marked</Text>;
  const { word, color } = STATUS_BADGE[value];
  return (
    <Badge color={color} variant="filled" size="sm" autoContrast>
      {word}
    </Badge>
  );
}

function SaveEntry({ save, timeZone }: { save: Save; timeZone: string | undefined }) {
  const by = save.changedBy ?? 'A former account';
  const when = formatDateTime(save.changedAt, timeZone);
  const created = save.changes.every((c) => c.oldStatus === null);
  const taken = countMarks(save.changes.map((c) => ({ status: c.newStatus })));
  return (
    <Stack gap={8}>
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {by}
        </Text>
        <Text size="sm" c="dimmed">
          {when}
        </Text>
      </Group>
      {save.reason && <Text size="sm">Reason: {save.reason}</Text>}
      {created ? (
        <Text size="sm">
          Took the register: {taken.present} present, {taken.absent} absent
          {taken.late > 0 ? `, ${taken.late} late` : ''}
          {taken.excused > 0 ? `, ${taken.excused} excused` : ''}.
        </Text>
      ) : (
        // A list rather than a table: on a phone each change still reads on one or two lines.
        <List listStyleType="none" spacing={8} aria-label={`Marks changed by ${by} on ${when}`}>
          {save.changes.map((change) => (
            <List.Item key={change.pin}>
              <Group gap={8} wrap="wrap">
                <Text size="sm" fw={500}>
                  {change.name}
                </Text>
                <Text size="sm" c="dimmed" ff="monospace">
                  {change.pin}
                </Text>
                <Group gap={4} wrap="nowrap">
                  <Mark value={change.oldStatus} />
                  <IconArrowRight size={14} aria-hidden />
                  <VisuallyHidden>to</VisuallyHidden>
                  <Mark value={change.newStatus} />
                </Group>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

interface HistoryProps {
  className: string;
  date: string;
  period: number;
  timeZone: string | undefined;
}

function HistoryBody({ className, date, period, timeZone }: HistoryProps) {
  const history = useRegisterHistory(className, date, period);
  if (history.isPending) return <Loader size="sm" role="status" aria-label="Loading the change history" />;
  if (history.isError) {
    return (
      <Alert color="red" title="Error loading the change history">
        <Button variant="light" size="xs" onClick={() => void history.refetch()}>
          Try Again
        </Button>
      </Alert>
    );
  }
  if (history.data.length === 0) return <Text size="sm">No changes have been recorded for this day.</Text>;
  return (
    <Stack gap="lg">
      {groupBySave(history.data).map((save) => (
        <SaveEntry key={`${save.changedAt}|${save.changedBy ?? ''}|${save.reason ?? ''}`} save={save} timeZone={timeZone} />
      ))}
    </Stack>
  );
}

/** Who changed which marks of the chosen day, from what to what, when and why; newest first. */
export function RegisterHistory({ className, date, period, timeZone }: HistoryProps) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Accordion variant="contained" value={open} onChange={setOpen}>
      <Accordion.Item value="history">
        <Accordion.Control icon={<IconHistory size={18} aria-hidden />}>Change history</Accordion.Control>
        {/* Mounted only while open: the history is fetched when someone asks for it. */}
        <Accordion.Panel>{open === 'history' && <HistoryBody className={className} date={date} period={period} timeZone={timeZone} />}</Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
