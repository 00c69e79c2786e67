import type { MarkStatus } from '../../../shared/attendance-rules';
import type { Executor, Tx } from '../../db/client';
import * as repo from './repository';

export type { CounterDifference, CounterScope, StudentTotalsRow } from './repository';

/**
 * The student counters (decision 13): per (student, subject, term), the marks of each status,
 * written in the same transaction as the marks. Reports and summaries read them, and `portal
 * verify` checks them against the marks.
 */

export interface MarkChange {
  pin: string;
  /** null: the mark did not exist. */
  from: MarkStatus | null;
  /** null: the mark is gone. */
  to: MarkStatus | null;
}

/** The counters of a change of marks: -1 under each old status, +1 under each new one, per PIN. */
export function deltasOf(changes: readonly MarkChange[]): repo.CounterDelta[] {
  const byPin = new Map<string, repo.CounterDelta>();
  for (const change of changes) {
    if (change.from === change.to) continue;
    const delta = byPin.get(change.pin) ?? { pin: change.pin, present: 0, late: 0, absent: 0, excused: 0 };
    if (change.from !== null) delta[change.from] -= 1;
    if (change.to !== null) delta[change.to] += 1;
    byPin.set(change.pin, delta);
  }
  return [...byPin.values()];
}

/** Counts a register's changed marks into the counters of its subject ('' for period 0) and term. */
export function countMarkChanges(
  tx: Tx,
  register: { subjectCode: string | null; termId: string | null },
  changes: readonly MarkChange[],
): Promise<void> {
  return repo.addToCounters(tx, register.subjectCode ?? '', register.termId, deltasOf(changes));
}

export const termIdOn = repo.termIdOn;

/** After a term is created or its dates change: registers and counters follow their dates' terms. */
export const rebucketRegisters = repo.rebucketRegisters;

/** Recomputes every counter from the marks. */
export const rebuildCounters = repo.rebuildAll;

/** Every counter that disagrees with the marks; empty when all is well. */
export function findCounterDifferences(db: Executor, limit?: number): Promise<repo.CounterDifference[]> {
  return repo.findDifferences(db, limit);
}

export const countsOfStudent = repo.countsOfStudent;
export const studentTotals = repo.studentTotals;
