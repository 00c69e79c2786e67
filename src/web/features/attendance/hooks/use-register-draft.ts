import { useCallback, useMemo, useState } from 'react';
import { attends, countMarks, statusOf, type MarkStatus } from '../../../../shared/attendance-rules';
import type { AttendanceRegister, AttendanceStats } from '../../../../shared/schemas/attendance';

type Marks = Record<string, MarkStatus>;

/** Identifies one saved state of one register: a later save (ours or a colleague's) is a new source. */
function sourceKey(register: AttendanceRegister): string {
  return `${register.class}|${register.date}|${register.period}|${register.updatedAt ?? 'not taken'}`;
}

function savedMarks(register: AttendanceRegister): Marks {
  return Object.fromEntries(register.records.map((r) => [r.pin, r.status]));
}

export interface RegisterDraft {
  /** Present or late: the switch is on. */
  isPresent: (pin: string) => boolean;
  statusOf: (pin: string) => MarkStatus;
  /** The switch: present or absent (a late or excused mark becomes one of them). */
  setPresent: (pin: string, present: boolean) => void;
  setStatus: (pin: string, status: MarkStatus) => void;
  /** Mark all present or absent, as before: late and excused marks too. */
  setAll: (present: boolean) => void;
  /** The marks to submit, in the register's order. */
  records: { pin: string; status: MarkStatus }[];
  stats: AttendanceStats;
  /** True when some mark differs from the register as loaded. */
  dirty: boolean;
}

/**
 * The marks being edited, kept per register so that looking at another date or period and coming
 * back does not lose them. A save replaces the register's source, which drops its draft: the
 * screen then shows what was stored.
 */
export function useRegisterDraft(register: AttendanceRegister | undefined): RegisterDraft | null {
  const [drafts, setDrafts] = useState<Record<string, Marks>>({});
  const key = register ? sourceKey(register) : null;
  const saved = useMemo(() => (register ? savedMarks(register) : null), [register]);
  const marks = key && saved ? (drafts[key] ?? saved) : null;

  const setStatus = useCallback(
    (pin: string, status: MarkStatus) => {
      if (!key || !saved) return;
      setDrafts((all) => ({ ...all, [key]: { ...(all[key] ?? saved), [pin]: status } }));
    },
    [key, saved],
  );
  const setPresent = useCallback((pin: string, present: boolean) => setStatus(pin, statusOf(present)), [setStatus]);
  const setAll = useCallback(
    (present: boolean) => {
      if (!key || !saved) return;
      setDrafts((all) => ({ ...all, [key]: Object.fromEntries(Object.keys(saved).map((pin) => [pin, statusOf(present)])) }));
    },
    [key, saved],
  );

  return useMemo(() => {
    if (!register || !marks || !saved) return null;
    const records = register.records.map((r) => ({ pin: r.pin, status: marks[r.pin] ?? ('absent' as MarkStatus) }));
    return {
      isPresent: (pin) => attends(marks[pin] ?? 'absent'),
      statusOf: (pin) => marks[pin] ?? 'absent',
      setPresent,
      setStatus,
      setAll,
      records,
      stats: countMarks(records),
      dirty: records.some((r) => r.status !== saved[r.pin]),
    };
  }, [register, marks, saved, setPresent, setStatus, setAll]);
}
