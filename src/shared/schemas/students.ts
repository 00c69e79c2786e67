import { z } from 'zod';
import { IsoDateSchema, PinSchema } from './common';
import { ProfileSchema } from './profiles';
import { TermQuerySchema, TermSchema } from './terms';

export const STUDENT_NOT_FOUND_MESSAGE = 'No student records found for this PIN';
export const OWN_RECORD_ONLY_MESSAGE = 'Students can only see their own attendance and profile';

export const StudentPinParamsSchema = z.object({ pin: PinSchema });

/** `?term=` on a student's record and PDF: a term's id or `all` (DESIGN.md 7.5); an unknown id is a 404. */
export const StudentRecordQuerySchema = TermQuerySchema;
export type StudentRecordQuery = z.infer<typeof StudentRecordQuerySchema>;

export const AttendanceSummarySchema = z.object({
  totalDays: z.number().int(),
  presentDays: z.number().int(),
  absentDays: z.number().int(),
  /** Unrounded: screens show 1 decimal, tables and the PDF 2. */
  percentage: z.number(),
  status: z.enum(['Good', 'Low']),
  canMiss: z.number().int(),
  needToAttend: z.number().int(),
});
export type AttendanceSummaryResponse = z.infer<typeof AttendanceSummarySchema>;

export const HistoryEntrySchema = z.object({
  date: IsoDateSchema,
  class: z.string(),
  present: z.boolean(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** GET /api/students/:pin: one student's profile, summary and history (newest first) over a term. */
export const StudentRecordSchema = z.object({
  pin: z.string(),
  name: z.string(),
  profile: ProfileSchema.nullable(),
  /** The marks of the term's dates (every date when `term` is null). */
  summary: AttendanceSummarySchema,
  /** The marks of the term's dates, newest first. */
  history: z.array(HistoryEntrySchema),
  /** The term the summary and history cover; null: all time. */
  term: TermSchema.nullable(),
});
export type StudentRecord = z.infer<typeof StudentRecordSchema>;
