import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * The `Absentees (PIN endings)` box of the register (decision 16): the few students who are
 * away, typed as the ends of their PINs, separated by spaces or commas.
 */

export interface AmbiguousEnding {
  ending: string;
  /** Every PIN of the register that ends with it. */
  pins: string[];
}

export interface AbsenteeEntry {
  /** The PINs named, once each, in the register's order. */
  absent: string[];
  /** Endings that fit no PIN of the register, as typed. */
  unknown: string[];
  /** Endings that fit several PINs: refused, the user types more of the PIN. */
  ambiguous: AmbiguousEnding[];
}

/** Splits on spaces, commas and semicolons (a pasted list may use any), ignoring empty pieces. */
export function absenteeEndings(text: string): string[] {
  return text.split(/[\s,;]+/).filter((piece) => piece.length > 0);
}

/**
 * Reads the box against the register's PINs. An ending matches the PINs that end with it, case
 * aside; a whole PIN always names that student, even when it is also the end of a longer PIN.
 */
export function parseAbsentees(text: string, pins: readonly string[]): AbsenteeEntry {
  const named = new Set<string>();
  const unknown: string[] = [];
  const ambiguous: AmbiguousEnding[] = [];
  const seen = new Set<string>();
  for (const typed of absenteeEndings(text)) {
    const ending = typed.toUpperCase();
    if (seen.has(ending)) continue;
    seen.add(ending);
    const exact = pins.find((pin) => pin.toUpperCase() === ending);
    const fits = exact ? [exact] : pins.filter((pin) => pin.toUpperCase().endsWith(ending));
    if (fits.length === 0) unknown.push(typed);
    else if (fits.length > 1) ambiguous.push({ ending: typed, pins: fits });
    else named.add(fits[0]!);
  }
  return { absent: pins.filter((pin) => named.has(pin)), unknown, ambiguous };
}

/** "a, b and c", in the language shown. */
function list(items: readonly string[], i18n: I18n): string {
  if (items.length <= 1) return items.join('');
  const head = items.slice(0, -1).join(', ');
  const last = items.at(-1)!;
  return i18n._(msg`${head} and ${last}`);
}

/** What is wrong with an entry, one sentence per problem, in the language shown; empty when it can be applied. */
export function absenteeProblems(entry: AbsenteeEntry, i18n: I18n): string[] {
  const problems: string[] = [];
  if (entry.unknown.length > 0) {
    const endings = list(entry.unknown, i18n);
    problems.push(i18n._(msg`No PIN in this class ends in ${endings}.`));
  }
  for (const { ending, pins } of entry.ambiguous) {
    const count = pins.length;
    const fits = list(pins, i18n);
    problems.push(i18n._(msg`${ending} fits ${count} PINs (${fits}): type more of the PIN.`));
  }
  return problems;
}
