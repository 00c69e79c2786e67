import { z } from './zod';
import { ClassParamSchema } from './attendance';
import { IsoDateSchema } from './common';
import { TermQuerySchema, TermSchema } from './terms';

/**
 * The reports and live-events part of the API contract, with the field names the original app
 * gave its dashboard aggregate and student summary.
 * Percentages are unrounded: screens show 1 decimal, tables and CSV files 2, charts none.
 */

export const DASHBOARD_ERROR_MESSAGE = 'Error loading dashboard data. Please try again.';

/**
 * `?class=` on the report routes: a class the portal does not know is a 404, as on the attendance
 * routes. `?term=`: a term's id or `all` (decision 12); an unknown id is a 404.
 */
export const ReportClassQuerySchema = TermQuerySchema.extend({ class: ClassParamSchema.optional() });
export type ReportClassQuery = z.infer<typeof ReportClassQuerySchema>;

export const OverallAttendanceSchema = z.object({
  present: z.number().int(),
  absent: z.number().int(),
  total: z.number().int(),
  presentPercentage: z.number(),
  absentPercentage: z.number(),
});
export type OverallAttendance = z.infer<typeof OverallAttendanceSchema>;

export const ClassAttendanceSchema = z.object({
  className: z.string(),
  /** The class's roster size today, not the number of marks. */
  totalStudents: z.number().int(),
  presentCount: z.number().int(),
  absentCount: z.number().int(),
  presentPercentage: z.number(),
  absentPercentage: z.number(),
});
export type ClassAttendance = z.infer<typeof ClassAttendanceSchema>;

/** One date of a period report, every class's register of that date merged. */
export const DailyReportRowSchema = z.object({
  date: IsoDateSchema,
  present: z.number().int(),
  absent: z.number().int(),
  total: z.number().int(),
});
export type DailyReportRow = z.infer<typeof DailyReportRowSchema>;

export const DashboardSchema = z.object({
  /** Totals of the term's dates (every date when `term` is null). */
  overallAttendance: OverallAttendanceSchema,
  /** Per-class totals of the term's dates (every date when `term` is null). */
  classWiseAttendance: z.array(ClassAttendanceSchema),
  /** Dates today-6 to today, oldest first; only dates that have a register. */
  weeklyReport: z.array(DailyReportRowSchema),
  /** Dates today-29 to today, oldest first; only dates that have a register. */
  monthlyReport: z.array(DailyReportRowSchema),
  /** Today in the portal's time zone: the last day of both windows. */
  today: IsoDateSchema,
  /** The term the totals cover; null: all time. The weekly and monthly windows do not depend on it. */
  term: TermSchema.nullable(),
});
export type Dashboard = z.infer<typeof DashboardSchema>;

export const StudentSummariesQuerySchema = ReportClassQuerySchema.extend({
  /** Only students whose percentage is strictly below this (e.g. 75 for the Low list). */
  below: z.coerce
    .number({ message: 'below must be a percentage from 0 to 100' })
    .min(0, 'below must be a percentage from 0 to 100')
    .max(100, 'below must be a percentage from 0 to 100')
    .optional(),
  /** Only that subject's lectures (decision 13); students who had none are not listed. */
  subject: z.string().trim().min(1, 'subject must be a subject code').max(20, 'subject must be a subject code').optional(),
});
export type StudentSummariesQuery = z.infer<typeof StudentSummariesQuerySchema>;

export const StudentSummarySchema = z.object({
  pin: z.string(),
  name: z.string(),
  /** The original app's name for the Good/Low label. */
  present: z.enum(['Good', 'Low']),
  presentDays: z.number().int(),
  absentDays: z.number().int(),
  percentage: z.number(),
  /** The student's class: the roster's, or the class of their latest mark when no longer on the roster. */
  className: z.string(),
});
export type StudentSummary = z.infer<typeof StudentSummarySchema>;
export const StudentSummaryListSchema = z.array(StudentSummarySchema);

/** GET /api/reports/subjects: per subject, the lectures taken and the class's held and attended marks (excused left out). */
export const SubjectReportRowSchema = z.object({
  code: z.string(),
  name: z.string(),
  /** Registers taken for the subject. */
  lectures: z.number().int(),
  /** Present, late and absent marks of those registers. */
  held: z.number().int(),
  /** Present and late marks. */
  attended: z.number().int(),
  /** attended / held x 100; 0 when nothing was held. */
  percentage: z.number(),
});
export type SubjectReportRow = z.infer<typeof SubjectReportRowSchema>;
export const SubjectReportSchema = z.array(SubjectReportRowSchema);

/** Data of an `attendance` server-sent event: the register that was saved (period 0: the whole day). */
export const AttendanceEventSchema = z.object({ class: z.string(), date: IsoDateSchema, period: z.number().int().optional() });
export type AttendanceEvent = z.infer<typeof AttendanceEventSchema>;
export const ATTENDANCE_EVENT = 'attendance';
