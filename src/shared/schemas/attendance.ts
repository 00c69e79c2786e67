import { z } from 'zod';
import { IsoDateSchema, PinSchema } from './common';

/**
 * The classes, roster and attendance part of the API contract (DESIGN.md section 5).
 * Class names in URLs are plain text: the server answers 404 for a class it does not know,
 * so that a mistyped class reads "does not exist" rather than a validation error.
 */
export const ClassParamSchema = z.string().trim().min(1, 'A class name is required').max(40, 'Class names have at most 40 characters');

export const ClassParamsSchema = z.object({ class: ClassParamSchema });
export const RegisterParamsSchema = z.object({ class: ClassParamSchema, date: IsoDateSchema });

export const ClassSummarySchema = z.object({
  name: z.string(),
  studentCount: z.number().int(),
  /** Whether today's register (today in the portal's time zone) has been submitted. */
  todayTaken: z.boolean(),
});
export type ClassSummary = z.infer<typeof ClassSummarySchema>;
export const ClassListSchema = z.array(ClassSummarySchema);

export const RosterStudentSchema = z.object({
  pin: z.string(),
  name: z.string(),
  class: z.string(),
});
export type RosterStudent = z.infer<typeof RosterStudentSchema>;
export const RosterSchema = z.array(RosterStudentSchema);

export const AttendanceRecordSchema = RosterStudentSchema.extend({ present: z.boolean() });
export type AttendanceRecord = z.infer<typeof AttendanceRecordSchema>;

export const AttendanceStatsSchema = z.object({
  total: z.number().int(),
  present: z.number().int(),
  absent: z.number().int(),
});
export type AttendanceStats = z.infer<typeof AttendanceStatsSchema>;

export const AttendanceRegisterSchema = z.object({
  class: z.string(),
  date: z.string(),
  submitted: z.boolean(),
  /** Name of the faculty member who first took the register; absent when not submitted or the account is gone. */
  takenBy: z.string().optional(),
  /** ISO timestamps; absent when not submitted. updatedAt moves with every later save. */
  takenAt: z.string().optional(),
  updatedAt: z.string().optional(),
  records: z.array(AttendanceRecordSchema),
  stats: AttendanceStatsSchema,
});
export type AttendanceRegister = z.infer<typeof AttendanceRegisterSchema>;

/** One register can hold a whole class many times over; the cap only stops absurd bodies. */
export const MAX_RECORDS = 2000;
export const MAX_REASON_LENGTH = 500;

export const MarkInputSchema = z.object({ pin: PinSchema, present: z.boolean() });
export type MarkInput = z.infer<typeof MarkInputSchema>;

export const SaveAttendanceRequestSchema = z.object({
  records: z
    .array(MarkInputSchema)
    .max(MAX_RECORDS, `A register holds at most ${MAX_RECORDS} students`)
    .superRefine((records, ctx) => {
      const seen = new Set<string>();
      records.forEach((record, index) => {
        if (seen.has(record.pin)) {
          ctx.addIssue({ code: 'custom', path: [index, 'pin'], message: `PIN ${record.pin} appears more than once` });
        }
        seen.add(record.pin);
      });
    }),
  reason: z
    .string()
    .trim()
    .max(MAX_REASON_LENGTH, `A reason has at most ${MAX_REASON_LENGTH} characters`)
    .optional(),
});
export type SaveAttendanceRequest = z.infer<typeof SaveAttendanceRequestSchema>;

export const AttendanceChangeSchema = z.object({
  pin: z.string(),
  name: z.string(),
  /** null when the change created the mark (the first save of the register). */
  oldValue: z.boolean().nullable(),
  newValue: z.boolean(),
  /** Name of the faculty member; null when the account no longer exists. */
  changedBy: z.string().nullable(),
  changedAt: z.string(),
  reason: z.string().nullable(),
});
export type AttendanceChange = z.infer<typeof AttendanceChangeSchema>;
export const AttendanceHistorySchema = z.array(AttendanceChangeSchema);

export const PortalTodaySchema = z.object({ date: z.string(), timeZone: z.string() });
export type PortalToday = z.infer<typeof PortalTodaySchema>;
