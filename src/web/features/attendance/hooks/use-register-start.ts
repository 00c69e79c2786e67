import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useMemo, useState } from 'react';
import type { AttendanceRegister, PreviousRegister } from '../../../../shared/schemas/attendance';
import { usePreviousRegister } from '../api/get-previous-register';
import { formatLongDate } from '../format';
import { readStartPattern, writeStartPattern, type Marks, type StartPattern } from '../register-storage';
import { useRegisterDraft } from './use-register-draft';

const START_NOTES: Record<Exclude<StartPattern, 'copy'>, MessageDescriptor> = {
  absent: msg`Not taken yet for this day: everyone starts absent.`,
  present: msg`Not taken yet for this day: everyone starts present.`,
};

/** The marks a register not taken yet starts from, or null for everyone absent (the register as loaded). */
function startMarks(pattern: StartPattern, register: AttendanceRegister | undefined, previous: PreviousRegister | undefined, waiting: boolean): Marks | null {
  if (!register || register.submitted || waiting) return null;
  if (pattern === 'present') return Object.fromEntries(register.records.map((r) => [r.pin, 'present']));
  if (pattern === 'copy' && previous) {
    const before = new Map(previous.marks.map((mark) => [mark.pin, mark.status]));
    // A student who joined since starts absent, as the specification's register does.
    return Object.fromEntries(register.records.map((r) => [r.pin, before.get(r.pin) ?? 'absent']));
  }
  return null;
}

/** How a register not taken yet starts, said in a sentence. */
function startNote(pattern: StartPattern, previous: PreviousRegister | undefined, waiting: boolean, i18n: I18n): string {
  if (waiting) return i18n._(msg`Not taken yet for this day: it starts from your marks saved on this device.`);
  if (pattern === 'copy') {
    if (previous === undefined) return i18n._(msg`Not taken yet for this day: loading the last register to copy.`);
    if (previous === null) return i18n._(msg`Not taken yet for this day: there is no earlier register to copy, so everyone starts absent.`);
    const date = formatLongDate(previous.date);
    const period = previous.period;
    return period > 0
      ? i18n._(msg`Not taken yet for this day: it starts as a copy of the register of ${date}, period ${period}.`)
      : i18n._(msg`Not taken yet for this day: it starts as a copy of the register of ${date}.`);
  }
  return i18n._(START_NOTES[pattern]);
}

export interface RegisterStartInput {
  className: string;
  date: string | null;
  period: number | null;
  register: AttendanceRegister | undefined;
  /** Whose choice and drafts: both are kept in this browser per user. */
  userId: string | undefined;
  /** The register shown holds the marks of the user's save waiting on the device: it starts from them. */
  waiting?: boolean;
}

/**
 * How the marks on screen start: a draft kept in the browser, else, for a register not taken yet,
 * everyone absent (the specification's register), everyone present, or a copy of the last register,
 * as the user chose (remembered in this browser for them); a register taken starts as stored, and
 * one with the user's save waiting on the device as that save has it.
 */
export function useRegisterStart({ className, date, period, register, userId, waiting = false }: RegisterStartInput) {
  const { i18n } = useLingui();
  const [chosen, setChosen] = useState<StartPattern | null>(null);
  const pattern = chosen ?? readStartPattern(userId);
  const isNew = register !== undefined && !register.submitted && !waiting;
  const previous = usePreviousRegister(className, date, period, isNew && pattern === 'copy');
  const start = useMemo(() => startMarks(pattern, register, previous.data, waiting), [pattern, register, previous.data, waiting]);
  const draft = useRegisterDraft(register, { userId, start });
  const choosePattern = (next: StartPattern) => {
    setChosen(next);
    if (userId) writeStartPattern(userId, next);
  };
  return { draft, pattern, choosePattern, note: startNote(pattern, previous.data, waiting, i18n) };
}
