import { z } from './zod';

/** A subject (decision 13): a short code that never changes (registers and counters keep it), and a name. */
export const SubjectSchema = z.object({ code: z.string(), name: z.string() });
export type Subject = z.infer<typeof SubjectSchema>;
export const SubjectListSchema = z.array(SubjectSchema);

export const SUBJECT_CODE_MESSAGE = 'A subject code has 1 to 20 letters, digits, - or _';

/** Codes are stored upper case: `ds` and `DS` are one subject. */
export const SubjectCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9_-]{1,20}$/, SUBJECT_CODE_MESSAGE);

export const SubjectNameSchema = z
  .string()
  .trim()
  .min(1, 'A subject needs a name')
  .max(120, 'A subject name has at most 120 characters');

export const CreateSubjectSchema = z.object({ code: SubjectCodeSchema, name: SubjectNameSchema });
export type CreateSubjectInput = z.infer<typeof CreateSubjectSchema>;
export const UpdateSubjectSchema = z.object({ name: SubjectNameSchema });
export const SubjectParamsSchema = z.object({ code: z.string().trim().min(1).max(40) });

export const subjectNotFoundMessage = (code: string) => `There is no subject with the code ${code}`;
