import { z } from './zod';
import { IsoDateSchema } from './common';

/**
 * Terms (decision 12): named date ranges that never overlap. Reports, student summaries, CSV
 * files and the PDF are scoped to one with `?term=<id>`, or to every date with `?term=all`; without
 * it they cover the term that holds today, else the latest term that has ended, else all time.
 */

export const TERM_NOT_FOUND_MESSAGE = 'No term with this id';
export const TERM_DATES_MESSAGE = 'A term must end on or after the day it starts';
/** `?term=all`: every date, whatever the terms. */
export const ALL_TERMS = 'all';
export const TERM_NAME_MAX = 100;
/**
 * The header that says which term an answer covers when its body cannot (the array of
 * GET /api/reports/students, a shape the contract keeps): the term's id, or `all`.
 */
export const TERM_HEADER = 'x-portal-term';

export const TermNameSchema = z
  .string()
  .trim()
  .min(1, "Please enter the term's name")
  .max(TERM_NAME_MAX, `A term's name has at most ${TERM_NAME_MAX} characters`);

/** A term as answers name it: what a report or a record covers. */
export const TermSchema = z.object({
  id: z.string(),
  name: z.string(),
  startsOn: IsoDateSchema.describe('The first day of the term'),
  endsOn: IsoDateSchema.describe('The last day of the term (included)'),
});
export type Term = z.infer<typeof TermSchema>;

/** GET /api/terms: a term, and whether it holds today in the portal's time zone. */
export const TermListItemSchema = TermSchema.extend({
  current: z.boolean().describe("True when the term holds today (the portal's time zone)"),
});
export type TermListItem = z.infer<typeof TermListItemSchema>;
export const TermListSchema = z.array(TermListItemSchema);

export const CreateTermSchema = z
  .object({
    name: TermNameSchema,
    startsOn: IsoDateSchema,
    endsOn: IsoDateSchema,
  })
  .refine((term) => term.startsOn <= term.endsOn, { message: TERM_DATES_MESSAGE, path: ['endsOn'] });
export type CreateTermInput = z.infer<typeof CreateTermSchema>;

export const UpdateTermSchema = z
  .object({
    name: TermNameSchema.optional(),
    startsOn: IsoDateSchema.optional(),
    endsOn: IsoDateSchema.optional(),
  })
  .refine((term) => term.name !== undefined || term.startsOn !== undefined || term.endsOn !== undefined, {
    message: 'Nothing to change: send a name, startsOn or endsOn',
  })
  .refine((term) => !term.startsOn || !term.endsOn || term.startsOn <= term.endsOn, { message: TERM_DATES_MESSAGE, path: ['endsOn'] });
export type UpdateTermInput = z.infer<typeof UpdateTermSchema>;

export const TermParamsSchema = z.object({ id: z.string().max(64) });

/** `?term=` on reports, summaries, records and the PDF: a term's id or `all`; absent: the default term. */
export const TermQuerySchema = z.object({
  term: z
    .string()
    .trim()
    .min(1, 'term is a term id or all')
    .max(64, 'term is a term id or all')
    .optional()
    .describe("A term's id, or all for every date; without it, the term that holds today, else the latest that has ended, else all time"),
});
export type TermQuery = z.infer<typeof TermQuerySchema>;
