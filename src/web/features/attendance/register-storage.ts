import { msg } from '@lingui/core/macro';
import type { MarkStatus } from '../../../shared/attendance-rules';
import { MARK_STATUSES } from '../../../shared/attendance-rules';

/**
 * What the register keeps in the browser (localStorage), per user: the marks not saved yet of
 * each register (a draft survives a reload until saved or discarded, decision 16) and how a new
 * register starts. A browser that refuses storage (private mode, full) keeps nothing: the page
 * works as before, only without these.
 */
export type Marks = Record<string, MarkStatus>;

export interface RegisterPlace {
  userId: string;
  className: string;
  date: string;
  period: number;
}

export interface StoredDraft {
  marks: Marks;
  at: Date;
}

const PREFIX = 'portal:register';

function draftKey({ userId, className, date, period }: RegisterPlace): string {
  return `${PREFIX}-draft:${userId}:${className}:${date}:${period}`;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function isStatus(value: unknown): value is MarkStatus {
  return typeof value === 'string' && (MARK_STATUSES as readonly string[]).includes(value);
}

export function readDraft(place: RegisterPlace): StoredDraft | null {
  try {
    const text = storage()?.getItem(draftKey(place));
    if (!text) return null;
    const parsed = JSON.parse(text) as { marks?: unknown; at?: unknown };
    if (typeof parsed.marks !== 'object' || parsed.marks === null || typeof parsed.at !== 'string') return null;
    const marks = Object.fromEntries(Object.entries(parsed.marks).filter((entry): entry is [string, MarkStatus] => isStatus(entry[1])));
    const at = new Date(parsed.at);
    return Number.isNaN(at.getTime()) ? null : { marks, at };
  } catch {
    return null; // unreadable: as if there were none
  }
}

export function writeDraft(place: RegisterPlace, marks: Marks, at = new Date()): void {
  try {
    storage()?.setItem(draftKey(place), JSON.stringify({ marks, at: at.toISOString() }));
  } catch {
    // Storage full or refused: the draft lives in the page only.
  }
}

export function forgetDraft(place: RegisterPlace): void {
  try {
    storage()?.removeItem(draftKey(place));
  } catch {
    // nothing kept
  }
}

/** How a register not taken yet starts: the specification's everyone absent, or the user's choice. */
export const START_PATTERNS = [
  { value: 'absent', label: msg`Everyone absent` },
  { value: 'present', label: msg`Everyone present` },
  { value: 'copy', label: msg`Copy last register` },
] as const;
export type StartPattern = (typeof START_PATTERNS)[number]['value'];

const startKey = (userId: string) => `${PREFIX}-start:${userId}`;

export function readStartPattern(userId: string | undefined): StartPattern {
  if (!userId) return 'absent';
  try {
    const value = storage()?.getItem(startKey(userId));
    return START_PATTERNS.some((pattern) => pattern.value === value) ? (value as StartPattern) : 'absent';
  } catch {
    return 'absent';
  }
}

export function writeStartPattern(userId: string, pattern: StartPattern): void {
  try {
    storage()?.setItem(startKey(userId), pattern);
  } catch {
    // Remembered for this page only.
  }
}
