/** How a roster file differs from the roster: who is added, updated, moved, unchanged or left out. Pure. */
import type { RosterChangeRow } from '../../../shared/schemas/roster';
import type { RosterStudentRow } from '../roster/service';

/** A student on the roster or in a file, as the preview names them. */
type ChangeRow = RosterChangeRow;

/** How a file differs from the roster; every list is whole (the API caps them). */
export interface RosterDiff {
  added: ChangeRow[];
  updated: ChangeRow[];
  moved: ChangeRow[];
  unchanged: number;
  notInFile: ChangeRow[];
  /** The rows to write: added (returning included), updated and moved. */
  changed: RosterStudentRow[];
}

/**
 * Compares a file's students with everyone the portal knows. A PIN not known is added; a
 * withdrawn student in the file is added back (returning); a class change is a move (even with a
 * new name, shown as fromName); a name change alone is an update. notInFile lists the students on
 * the roster (withdrawn ones are not) whom the file leaves out.
 */
export function diffRoster(known: ReadonlyArray<RosterStudentRow & { withdrawnAt: Date | null }>, file: readonly RosterStudentRow[]): RosterDiff {
  const byPin = new Map(known.map((s) => [s.pin, s]));
  const diff: RosterDiff = { added: [], updated: [], moved: [], unchanged: 0, notInFile: [], changed: [] };
  const inFile = new Set<string>();
  for (const s of file) {
    inFile.add(s.pin);
    const old = byPin.get(s.pin);
    const row: ChangeRow = { pin: s.pin, name: s.name, className: s.className };
    if (old && old.name !== s.name) row.fromName = old.name;
    if (old && old.className !== s.className) row.fromClass = old.className;
    if (!old || old.withdrawnAt) {
      if (old) row.returning = true;
      diff.added.push(row);
    } else if (row.fromClass !== undefined) diff.moved.push(row);
    else if (row.fromName !== undefined) diff.updated.push(row);
    else {
      diff.unchanged += 1;
      continue;
    }
    diff.changed.push(s);
  }
  for (const s of known) {
    if (!s.withdrawnAt && !inFile.has(s.pin)) diff.notInFile.push({ pin: s.pin, name: s.name, className: s.className });
  }
  return diff;
}
