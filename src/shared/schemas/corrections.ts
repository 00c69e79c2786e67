import { z } from './zod';
import { MARK_STATUSES } from '../attendance-rules';
import { IsoDateSchema } from './common';

/**
 * Correction requests (decision 16): a student disputes one of their marks; faculty accept it,
 * which changes the mark with the request's reason in the register's history, or decline it with
 * a reply the student sees.
 */
export const MAX_CORRECTION_TEXT = 500;
export const CORRECTION_STATES = ['open', 'accepted', 'declined'] as const;
export type CorrectionState = (typeof CORRECTION_STATES)[number];

export const NO_MARK_MESSAGE = 'You have no mark on that date and period';
export const ALREADY_OPEN_MESSAGE = 'There is already an open request for this mark';
export const NOT_OPEN_MESSAGE = 'This request has been decided already';
export const CORRECTION_NOT_FOUND_MESSAGE = 'There is no such correction request';

const text = (what: string) =>
  z
    .string({ message: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(MAX_CORRECTION_TEXT, `${what} has at most ${MAX_CORRECTION_TEXT} characters`);

/** POST /api/corrections: the mark (date and period, 0 for a whole-day register) and why it is wrong. */
export const CreateCorrectionSchema = z.object({
  date: IsoDateSchema,
  period: z.number().int().min(0).max(12).default(0),
  reason: text('A reason'),
});
export type CreateCorrectionBody = z.input<typeof CreateCorrectionSchema>;

export const CorrectionQuerySchema = z.object({
  /** open: waiting for faculty; closed: accepted or declined. */
  status: z.enum(['open', 'closed']).default('open'),
});

export const CorrectionParamsSchema = z.object({ id: z.uuid({ message: 'A request id is a UUID' }) });

/** Accepting sets the mark to `status` (present unless said). */
export const AcceptCorrectionSchema = z.object({
  status: z.enum(MARK_STATUSES, { message: 'A status is present, absent, late or excused' }).default('present'),
});
export type AcceptCorrectionBody = z.input<typeof AcceptCorrectionSchema>;

export const DeclineCorrectionSchema = z.object({ reply: text('A reply') });

export const CorrectionSchema = z.object({
  id: z.string(),
  pin: z.string(),
  name: z.string(),
  className: z.string(),
  date: z.string(),
  period: z.number().int(),
  subject: z.string().nullable(),
  /** The mark as it is now. */
  markStatus: z.enum(MARK_STATUSES),
  reason: z.string(),
  state: z.enum(CORRECTION_STATES),
  reply: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
});
export type Correction = z.infer<typeof CorrectionSchema>;
export const CorrectionListSchema = z.array(CorrectionSchema);
