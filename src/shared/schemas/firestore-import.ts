import { z } from './zod';

/**
 * Moving from the Firebase app the portal replaces (decision 41): an export of its Firestore
 * collections, checked first (nothing changes), then applied in one transaction.
 */

/** An export may be 64 MB through the browser; the command line reads a file of any size. */
export const FIRESTORE_UPLOAD_MAX_BYTES = 64 * 1024 * 1024;

/** Each list of the answer names at most this many documents; its count is always the whole. */
export const FIRESTORE_LIST_MAX = 1000;

/** The shapes of export the import reads, as the refusal of any other file names them. */
export const FIRESTORE_SHAPES = {
  'firestore-export': '{"__collections__": {...}} with typed values such as {"__datatype__": "timestamp", ...}',
  collections: '{"<collection>": {"<document id>": {...}}} with timestamps as {"_seconds", "_nanoseconds"}',
  ndjson: 'NDJSON, one line per document: {"path": "attendance/<id>", "data": {...}}',
} as const;
export type FirestoreShape = keyof typeof FIRESTORE_SHAPES;

export const FirestoreImportQuerySchema = z.object({
  apply: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .describe('true: import, in one transaction; otherwise only say what an import would do'),
  createClasses: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .describe('true: add the classes the export names that the portal does not have, instead of refusing the file'),
});

export const FirestoreDocumentNoteSchema = z.object({
  collection: z.string(),
  id: z.string().describe("The document's id in the export"),
  reason: z.string(),
});
export type FirestoreDocumentNote = z.infer<typeof FirestoreDocumentNoteSchema>;

const NoteListSchema = z.object({
  count: z.number().int().describe('How many, all of them'),
  rows: z.array(FirestoreDocumentNoteSchema).describe(`The first ${FIRESTORE_LIST_MAX}, in the order of the export`),
});
export type FirestoreNoteList = z.infer<typeof NoteListSchema>;

export const FirestoreImportResultSchema = z.object({
  applied: z.boolean().describe('true when the import was made; false for a check that changed nothing'),
  shape: z.enum(Object.keys(FIRESTORE_SHAPES) as [FirestoreShape, ...FirestoreShape[]]),
  documents: z
    .object({
      attendance: z.number().int(),
      registrations: z.number().int(),
      cards: z.number().int(),
      other: z.number().int().describe('Documents of other collections (users, and any the portal does not know): left'),
    })
    .describe('The documents the export holds, by collection'),
  alreadyImported: z.number().int().describe('Documents an earlier import of the same export took: skipped'),
  registers: z.number().int().describe('Whole-day registers added, one per class and date'),
  merged: z.number().int().describe('Attendance documents merged into another of the same class and date'),
  marks: z.object({ total: z.number().int(), present: z.number().int(), absent: z.number().int() }),
  students: z.number().int().describe('Students added to the roster, with the names their records give'),
  classes: z.array(z.string()).describe('Classes added (with createClasses)'),
  profiles: z.object({ approved: z.number().int(), pending: z.number().int() }),
  cards: z.number().int().describe('Cards counted and left: the portal has no cards'),
  skipped: NoteListSchema.describe('What is left out, with the reason: whole documents, or a record or field of one'),
  errors: NoteListSchema.describe('What stops the import: a class the portal does not have. Nothing is imported while there are any'),
});
export type FirestoreImportResult = z.infer<typeof FirestoreImportResultSchema>;

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What an import adds (or would add), as one sentence for the command line and the page. */
export function firestoreImportSummary(result: FirestoreImportResult): string {
  const parts = [
    count(result.registers, 'register', 'registers'),
    `${count(result.marks.total, 'mark', 'marks')} (${result.marks.present} present, ${result.marks.absent} absent)`,
    count(result.students, 'student added to the roster', 'students added to the roster'),
    `${count(result.profiles.approved + result.profiles.pending, 'profile', 'profiles')} (${result.profiles.approved} approved, ${result.profiles.pending} pending review)`,
  ];
  if (result.classes.length > 0) parts.push(`${count(result.classes.length, 'class', 'classes')} (${result.classes.join(', ')})`);
  return parts.join(', ');
}
