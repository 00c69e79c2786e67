/**
 * What an export of the Firebase app becomes in the portal, worked out without writing anything:
 * the original app's rules applied to its documents, against what the portal holds already.
 *
 * - An attendance document is the whole-day register (period 0) of its class and date; documents
 *   of one class and date are one register, a later document's record of a student winning.
 * - A record is present when `present` is true or the text `Present`, or `status` is `Present`;
 *   anything else is absent, as the original app counted it.
 * - PINs are trimmed and upper case; a student not on the roster joins it, in the class of their
 *   latest register, with the name their records give.
 * - A registration is a profile: approved when its PIN is on the roster (after the import), else
 *   pending for faculty to review. Cards are counted and left.
 */
import { createHash } from 'node:crypto';
import { isIsoDate, todayIn } from '../../../shared/dates';
import type { MarkStatus } from '../../../shared/attendance-rules';
import { HttpUrlSchema, PinSchema } from '../../../shared/schemas/common';
import { FIRESTORE_LIST_MAX, type FirestoreDocumentNote, type FirestoreImportResult, type FirestoreNoteList } from '../../../shared/schemas/firestore-import';
import { DESIGNATION_MAX, DUPLICATE_PIN_MESSAGE, IMAGE_ALT_MAX, NAME_MAX, PROFILE_LINK_FIELDS, REQUIRED_FIELDS_MESSAGE } from '../../../shared/schemas/profiles';
import type { SourceDocument } from './export-file';

/** What the portal holds that the plan depends on, read by the service. */
export interface PortalState {
  classes: readonly string[];
  /** The roster, withdrawn students included. */
  students: ReadonlyMap<string, { name: string; className: string }>;
  profilePins: ReadonlySet<string>;
  /** Keys (importKey) of the documents earlier imports took. */
  importedKeys: ReadonlySet<string>;
  /** `dayKey(class, date)` of each class and date that has a register of any period. */
  takenDays: ReadonlySet<string>;
  /** `dayKey(pin, date)` of each student with a whole-day mark on a date. */
  markedDays: ReadonlySet<string>;
}

export interface PlannedRegister {
  className: string;
  date: string;
  /** The time of its latest document, when the export has one. */
  takenAt: Date | null;
  marks: { pin: string; name: string; className: string; status: MarkStatus }[];
  keys: string[];
}

export interface PlannedProfile {
  key: string;
  pin: string;
  name: string;
  designation: string;
  imageUrl: string | null;
  imageAlt: string | null;
  linkedin: string | null;
  github: string | null;
  leetcode: string | null;
  resume: string | null;
  portfolio: string | null;
  email: string | null;
  phone: string | null;
  status: 'approved' | 'pending';
  createdAt: Date | null;
}

export type PlanCounts = Omit<FirestoreImportResult, 'applied' | 'shape'>;

export interface ImportPlan {
  counts: PlanCounts;
  newClasses: string[];
  newStudents: { pin: string; name: string; className: string }[];
  registers: PlannedRegister[];
  profiles: PlannedProfile[];
}

/** A pair's key in the state's sets. */
export const dayKey = (first: string, date: string) => `${first}\u0000${date}`;

/** How a document is remembered: a digest, so that an id holding a PIN does not outlive an erasure. */
export function importKey(document: Pick<SourceDocument, 'collection' | 'id'>): string {
  return createHash('sha256').update(`firestore\u0000${document.collection}\u0000${document.id}`).digest('hex');
}

const PROFILE_TEXT_MAX = { email: 320, phone: 40 } as const;

function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

function asDate(value: unknown): Date | null {
  if (value instanceof Date) return value;
  if (typeof value === 'string' || typeof value === 'number') {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  return null;
}

/** The original app's rule: present when `present` is true or 'Present', or `status` is 'Present'. */
export function recordStatus(record: Record<string, unknown>): MarkStatus {
  return record.present === true || record.present === 'Present' || record.status === 'Present' ? 'present' : 'absent';
}

/** The document's date: its `date` field, else the day of its timestamp in the portal's zone. */
export function documentDate(data: Record<string, unknown>, timeZone: string): string | null {
  const written = text(data.date);
  if (isIsoDate(written)) return written;
  const at = asDate(data.timestamp);
  return at ? todayIn(timeZone, at) : null;
}

/** The class an attendance document is for: its `class`, else its first record's. */
function documentClass(data: Record<string, unknown>): string {
  const named = text(data.class);
  if (named !== '') return named;
  const [first] = Array.isArray(data.records) ? data.records : [];
  return first && typeof first === 'object' ? text((first as Record<string, unknown>).class) : '';
}

class NoteList {
  private readonly rows: FirestoreDocumentNote[] = [];
  private count = 0;
  add(document: Pick<SourceDocument, 'collection' | 'id'>, reason: string): void {
    this.count += 1;
    if (this.rows.length < FIRESTORE_LIST_MAX) this.rows.push({ collection: document.collection, id: document.id, reason });
  }
  toList(): FirestoreNoteList {
    return { count: this.count, rows: this.rows };
  }
}

interface DayDocument {
  document: SourceDocument;
  key: string;
  at: Date | null;
  records: unknown[];
}

/** The attendance documents by class and date, in date then class order, each group in time order. */
function groupAttendance(
  documents: readonly SourceDocument[],
  state: PortalState,
  options: { timeZone: string; today: string; createClasses: boolean },
  notes: { skipped: NoteList; errors: NoteList },
): { groups: { className: string; date: string; documents: DayDocument[] }[]; newClasses: string[]; alreadyImported: number } {
  const byLower = new Map(state.classes.map((name) => [name.toLowerCase(), name]));
  const newClasses = new Map<string, string>();
  const groups = new Map<string, { className: string; date: string; documents: DayDocument[] }>();
  let alreadyImported = 0;
  for (const document of documents) {
    const key = importKey(document);
    if (state.importedKeys.has(key)) {
      alreadyImported += 1;
      continue;
    }
    const { data } = document;
    const named = documentClass(data);
    if (named === '') {
      notes.skipped.add(document, 'It names no class');
      continue;
    }
    const date = documentDate(data, options.timeZone);
    if (!date) {
      notes.skipped.add(document, 'It has no date (YYYY-MM-DD) and no timestamp');
      continue;
    }
    if (date > options.today) {
      notes.skipped.add(document, `Its date ${date} is in the future`);
      continue;
    }
    const records = Array.isArray(data.records) ? data.records : [];
    if (records.length === 0) {
      notes.skipped.add(document, 'It has no records');
      continue;
    }
    let className = byLower.get(named.toLowerCase()) ?? newClasses.get(named.toLowerCase());
    if (!className) {
      if (!options.createClasses) {
        notes.errors.add(document, `Class ${named} is not in the portal: add it, or import with the missing classes created`);
        continue;
      }
      newClasses.set(named.toLowerCase(), named);
      className = named;
    }
    const day = dayKey(className, date);
    const group = groups.get(day) ?? { className, date, documents: [] };
    group.documents.push({ document, key, at: asDate(data.timestamp), records });
    groups.set(day, group);
  }
  const ordered = [...groups.values()].sort((a, b) => (a.date === b.date ? a.className.localeCompare(b.className) : a.date < b.date ? -1 : 1));
  for (const group of ordered) {
    group.documents.sort((a, b) => (a.at?.getTime() ?? 0) - (b.at?.getTime() ?? 0) || (a.document.id < b.document.id ? -1 : 1));
  }
  return { groups: ordered, newClasses: [...newClasses.values()], alreadyImported };
}

function planAttendance(
  documents: readonly SourceDocument[],
  state: PortalState,
  options: { timeZone: string; today: string; createClasses: boolean },
  notes: { skipped: NoteList; errors: NoteList },
) {
  const { groups, newClasses, alreadyImported } = groupAttendance(documents, state, options, notes);
  const newStudents = new Map<string, { pin: string; name: string; className: string }>();
  const markedDays = new Set(state.markedDays);
  const planned: (Omit<PlannedRegister, 'marks'> & { marks: Map<string, MarkStatus> })[] = [];
  let merged = 0;
  for (const group of groups) {
    const keys = group.documents.map((d) => d.key);
    if (state.takenDays.has(dayKey(group.className, group.date))) {
      for (const { document } of group.documents) {
        notes.skipped.add(document, `${group.className} has a register on ${group.date} already: it is left as it is`);
      }
      continue;
    }
    merged += group.documents.length - 1;
    const marks = new Map<string, MarkStatus>();
    for (const { document, records } of group.documents) {
      for (const [index, raw] of records.entries()) {
        const record = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
        const pin = PinSchema.safeParse(text(record.pin));
        if (!pin.success) {
          notes.skipped.add(document, `Record ${index + 1}: "${text(record.pin)}" is not a PIN`);
          continue;
        }
        const student = state.students.get(pin.data) ?? newStudents.get(pin.data);
        const name = text(record.name).slice(0, NAME_MAX);
        if (!student && name === '') {
          notes.skipped.add(document, `Record ${index + 1}: PIN ${pin.data} is not on the roster and the record gives no name`);
          continue;
        }
        if (!marks.has(pin.data) && markedDays.has(dayKey(pin.data, group.date))) {
          notes.skipped.add(document, `Record ${index + 1}: PIN ${pin.data} has a mark on ${group.date} in another class already`);
          continue;
        }
        // A later document of the day wins, as a register submitted again would.
        marks.set(pin.data, recordStatus(record));
        if (!state.students.has(pin.data)) newStudents.set(pin.data, { pin: pin.data, name: name || student!.name, className: group.className });
      }
    }
    if (marks.size === 0) {
      for (const { document } of group.documents) notes.skipped.add(document, 'None of its records has a PIN to import');
      continue;
    }
    for (const pin of marks.keys()) markedDays.add(dayKey(pin, group.date));
    const at = group.documents.map((d) => d.at).filter((d): d is Date => d !== null);
    planned.push({ className: group.className, date: group.date, takenAt: at.at(-1) ?? null, keys, marks });
  }
  // The marks carry the name each student has once the import is done.
  const registers: PlannedRegister[] = planned.map((register) => ({
    ...register,
    marks: [...register.marks].map(([pin, status]) => ({
      pin,
      name: (state.students.get(pin) ?? newStudents.get(pin))!.name,
      className: register.className,
      status,
    })),
  }));
  return { registers, newClasses, newStudents: [...newStudents.values()], merged, alreadyImported };
}

/** An optional link of a registration, or null with a note when it is not an http(s) link. */
function link(value: unknown, label: string, leftOut: (reason: string) => void): string | null {
  const given = text(value);
  if (given === '') return null;
  if (HttpUrlSchema.safeParse(given).success) return given;
  leftOut(`The ${label} was left out: it is not a link starting with http:// or https://`);
  return null;
}

function optionalText(value: unknown, max: number, label: string, leftOut: (reason: string) => void): string | null {
  const given = text(value);
  if (given === '') return null;
  if (given.length <= max) return given;
  leftOut(`The ${label} was left out: it is longer than ${max} characters`);
  return null;
}

function planProfiles(
  documents: readonly SourceDocument[],
  state: PortalState,
  onRoster: (pin: string) => boolean,
  skipped: NoteList,
): { profiles: PlannedProfile[]; alreadyImported: number } {
  let alreadyImported = 0;
  const fresh = documents
    .filter((document) => {
      if (!state.importedKeys.has(importKey(document))) return true;
      alreadyImported += 1;
      return false;
    })
    // The first registration of a PIN stands, as the original app refused the later ones.
    .map((document) => ({ document, createdAt: asDate(document.data.createdAt) }))
    .sort((a, b) => (a.createdAt?.getTime() ?? 0) - (b.createdAt?.getTime() ?? 0));
  const taken = new Set(state.profilePins);
  const profiles: PlannedProfile[] = [];
  for (const { document, createdAt } of fresh) {
    const { data } = document;
    const pin = text(data.Pinnumber ?? data.pin);
    const name = text(data.name);
    const designation = text(data.designation);
    if (pin === '' || name === '' || designation === '') {
      skipped.add(document, REQUIRED_FIELDS_MESSAGE);
      continue;
    }
    const parsed = PinSchema.safeParse(pin);
    if (!parsed.success) {
      skipped.add(document, `"${pin}" is not a PIN`);
      continue;
    }
    if (name.length > NAME_MAX || designation.length > DESIGNATION_MAX) {
      skipped.add(document, `Its name or designation is longer than ${NAME_MAX} characters`);
      continue;
    }
    if (taken.has(parsed.data)) {
      skipped.add(document, DUPLICATE_PIN_MESSAGE);
      continue;
    }
    taken.add(parsed.data);
    const leftOut = (reason: string) => skipped.add(document, reason);
    profiles.push({
      key: importKey(document),
      pin: parsed.data,
      name,
      designation,
      imageUrl: link(data.profileImage || data.src, PROFILE_LINK_FIELDS.imageUrl, leftOut),
      imageAlt: optionalText(data.alt, IMAGE_ALT_MAX, 'image description', leftOut),
      linkedin: link(data.linkedin, PROFILE_LINK_FIELDS.linkedin, leftOut),
      github: link(data.github, PROFILE_LINK_FIELDS.github, leftOut),
      leetcode: link(data.leetcode, PROFILE_LINK_FIELDS.leetcode, leftOut),
      resume: link(data.resume, PROFILE_LINK_FIELDS.resume, leftOut),
      portfolio: link(data.portfolio, PROFILE_LINK_FIELDS.portfolio, leftOut),
      email: optionalText(data.email, PROFILE_TEXT_MAX.email, 'e-mail', leftOut),
      phone: optionalText(data.phone, PROFILE_TEXT_MAX.phone, 'phone number', leftOut),
      status: onRoster(parsed.data) ? 'approved' : 'pending',
      createdAt,
    });
  }
  return { profiles, alreadyImported };
}

/** What importing the documents would do; the same answer whether or not it is then applied. */
export function planImport(
  documents: readonly SourceDocument[],
  state: PortalState,
  options: { timeZone: string; createClasses: boolean; now?: Date },
): ImportPlan {
  const today = todayIn(options.timeZone, options.now);
  const notes = { skipped: new NoteList(), errors: new NoteList() };
  const of = (name: string) => documents.filter((d) => d.collection === name);
  const attendance = planAttendance(of('attendance'), state, { ...options, today }, notes);
  const added = new Set(attendance.newStudents.map((s) => s.pin));
  const onRoster = (pin: string) => state.students.has(pin) || added.has(pin);
  const registrations = planProfiles(of('registrations'), state, onRoster, notes.skipped);
  const counted = { attendance: of('attendance').length, registrations: of('registrations').length, cards: of('cards').length };
  const marks = attendance.registers.flatMap((r) => r.marks);
  const present = marks.filter((m) => m.status === 'present').length;
  return {
    counts: {
      documents: { ...counted, other: documents.length - counted.attendance - counted.registrations - counted.cards },
      alreadyImported: attendance.alreadyImported + registrations.alreadyImported,
      registers: attendance.registers.length,
      merged: attendance.merged,
      marks: { total: marks.length, present, absent: marks.length - present },
      students: attendance.newStudents.length,
      classes: attendance.newClasses,
      profiles: {
        approved: registrations.profiles.filter((p) => p.status === 'approved').length,
        pending: registrations.profiles.filter((p) => p.status === 'pending').length,
      },
      cards: counted.cards,
      skipped: notes.skipped.toList(),
      errors: notes.errors.toList(),
    },
    newClasses: attendance.newClasses,
    newStudents: attendance.newStudents,
    registers: attendance.registers,
    profiles: registrations.profiles,
  };
}
