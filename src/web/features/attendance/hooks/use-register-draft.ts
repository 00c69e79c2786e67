import { useCallback, useMemo, useState } from 'react';
import { attends, countMarks, statusOf, type MarkStatus } from '../../../../shared/attendance-rules';
import type { AttendanceRegister, AttendanceStats } from '../../../../shared/schemas/attendance';
import { forgetDraft, readDraft, writeDraft, type Marks } from '../register-storage';

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
  /** These absent, everyone else present; late and excused marks of the others stay. */
  setAbsentees: (pins: readonly string[]) => void;
  /** Back to the register as it starts (or as stored), forgetting the draft kept in the browser. */
  discard: () => void;
  /** The marks to submit, in the register's order. */
  records: { pin: string; status: MarkStatus }[];
  stats: AttendanceStats;
  /** True when the marks hold changes made here (or restored from the browser) that are not saved. */
  dirty: boolean;
  /** When the marks shown were restored from a draft kept in the browser; null otherwise. */
  restoredAt: Date | null;
}

export interface DraftOptions {
  /** Whose draft: a draft kept in the browser belongs to one user. */
  userId: string | undefined;
  /**
   * How a register not taken yet starts (decision 16): the marks to start from, or null for the
   * register as loaded (everyone absent). Ignored once taken.
   */
  start: Marks | null;
}

/**
 * The marks being edited, kept per register so that looking at another date or period and coming
 * back does not lose them, and in the browser (localStorage) so that a reload or a closed tab
 * does not either, until the register is saved or the draft discarded. A save replaces the
 * register's source, which drops its draft here: the screen then shows what was stored.
 */
export function useRegisterDraft(register: AttendanceRegister | undefined, { userId, start }: DraftOptions): RegisterDraft | null {
  const [drafts, setDrafts] = useState<Record<string, Marks>>({});
  // Drafts discarded here: the browser's copy is gone too, this only stops a re-read before the next change.
  const [discarded, setDiscarded] = useState<ReadonlySet<string>>(new Set());
  const key = register ? sourceKey(register) : null;
  const saved = useMemo(() => (register ? savedMarks(register) : null), [register]);
  const place = register && userId ? { userId, className: register.class, date: register.date, period: register.period } : null;
  const placeKey = place ? `${place.userId}|${place.className}|${place.date}|${place.period}` : null;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- read again only for another register or user
  const stored = useMemo(() => (place && !discarded.has(placeKey!) ? readDraft(place) : null), [placeKey, discarded]);
  const edited = key ? drafts[key] : undefined;
  const submitted = register?.submitted ?? false;
  const marks = useMemo(() => {
    if (edited) return edited;
    if (!saved) return null;
    if (stored) return { ...saved, ...pickKnown(stored.marks, saved) };
    return !submitted && start ? { ...saved, ...pickKnown(start, saved) } : saved;
  }, [edited, saved, stored, submitted, start]);

  const change = useCallback(
    (update: (current: Marks) => Marks) => {
      if (!key || !marks) return;
      const next = update(marks);
      setDrafts((all) => ({ ...all, [key]: next }));
      if (place) writeDraft(place, next);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- place follows placeKey
    [key, marks, placeKey],
  );
  const setStatus = useCallback((pin: string, status: MarkStatus) => change((current) => ({ ...current, [pin]: status })), [change]);
  const setPresent = useCallback((pin: string, present: boolean) => setStatus(pin, statusOf(present)), [setStatus]);
  const setAll = useCallback(
    (present: boolean) => change((current) => Object.fromEntries(Object.keys(current).map((pin) => [pin, statusOf(present)]))),
    [change],
  );
  const setAbsentees = useCallback(
    (pins: readonly string[]) =>
      change((current) => {
        const away = new Set(pins);
        return Object.fromEntries(
          Object.entries(current).map(([pin, status]) => {
            if (away.has(pin)) return [pin, 'absent'];
            return [pin, status === 'late' || status === 'excused' ? status : 'present'];
          }),
        );
      }),
    [change],
  );
  const discard = useCallback(() => {
    if (key) {
      setDrafts((all) => {
        const rest = { ...all };
        delete rest[key];
        return rest;
      });
    }
    if (place) forgetDraft(place);
    if (placeKey) setDiscarded((all) => new Set(all).add(placeKey));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- place follows placeKey
  }, [key, placeKey]);

  return useMemo(() => {
    if (!register || !marks || !saved) return null;
    const records = register.records.map((r) => ({ pin: r.pin, status: marks[r.pin] ?? ('absent' as MarkStatus) }));
    return {
      isPresent: (pin) => attends(marks[pin] ?? 'absent'),
      statusOf: (pin) => marks[pin] ?? 'absent',
      setPresent,
      setStatus,
      setAll,
      setAbsentees,
      discard,
      records,
      stats: countMarks(records),
      dirty: edited !== undefined || stored !== null,
      restoredAt: !edited && stored ? stored.at : null,
    };
  }, [register, marks, saved, edited, stored, setPresent, setStatus, setAll, setAbsentees, discard]);
}

/** The marks of `marks` for students on the register: a draft may name a student since moved away. */
function pickKnown(marks: Marks, register: Marks): Marks {
  return Object.fromEntries(Object.entries(marks).filter(([pin]) => pin in register));
}
