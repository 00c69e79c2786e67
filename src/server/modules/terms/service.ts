import { todayIn } from '../../../shared/dates';
import {
  ALL_TERMS,
  TERM_DATES_MESSAGE,
  TERM_NOT_FOUND_MESSAGE,
  type CreateTermInput,
  type Term,
  type TermListItem,
  type UpdateTermInput,
} from '../../../shared/schemas/terms';
import type { Executor } from '../../db/client';
import { isUuid } from '../../db/ids';
import { isUniqueViolation } from '../../db/errors';
import { badRequest, conflict, notFound } from '../../http-error';
import { actorOf, recordAudit, type Actor } from '../audit/service';
import { rebucketRegisters } from '../counters/service';
import { bumpDataVersion, type DataVersions, REPORTS } from '../data-version/service';
import * as repo from './repository';

const NAME_CONSTRAINT = 'terms_name_key';

/** Who changes a term: a signed-in account, or an actor such as the CLI (demo data). */
export type TermEditor = Actor | { id: string; email: string };

function actorFor(editor: TermEditor): Actor {
  return 'email' in editor ? actorOf(editor) : editor;
}

export function toTerm(row: repo.TermRow): Term {
  return { id: row.id, name: row.name, startsOn: row.startsOn, endsOn: row.endsOn };
}

function toListItem(row: repo.TermRow, today: string): TermListItem {
  return { ...toTerm(row), current: row.startsOn <= today && today <= row.endsOn };
}

/** Every term, newest first, each saying whether it holds today. */
export async function listTerms(db: Executor, timeZone: string, now = new Date()): Promise<TermListItem[]> {
  const today = todayIn(timeZone, now);
  return (await repo.listTerms(db)).map((row) => toListItem(row, today));
}

/** A term by id; an id that is not a UUID names no term. */
async function findTerm(db: Executor, id: string): Promise<repo.TermRow | undefined> {
  return isUuid(id) ? repo.findTerm(db, id) : undefined;
}

/** Refuses a name or dates another term already has, under the terms lock. */
async function assertFree(tx: Executor, name: string, startsOn: string, endsOn: string, exceptId?: string): Promise<void> {
  const sameName = await repo.findByName(tx, name, exceptId);
  if (sameName) throw conflict(`There is already a term named ${sameName.name}`);
  const other = await repo.findOverlapping(tx, startsOn, endsOn, exceptId);
  if (other) {
    throw conflict(`These dates overlap ${other.name} (${other.startsOn} to ${other.endsOn}): terms cannot overlap`);
  }
}

/** Unique names are checked under the lock; the index is the last word should anything slip past. */
function duplicateName(error: unknown, name: string): unknown {
  return isUniqueViolation(error, NAME_CONSTRAINT) ? conflict(`There is already a term named ${name}`) : error;
}

export async function createTerm(
  db: Executor,
  editor: TermEditor,
  input: CreateTermInput,
  timeZone: string,
  now = new Date(),
): Promise<TermListItem> {
  if (input.startsOn > input.endsOn) throw badRequest(TERM_DATES_MESSAGE);
  try {
    const row = await db.transaction(async (tx) => {
      await repo.lockTermsForChange(tx);
      await assertFree(tx, input.name, input.startsOn, input.endsOn);
      const created = await repo.insertTerm(tx, { name: input.name, startsOn: input.startsOn, endsOn: input.endsOn });
      // The registers of its dates, and their students' counters, move into the new term.
      await rebucketRegisters(tx);
      await recordAudit(tx, actorFor(editor), 'term.create', created.name, { startsOn: created.startsOn, endsOn: created.endsOn });
      await bumpDataVersion(tx);
      return created;
    });
    return toListItem(row, todayIn(timeZone, now));
  } catch (error) {
    throw duplicateName(error, input.name);
  }
}

export async function updateTerm(
  db: Executor,
  editor: TermEditor,
  id: string,
  changes: UpdateTermInput,
  timeZone: string,
  now = new Date(),
): Promise<TermListItem> {
  try {
    const row = await db.transaction(async (tx) => {
      await repo.lockTermsForChange(tx);
      const before = await findTerm(tx, id);
      if (!before) throw notFound(TERM_NOT_FOUND_MESSAGE);
      const after = {
        name: changes.name ?? before.name,
        startsOn: changes.startsOn ?? before.startsOn,
        endsOn: changes.endsOn ?? before.endsOn,
      };
      if (after.startsOn > after.endsOn) throw badRequest(TERM_DATES_MESSAGE);
      await assertFree(tx, after.name, after.startsOn, after.endsOn, before.id);

      const detail: Record<string, { from: string; to: string }> = {};
      for (const key of ['name', 'startsOn', 'endsOn'] as const) {
        if (after[key] !== before[key]) detail[key] = { from: before[key], to: after[key] };
      }
      if (Object.keys(detail).length === 0) return before;
      const updated = await repo.updateTerm(tx, before.id, after);
      if (!updated) throw notFound(TERM_NOT_FOUND_MESSAGE);
      if (after.startsOn !== before.startsOn || after.endsOn !== before.endsOn) await rebucketRegisters(tx);
      await recordAudit(tx, actorFor(editor), 'term.update', updated.name, detail);
      await bumpDataVersion(tx);
      return updated;
    });
    return toListItem(row, todayIn(timeZone, now));
  } catch (error) {
    throw duplicateName(error, changes.name ?? '');
  }
}

/** The dates a report covers: a term's, or every date (from and to null). */
export interface TermRange {
  term: Term | null;
  from: string | null;
  to: string | null;
}

const ALL_TIME: TermRange = { term: null, from: null, to: null };

function rangeOf(row: repo.TermRow): TermRange {
  return { term: toTerm(row), from: row.startsOn, to: row.endsOn };
}

/**
 * What `?term=` means for every report, summary, CSV and PDF: a term's id, or `all`; without it,
 * the term that holds `today`, else the latest term that has ended, else all time.
 * An unknown id is the API's 404. With `versions`, the term is read once per reports data
 * version (every change of a term bumps it) rather than once per request.
 */
export async function resolveTermRange(
  db: Executor,
  term: string | undefined,
  today: string,
  versions?: Pick<DataVersions, 'remember'>,
): Promise<TermRange> {
  if (term === ALL_TERMS) return ALL_TIME;
  const read = () => (term === undefined ? repo.defaultTermOn(db, today) : findTerm(db, term));
  const row = versions ? await versions.remember(REPORTS, term === undefined ? `default term on ${today}` : `term ${term}`, read) : await read();
  if (row) return rangeOf(row);
  if (term !== undefined) throw notFound(TERM_NOT_FOUND_MESSAGE);
  return ALL_TIME;
}

/** True when `date` lies in the range (both ends included). */
export function inTermRange(range: Pick<TermRange, 'from' | 'to'>, date: string): boolean {
  return (range.from === null || date >= range.from) && (range.to === null || date <= range.to);
}
