import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import type { AttendanceEvent } from '../../../../shared/schemas/reports';
import type { StudentRecord } from '../../../../shared/schemas/students';
import { studentRecordsKey } from '../../../components/student-record';
import { reportKeys } from './query-keys';

/** An open reports page refetches at most once per burst of saves. */
export const BURST_MS = 2_000;

export interface Burst<T> {
  push: (item: T) => void;
  cancel: () => void;
}

/**
 * Collects items and hands them over together, `windowMs` after the first of a burst: a morning of
 * saves refetches once per window, and the last save is always in a flush (trailing edge).
 */
export function createBurst<T>(windowMs: number, flush: (items: T[]) => void): Burst<T> {
  let pending: T[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    push(item) {
      pending.push(item);
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        const items = pending;
        pending = [];
        timer = undefined;
        flush(items);
      }, windowMs);
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pending = [];
    },
  };
}

/** The `{ className }` filter of a report query's key; undefined when the key has none. */
function classFilter(key: QueryKey): string | null | undefined {
  const filters = key[2];
  if (typeof filters !== 'object' || filters === null || !('className' in filters)) return undefined;
  const value = (filters as { className: unknown }).className;
  return typeof value === 'string' ? value : null;
}

/**
 * Marks stale only the queries the saved registers touched: every dashboard (its totals cover all
 * classes), the student lists and subject reports of those classes or of all classes, and the
 * records of students seen in those classes. The rest of the page is left as it is.
 */
export function invalidateTouched(queryClient: QueryClient, events: readonly AttendanceEvent[]): Promise<void> {
  const classes = new Set(events.map((event) => event.class));
  const touchesClass = (key: QueryKey) => {
    const filter = classFilter(key);
    return filter === null || filter === undefined || classes.has(filter);
  };
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [...reportKeys.all, 'dashboard'] }),
    queryClient.invalidateQueries({ queryKey: [...reportKeys.all, 'students'], predicate: (query) => touchesClass(query.queryKey) }),
    queryClient.invalidateQueries({ queryKey: [...reportKeys.all, 'subjects'], predicate: (query) => touchesClass(query.queryKey) }),
    queryClient.invalidateQueries({
      queryKey: studentRecordsKey,
      predicate: (query) => {
        const record = query.state.data as StudentRecord | undefined;
        // A record with no marks yet may get its first one from any class.
        return !record?.history || record.history.length === 0 || record.history.some((entry) => classes.has(entry.class));
      },
    }),
  ]).then(() => undefined);
}

/** A burst collector for the life of a component: events in, one `flush` per window out. */
export function useBurst<T>(flush: (items: T[]) => void, windowMs = BURST_MS): (item: T) => void {
  const latest = useRef(flush);
  useEffect(() => {
    latest.current = flush;
  });
  const burst = useMemo(() => createBurst<T>(windowMs, (items) => latest.current(items)), [windowMs]);
  useEffect(() => () => burst.cancel(), [burst]);
  return burst.push;
}
