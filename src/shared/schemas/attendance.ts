import { z } from './zod';
import { CHANGE_SOURCES, MARK_STATUSES } from '../attendance-rules';
import { IsoDateSchema, PinSchema } from './common';

/**
 * The classes, roster and attendance part of the API contract.
 * Class names in URLs are plain text: the server answers 404 for a class it does not know,
 * so that a mistyped class reads "does not exist" rather than a validation error.
 */
export const ClassParamSchema = z.string().trim().min(1, 'A class name is required').max(40, 'Class names have at most 40 characters');

export const ClassParamsSchema = z.object({ class: ClassParamSchema });
export const RegisterParamsSchema = z.object({ class: ClassParamSchema, date: IsoDateSchema });

/** Lectures of a day are periods 1 to 12; period 0 is the original app's whole-day register. */
export const MAX_PERIOD = 12;
export const PeriodSchema = z.coerce
  .number({ message: 'A period is a whole number from 0 to 12' })
  .int('A period is a whole number from 0 to 12')
  .min(0, 'A period is a whole number from 0 to 12')
  .max(MAX_PERIOD, 'A period is a whole number from 0 to 12');
/** `?period=N` on a register's routes; without it, period 0 (decision 13). */
export const RegisterQuerySchema = z.object({ period: PeriodSchema.default(0) });
export type RegisterQuery = z.infer<typeof RegisterQuerySchema>;

export const MarkStatusSchema = z.enum(MARK_STATUSES, { message: 'A status is present, absent, late or excused' });

/** The answer when a date would mix a whole-day register with period registers. */
export const CHOOSE_PERIOD_MESSAGE = 'Choose a period';

export const ClassSummarySchema = z.object({
  name: z.string(),
  studentCount: z.number().int(),
  /** Whether today's register (today in the portal's time zone) has been submitted. */
  todayTaken: z.boolean(),
  /**
   * Today's registers of the class, taken so far: how many, who saved one last
   * and when, and the share of marks that attend (present or late, of those held). Null until one is taken.
   */
  today: z
    .object({
      registers: z.number().int(),
      lastBy: z.string().nullable(),
      lastAt: z.string(),
      attended: z.number().int(),
      held: z.number().int(),
      percentage: z.number(),
    })
    .nullable(),
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

/** `present` is true for present and late marks (they attend), as the original app's switch shows it. */
export const AttendanceRecordSchema = RosterStudentSchema.extend({
  status: MarkStatusSchema,
  present: z.boolean(),
  /** When the student checked themself in (decision 45): the mark came from a self check-in and faculty have not changed it since. */
  checkedInAt: z.string().optional(),
});
export type AttendanceRecord = z.infer<typeof AttendanceRecordSchema>;

/** A register's marks: `total` of every status, then each status (present alone, without late). */
export const AttendanceStatsSchema = z.object({
  total: z.number().int(),
  present: z.number().int(),
  absent: z.number().int(),
  late: z.number().int(),
  excused: z.number().int(),
});
export type AttendanceStats = z.infer<typeof AttendanceStatsSchema>;

export const AttendanceRegisterSchema = z.object({
  class: z.string(),
  date: z.string(),
  /** 0 for the whole-day register. */
  period: z.number().int(),
  /** The subject the register is (or, not taken yet, would be) taken for; null for period 0. */
  subject: z.object({ code: z.string(), name: z.string() }).nullable(),
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

/** A mark as sent: `{ pin, status }`, or the original app's `{ pin, present }`. */
export const MarkInputSchema = z.union(
  [
    z.object({ pin: PinSchema, status: MarkStatusSchema }),
    z.object({ pin: PinSchema, present: z.boolean() }).transform(({ pin, present }) => ({
      pin,
      status: present ? ('present' as const) : ('absent' as const),
    })),
  ],
  { message: 'Each record needs a pin and a status (present, absent, late or excused)' },
);
export type MarkInput = z.input<typeof MarkInputSchema>;

/** How far from the server's clock a save's `markedAt` may be (decision 46). */
export const MARKED_AT_MAX_AGE_DAYS = 7;
export const MARKED_AT_MAX_AHEAD_MINUTES = 5;

export const SaveAttendanceRequestSchema = z.object({
  /** The subject of a period that the timetable does not hold (an extra lecture); ignored for period 0. */
  subject: z.string().trim().min(1).max(20).optional(),
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
  /**
   * When the marks were taken on the device (an offline register synced later), with its offset:
   * kept in the history beside the server's time. At most 5 minutes ahead of the server's clock,
   * at most 7 days old, and not before the register's date.
   */
  markedAt: z.iso
    .datetime({ offset: true, message: 'markedAt is a time such as 2026-11-23T09:05:00+05:30' })
    .optional(),
});
export type SaveAttendanceRequest = z.infer<typeof SaveAttendanceRequestSchema>;
export type SaveAttendanceBody = z.input<typeof SaveAttendanceRequestSchema>;

export const AttendanceChangeSchema = z.object({
  pin: z.string(),
  name: z.string(),
  /** null when the change created the mark (the first save of the register). */
  oldStatus: MarkStatusSchema.nullable(),
  newStatus: MarkStatusSchema,
  /** Whether the old and new marks attend (present or late): the original app's view of the change. */
  oldValue: z.boolean().nullable(),
  newValue: z.boolean(),
  /** Name of the faculty member; null when the account no longer exists. */
  changedBy: z.string().nullable(),
  changedAt: z.string(),
  reason: z.string().nullable(),
  /** When the mark was taken on the device, if the save said so; changedAt (the server's) orders the history. */
  markedAt: z.string().optional(),
  /** `self`: the student checked themself in (decision 45), `changedBy` is then the student; `faculty` otherwise. */
  source: z.enum(CHANGE_SOURCES),
});
export type AttendanceChange = z.infer<typeof AttendanceChangeSchema>;
export const AttendanceHistorySchema = z.array(AttendanceChangeSchema);

/**
 * A register's revision (decision 46) is its ETag, on every register answer: `"<id>.<n>"` for a
 * register taken, `"none"` before it is. A save may send it back as If-Match: the save is then
 * made only if the register is still at that revision.
 */
export const REGISTER_NOT_TAKEN_TAG = '"none"';

/** The answer 412 when a register changed since the If-Match revision: nothing was saved. */
export const REGISTER_CONFLICT_MESSAGE = 'This register was changed since you opened it: check the marks saved meanwhile and send it again';
export const IDEMPOTENCY_KEY_REUSED_MESSAGE = 'This Idempotency-Key was used for a different request';

/**
 * One student whose saved mark is not the one the save started from: what the register holds now,
 * who set it and when (the server's time, and the device's when the save gave it), beside the
 * mark the save would give. Where `yours` equals `saved.status` the two agree.
 */
export const MarkConflictSchema = z.object({
  pin: z.string(),
  name: z.string(),
  /** The mark at the If-Match revision; null when the student had none (the register was not taken). */
  base: MarkStatusSchema.nullable(),
  saved: z.object({
    status: MarkStatusSchema,
    /** Name of who saved it; null when the account no longer exists. */
    by: z.string().nullable(),
    at: z.string(),
    markedAt: z.string().optional(),
  }),
  yours: MarkStatusSchema,
});
export type MarkConflict = z.infer<typeof MarkConflictSchema>;

/**
 * The body of a 412: the register's current revision (its ETag, to send again as If-Match) and
 * every student whose mark changed since the If-Match revision. Empty when the register changed
 * but no mark did (a save that changed nothing).
 */
export const RegisterConflictSchema = z.object({
  message: z.string(),
  revision: z.string(),
  conflicts: z.array(MarkConflictSchema),
});
export type RegisterConflict = z.infer<typeof RegisterConflictSchema>;

/** The register save's request headers for a save that is safe to repeat (decision 46). */
export const SaveRegisterHeadersSchema = z.looseObject({
  'idempotency-key': z.uuid({ message: 'An Idempotency-Key is a UUID' }).optional(),
  'if-match': z.string().max(200, 'If-Match is one revision of this register, as its ETag gave it').optional(),
});

/** GET /api/attendance/:class/:date/periods: the timetable's periods of that weekday, and any register taken that day. */
export const DayPeriodSchema = z.object({
  period: z.number().int(),
  subject: z.object({ code: z.string(), name: z.string() }).nullable(),
  submitted: z.boolean(),
  stats: AttendanceStatsSchema.nullable(),
});
export type DayPeriod = z.infer<typeof DayPeriodSchema>;
export const DayPeriodsSchema = z.array(DayPeriodSchema);

/**
 * The marks of the register taken last before another (decision 16: a new register may start
 * as a copy of it): the latest of the class before that date and period. Null when there is none.
 */
export const PreviousRegisterSchema = z
  .object({
    date: IsoDateSchema,
    period: z.number().int(),
    marks: z.array(z.object({ pin: z.string(), status: MarkStatusSchema })),
  })
  .nullable();
export type PreviousRegister = z.infer<typeof PreviousRegisterSchema>;

export const PortalTodaySchema = z.object({ date: z.string(), timeZone: z.string() });
export type PortalToday = z.infer<typeof PortalTodaySchema>;
