import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Switch, Table, Text } from '@mantine/core';
import { useRef, useState, type KeyboardEvent } from 'react';
import type { MarkStatus } from '../../../../shared/attendance-rules';
import type { AttendanceRecord } from '../../../../shared/schemas/attendance';
import { formatTime } from '../format';
import type { RegisterDraft } from '../hooks/use-register-draft';
import { registerKey } from '../register-keys';
import classes from './register.module.css';

interface RegisterTableProps {
  records: AttendanceRecord[];
  draft: RegisterDraft;
  disabled?: boolean;
  /** Shows only the students whose name or PIN holds it (case aside); marks of the others stay. */
  filter?: string;
  /** The portal's time zone, for the times of self check-ins. */
  timeZone?: string | undefined;
}

/** The students a filter shows. */
export function filterRecords(records: AttendanceRecord[], filter: string): AttendanceRecord[] {
  const wanted = filter.trim().toLowerCase();
  if (!wanted) return records;
  return records.filter((record) => record.name.toLowerCase().includes(wanted) || record.pin.toLowerCase().includes(wanted));
}

const STATUS_WORD = { present: msg`Present`, absent: msg`Absent`, late: msg`Late`, excused: msg`Excused` } as const;

/** A compact toggle for late or excused: pressed sets the status, pressed again goes back to present or absent. */
function StatusToggle(props: {
  status: 'late' | 'excused';
  current: MarkStatus;
  who: string;
  disabled: boolean;
  onChange: (status: MarkStatus) => void;
}) {
  // Out of the Tab order: the register's one Tab stop is the focused student's switch, and L or E mark from there.
  const { status, current, who, disabled, onChange } = props;
  const { t, i18n } = useLingui();
  const pressed = current === status;
  const word = i18n._(STATUS_WORD[status]);
  return (
    <Button
      size="compact-xs"
      // Dark text on amber, white on dark blue: both readable (WCAG AA) on any row.
      variant={pressed ? 'filled' : 'default'}
      color={status === 'late' ? 'yellow.4' : 'blue.9'}
      autoContrast
      aria-pressed={pressed}
      aria-label={status === 'late' ? t`Late: ${who}` : t`Excused: ${who}`}
      disabled={disabled}
      tabIndex={-1}
      onClick={() => onChange(pressed ? (status === 'late' ? 'present' : 'absent') : status)}
    >
      {word}
    </Button>
  );
}

/**
 * PIN, Name, Class and a Present/Absent switch per student, with compact Late and Excused toggles. On phones the PIN moves under the
 * name and the Class column (one class per register) is left out, so the switch keeps its room.
 *
 * The keyboard (register-keys.ts): one Tab stop, the focused student's switch; arrows move, P, A,
 * L and E mark and move on.
 */
export function RegisterTable({ records, draft, disabled = false, filter = '', timeZone }: RegisterTableProps) {
  const { t, i18n } = useLingui();
  const shown = filterRecords(records, filter);
  const [active, setActive] = useState(0);
  const switches = useRef<(HTMLInputElement | null)[]>([]);
  const current = Math.min(active, Math.max(shown.length - 1, 0));

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>, index: number) => {
    const action = registerKey(event.key, index, shown.length, event.ctrlKey || event.altKey || event.metaKey);
    if (!action) return;
    event.preventDefault();
    if (action.mark && !disabled) draft.setStatus(shown[index]!.pin, action.mark);
    setActive(action.focus);
    switches.current[action.focus]?.focus();
  };

  if (shown.length === 0) {
    const wanted = filter.trim();
    return (
      <Text c="dimmed" py="md">
        <Trans>No student&apos;s name or PIN holds &quot;{wanted}&quot;.</Trans>
      </Text>
    );
  }

  return (
    <Table verticalSpacing={0} highlightOnHover striped className={classes.table}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th visibleFrom="xs">
            <Trans>PIN</Trans>
          </Table.Th>
          <Table.Th>
            <Trans>Name</Trans>
          </Table.Th>
          <Table.Th visibleFrom="sm">
            <Trans>Class</Trans>
          </Table.Th>
          <Table.Th>
            <Trans>Present/Absent</Trans>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {shown.map((record, index) => {
          const present = draft.isPresent(record.pin);
          const status = draft.statusOf(record.pin);
          const who = `${record.name} (${record.pin})`;
          const checkInTime = record.checkedInAt ? formatTime(record.checkedInAt, timeZone) : null;
          return (
            <Table.Tr key={record.pin} className={classes.row}>
              <Table.Td visibleFrom="xs" ff="monospace">
                {record.pin}
              </Table.Td>
              <Table.Td className={classes.nameCell}>
                {/* One line on a phone too: a long name is cut short (the switch's name holds it whole). */}
                <Text size="sm" truncate="end" title={record.name}>
                  {record.name}
                </Text>
                <Text size="xs" c="dimmed" ff="monospace" hiddenFrom="xs" lh={1.2}>
                  {record.pin}
                </Text>
                {checkInTime && (
                  <Badge size="xs" variant="outline" color="teal.9">
                    {t`Checked in ${checkInTime}`}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td visibleFrom="sm">{record.class}</Table.Td>
              <Table.Td className={classes.markCell}>
                <Group gap={8} wrap="nowrap">
                  <Switch
                    ref={(input) => {
                      switches.current[index] = input;
                    }}
                    tabIndex={index === current ? 0 : -1}
                    onFocus={() => setActive(index)}
                    onKeyDown={(event) => onKeyDown(event, index)}
                    size="md"
                    color={status === 'late' ? 'yellow' : 'teal'}
                    checked={present}
                    disabled={disabled}
                    onChange={(event) => draft.setPresent(record.pin, event.currentTarget.checked)}
                    label={i18n._(STATUS_WORD[status])}
                    // The visible word only says the state; the name tells a screen reader whose mark it is.
                    aria-label={t`Present: ${who}`}
                    classNames={{ label: classes.markLabel, body: classes.markBody }}
                  />
                  <StatusToggle status="late" current={status} who={who} disabled={disabled} onChange={(next) => draft.setStatus(record.pin, next)} />
                  <StatusToggle status="excused" current={status} who={who} disabled={disabled} onChange={(next) => draft.setStatus(record.pin, next)} />
                </Group>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
