import { z } from './zod';
import { MarkStatusSchema } from './attendance';
import { IsoDateSchema, PinSchema } from './common';
import { SubjectSchema } from './subjects';
import { ProfileSchema } from './profiles';
import { TermQuerySchema, TermSchema } from './terms';

export const STUDENT_NOT_FOUND_MESSAGE = 'No student records found for this PIN';
export const OWN_RECORD_ONLY_MESSAGE = 'Students can only see their own attendance and profile';

export const StudentPinParamsSchema = z.object({ pin: PinSchema });

/** `?term=` on a student's PDF: a term's id or `all` (decision 12); an unknown id is a 404. */
export const StudentReportQuerySchema = TermQuerySchema;

export const HISTORY_PAGE_DEFAULT = 50;
export const HISTORY_PAGE_MAX = 500;
export const INVALID_CURSOR_MESSAGE = 'before must be the nextBefore of an earlier page';

/**
 * `?term=`, and the history's page (decision 13): `limit` rows (50 by default, at most 500)
 * older than `before`, the `nextBefore` of the previous page.
 */
export const StudentRecordQuerySchema = TermQuerySchema.extend({
  limit: z.coerce
    .number({ message: `limit must be a whole number from 1 to ${HISTORY_PAGE_MAX}` })
    .int(`limit must be a whole number from 1 to ${HISTORY_PAGE_MAX}`)
    .min(1, `limit must be a whole number from 1 to ${HISTORY_PAGE_MAX}`)
    .max(HISTORY_PAGE_MAX, `limit must be a whole number from 1 to ${HISTORY_PAGE_MAX}`)
    .default(HISTORY_PAGE_DEFAULT),
  before: z.string().trim().min(1, INVALID_CURSOR_MESSAGE).max(200, INVALID_CURSOR_MESSAGE).optional(),
});
export type StudentRecordQuery = z.input<typeof StudentRecordQuerySchema>;

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
  /** 0: the whole-day register. */
  period: z.number().int(),
  class: z.string(),
  /** The subject of the lecture; null for a whole-day register. */
  subject: SubjectSchema.nullable(),
  status: MarkStatusSchema,
  /** Present or late: the mark attends. */
  present: z.boolean(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** One subject's figures in a student's record (decision 13), by the summary's own rules. */
export const SubjectSummarySchema = z.object({
  code: z.string(),
  name: z.string(),
  /** Present, late and absent marks (excused left out). */
  held: z.number().int(),
  /** Present and late marks. */
  attended: z.number().int(),
  percentage: z.number(),
  status: z.enum(['Good', 'Low']),
  canMiss: z.number().int(),
});
export type SubjectSummary = z.infer<typeof SubjectSummarySchema>;

/** GET /api/students/:pin: one student's profile, summary, subjects and a page of history (newest first) over a term. */
export const StudentRecordSchema = z.object({
  pin: z.string(),
  name: z.string(),
  profile: ProfileSchema.nullable(),
  /** The marks of the term's dates (every date when `term` is null). */
  summary: AttendanceSummarySchema,
  /** Per subject, over the term; empty when the student had no lecture (only whole-day registers). */
  subjects: z.array(SubjectSummarySchema),
  /** A page of the term's marks, newest first by date, period and class. */
  history: z.array(HistoryEntrySchema),
  /** `before` for the next page; null on the last page. */
  nextBefore: z.string().nullable(),
  /** The term the summary and history cover; null: all time. */
  term: TermSchema.nullable(),
});
export type StudentRecord = z.infer<typeof StudentRecordSchema>;

/**
 * GET /api/students/:pin/days: a student's marks per day of the term, for the calendar, and per
 * month, for the trend (decision 16). Without a term, the last twelve months.
 */
export const StudentDaySchema = z.object({
  date: z.string(),
  present: z.number().int(),
  late: z.number().int(),
  absent: z.number().int(),
  excused: z.number().int(),
});
export type StudentDay = z.infer<typeof StudentDaySchema>;
export const StudentMonthSchema = z.object({
  /** `YYYY-MM`. */
  month: z.string(),
  attended: z.number().int(),
  held: z.number().int(),
  percentage: z.number(),
});
export type StudentMonth = z.infer<typeof StudentMonthSchema>;
export const StudentDaysSchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.array(StudentDaySchema),
  months: z.array(StudentMonthSchema),
});
export type StudentDays = z.infer<typeof StudentDaysSchema>;
