import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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

const STATUS_BADGE = {
  present: { word: msg`Present`, color: 'teal.9' },
  absent: { word: msg`Absent`, color: 'red.9' },
  late: { word: msg`Late`, color: 'yellow.4' },
  excused: { word: msg`Excused`, color: 'blue.9' },
} as const satisfies Record<MarkStatus, unknown>;

function Mark({ value }: { value: MarkStatus | null }) {
  const { i18n } = useLingui();
  if (value === null) {
    return (
      <Text size="sm" c="dimmed">
        <Trans>Not marked</Trans>
      </Text>
    );
  }
  const { word, color } = STATUS_BADGE[value];
  return (
    <Badge color={color} variant="filled" size="sm" autoContrast>
      {i18n._(word)}
    </Badge>
  );
}

function SaveEntry({ save, timeZone }: { save: Save; timeZone: string | undefined }) {
  const { t } = useLingui();
  const by = save.changedBy ?? t`A former account`;
  const when = formatDateTime(save.changedAt, timeZone);
  const created = save.changes.every((c) => c.oldStatus === null);
  const { present, absent, late, excused } = countMarks(save.changes.map((c) => ({ status: c.newStatus })));
  let took;
  if (late > 0 && excused > 0) took = t`Took the register: ${present} present, ${absent} absent, ${late} late, ${excused} excused.`;
  else if (late > 0) took = t`Took the register: ${present} present, ${absent} absent, ${late} late.`;
  else if (excused > 0) took = t`Took the register: ${present} present, ${absent} absent, ${excused} excused.`;
  else took = t`Took the register: ${present} present, ${absent} absent.`;
  const reason = save.reason;
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
      {reason && <Text size="sm">{t`Reason: ${reason}`}</Text>}
      {created ? (
        <Text size="sm">{took}</Text>
      ) : (
        // A list rather than a table: on a phone each change still reads on one or two lines.
        <List listStyleType="none" spacing={8} aria-label={t`Marks changed by ${by} on ${when}`}>
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
                  <VisuallyHidden>
                    {t({ message: 'to', comment: 'Read between the old mark and the new one: "Present to Absent".' })}
                  </VisuallyHidden>
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
  const { t } = useLingui();
  const history = useRegisterHistory(className, date, period);
  if (history.isPending) return <Loader size="sm" role="status" aria-label={t`Loading the change history`} />;
  if (history.isError) {
    return (
      <Alert color="red" title={t`Error loading the change history`}>
        <Button variant="light" size="xs" onClick={() => void history.refetch()}>
          <Trans>Try Again</Trans>
        </Button>
      </Alert>
    );
  }
  if (history.data.length === 0) {
    return (
      <Text size="sm">
        <Trans>No changes have been recorded for this day.</Trans>
      </Text>
    );
  }
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
        <Accordion.Control icon={<IconHistory size={18} aria-hidden />}>
          <Trans>Change history</Trans>
        </Accordion.Control>
        {/* Mounted only while open: the history is fetched when someone asks for it. */}
        <Accordion.Panel>{open === 'history' && <HistoryBody className={className} date={date} period={period} timeZone={timeZone} />}</Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
