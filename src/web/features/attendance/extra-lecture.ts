import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { CHOOSE_PERIOD_MESSAGE, MAX_PERIOD, type DayPeriod } from '../../../shared/schemas/attendance';
import type { Subject } from '../../../shared/schemas/subjects';
import { serverText } from '../../i18n/server-text';

/**
 * An extra lecture: a register for a period the timetable does not hold that day, or for another
 * subject than the timetable's. It is taken like any other (`?period=N` with the body's subject)
 * and is then one of the day's periods. A date has either a whole-day register or lectures.
 */

export const WHOLE_DAY_TAKES_NO_LECTURES = msg`This date has a whole-day register, so it takes no lectures: a date has either a whole-day register or lectures, never both.`;

/** Whether the day's whole-day register is taken: then the date takes no lecture. */
export function hasWholeDayRegister(periods: readonly DayPeriod[]): boolean {
  return periods.some((entry) => entry.period === 0 && entry.submitted);
}

/** The periods an extra lecture may take: 1 to 12 but those taken, with the day's entry of each (its subject on the timetable). */
function freePeriods(periods: readonly DayPeriod[]): { period: number; entry: DayPeriod | undefined }[] {
  const known = new Map(periods.map((entry) => [entry.period, entry]));
  const free = [];
  for (let period = 1; period <= MAX_PERIOD; period += 1) {
    const entry = known.get(period);
    if (!entry?.submitted) free.push({ period, entry });
  }
  return free;
}

/** The periods an extra lecture may take, as options: a timetabled one says its subject. */
export function extraLecturePeriods(periods: readonly DayPeriod[], i18n: I18n): { value: string; label: string }[] {
  return freePeriods(periods).map(({ period, entry }) => {
    const subject = entry?.subject?.name;
    return {
      value: String(period),
      label: subject ? i18n._(msg`Period ${period} (${subject} on the timetable)`) : i18n._(msg`Period ${period}`),
    };
  });
}

/** The period first offered: the first one the day does not hold at all, else the first free one. */
export function firstFreePeriod(periods: readonly DayPeriod[]): string | null {
  const free = freePeriods(periods);
  const held = new Set(periods.map((entry) => entry.period));
  const first = free.find(({ period }) => !held.has(period)) ?? free[0];
  return first ? String(first.period) : null;
}

/** The day's periods with the extra lecture being taken (not saved yet) among them, for the period picker. */
export function withExtraLecture(periods: readonly DayPeriod[], period: number | null, subject: Subject | null): DayPeriod[] {
  if (!subject || period === null || period === 0 || periods.some((entry) => entry.period === period && entry.submitted)) {
    return [...periods];
  }
  const others = periods.filter((entry) => entry.period !== period);
  return [...others, { period, subject, submitted: false, stats: null }].sort((a, b) => a.period - b.period);
}

/**
 * The server's refusal of a save, said in full: `Choose a period` alone would puzzle someone who
 * has just chosen one. The refusal comes in the language shown (ApiError's message), or as the
 * server said it.
 */
export function saveRefusal(message: string, period: number, i18n: I18n): string {
  if (message !== CHOOSE_PERIOD_MESSAGE && message !== serverText(CHOOSE_PERIOD_MESSAGE)) return message;
  return period > 0
    ? i18n._(msg`Choose a period. This date already has a whole-day register, and a date has either a whole-day register or lectures, never both.`)
    : i18n._(msg`Choose a period. This date already has lectures: take the register of one of them.`);
}
