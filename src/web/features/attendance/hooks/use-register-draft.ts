import { useCallback, useMemo, useState } from 'react';
import { countMarks, statusOf } from '../../../../shared/attendance-rules';
import type { MarkStatus } from '../../../../shared/attendance-rules';
import type { AttendanceRegister, AttendanceStats } from '../../../../shared/schemas/attendance';

type Marks = Record<string, boolean>;

/** Identifies one saved state of one register: a later save (ours or a colleague's) is a new source. */
function sourceKey(register: AttendanceRegister): string {
  return `${register.class}|${register.date}|${register.updatedAt ?? 'not taken'}`;
}

function savedMarks(register: AttendanceRegister): Marks {
  return Object.fromEntries(register.records.map((r) => [r.pin, r.present]));
}

export interface RegisterDraft {
  isPresent: (pin: string) => boolean;
  setPresent: (pin: string, present: boolean) => void;
  setAll: (present: boolean) => void;
  /** The marks to submit, in the register's order. */
  records: { pin: string; status: MarkStatus }[];
  stats: AttendanceStats;
  /** True when some mark differs from the register as loaded. */
  dirty: boolean;
}

/**
 * The marks being edited, kept per register so that looking at another date and coming back
 * does not lose them. A save replaces the register's source, which drops its draft: the
 * screen then shows what was stored.
 */
export function useRegisterDraft(register: AttendanceRegister | undefined): RegisterDraft | null {
  const [drafts, setDrafts] = useState<Record<string, Marks>>({});
  const key = register ? sourceKey(register) : null;
  const saved = useMemo(() => (register ? savedMarks(register) : null), [register]);
  const marks = key && saved ? (drafts[key] ?? saved) : null;

  const setPresent = useCallback(
    (pin: string, present: boolean) => {
      if (!key || !saved) return;
      setDrafts((all) => ({ ...all, [key]: { ...(all[key] ?? saved), [pin]: present } }));
    },
    [key, saved],
  );
  const setAll = useCallback(
    (present: boolean) => {
      if (!key || !saved) return;
      setDrafts((all) => ({ ...all, [key]: Object.fromEntries(Object.keys(saved).map((pin) => [pin, present])) }));
    },
    [key, saved],
  );

  return useMemo(() => {
    if (!register || !marks || !saved) return null;
    const records = register.records.map((r) => ({ pin: r.pin, present: marks[r.pin] ?? false }));
    const statuses = records.map((r) => ({ pin: r.pin, status: statusOf(r.present) }));
    return {
      isPresent: (pin) => marks[pin] ?? false,
      setPresent,
      setAll,
      records: statuses,
      stats: countMarks(statuses),
      dirty: records.some((r) => r.present !== saved[r.pin]),
    };
  }, [register, marks, saved, setPresent, setAll]);
}
