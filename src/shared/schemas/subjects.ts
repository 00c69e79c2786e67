import { z } from 'zod';

/** A subject (DESIGN.md 7.6): a short code that never changes, and a name. */
export const SubjectSchema = z.object({ code: z.string(), name: z.string() });
export type Subject = z.infer<typeof SubjectSchema>;
export const SubjectListSchema = z.array(SubjectSchema);
