import { z } from './zod';

/**
 * The roster from the browser (decision 12): a CSV file (pin,name,class and optionally email)
 * previewed, then imported in one transaction.
 */

/** Roster uploads may be 10 MB (the API's default body limit is far smaller). */
export const ROSTER_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** Each list of a preview names at most this many students; its count is always the whole. */
export const ROSTER_PREVIEW_LIST_MAX = 1000;

/** The columns a roster CSV has, in the order the export writes them; `email` is optional. */
export const ROSTER_COLUMNS = ['pin', 'name', 'class'] as const;

export const RosterLineErrorSchema = z.object({
  line: z
    .number()
    .int()
    .nullable()
    .describe('The line of the file, the header being line 1; null for a problem of the whole file'),
  message: z.string(),
});
export type RosterLineError = z.infer<typeof RosterLineErrorSchema>;

export const RosterChangeRowSchema = z.object({
  pin: z.string(),
  name: z.string().describe('The name as the file gives it (for notInFile, as the roster has it)'),
  className: z.string().describe('The class as the file gives it (for notInFile, the class they are in now)'),
  fromName: z.string().optional().describe('The name on the roster now, when the file changes it'),
  fromClass: z.string().optional().describe('The class on the roster now, when the file moves the student'),
  returning: z.boolean().optional().describe('A withdrawn student whom the file brings back onto the roster'),
});
export type RosterChangeRow = z.infer<typeof RosterChangeRowSchema>;

export const RosterChangeListSchema = z.object({
  count: z.number().int().describe('How many students, all of them'),
  rows: z.array(RosterChangeRowSchema).describe(`The first ${ROSTER_PREVIEW_LIST_MAX}, in file order (notInFile by class and PIN)`),
});
export type RosterChangeList = z.infer<typeof RosterChangeListSchema>;

export const RosterPreviewSchema = z.object({
  added: RosterChangeListSchema.describe('PINs not on the roster, and withdrawn students who come back (returning)'),
  updated: RosterChangeListSchema.describe('Students whose name changes, in the same class'),
  moved: RosterChangeListSchema.describe('Students who change class (fromClass -> className); their past marks stay under the old class'),
  unchanged: z.object({ count: z.number().int() }),
  notInFile: RosterChangeListSchema.describe('Students on the roster whom the file leaves out; withdrawn only with ?withdraw=true'),
  accounts: z.number().int().describe('How many students the file gives an e-mail for (each gets a student account)'),
  errors: z.array(RosterLineErrorSchema).describe('Empty when the file can be imported'),
});
export type RosterPreview = z.infer<typeof RosterPreviewSchema>;

export const RosterImportResultSchema = z.object({
  added: z.number().int(),
  updated: z.number().int(),
  moved: z.number().int(),
  unchanged: z.number().int(),
  notInFile: z.number().int(),
  withdrawn: z.number().int().describe('How many of notInFile were withdrawn (0 unless ?withdraw=true)'),
  returned: z.number().int().describe('Withdrawn students the file brought back (counted in added)'),
  accounts: z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int() }),
});
export type RosterImportResult = z.infer<typeof RosterImportResultSchema>;

/** The 400 of an import with problems: nothing was changed. */
export const RosterFileErrorSchema = z.object({
  message: z.string(),
  errors: z.array(RosterLineErrorSchema),
});
export type RosterFileErrorBody = z.infer<typeof RosterFileErrorSchema>;

export const RosterImportQuerySchema = z.object({
  withdraw: z
    .enum(['true', 'false'], { message: 'withdraw is true or false' })
    .default('false')
    .transform((value) => value === 'true')
    .describe('Withdraw the students the file leaves out (their history is kept)'),
});
