import { z } from './zod';
import { ClassParamSchema } from './attendance';

/**
 * Classes as data (decision 12): admins add, rename, reorder, archive and restore them. A rename
 * is a correction (the new name replaces the old one everywhere, past registers included); an
 * archived class leaves the dashboard and takes no new registers or students, and keeps its history.
 */

export const CLASS_NAME_MAX = 32;
export const CLASS_NAME_PATTERN = /^[A-Za-z0-9 -]+$/;
export const CLASS_NAME_CHARACTERS_MESSAGE = 'A class name holds only letters, digits, spaces and -';

/** A new or corrected class name: trimmed, 1 to 32 letters, digits, spaces or dashes. */
export const ClassNameSchema = z
  .string()
  .trim()
  .min(1, "Please enter the class's name")
  .max(CLASS_NAME_MAX, `A class name has at most ${CLASS_NAME_MAX} characters`)
  .regex(CLASS_NAME_PATTERN, CLASS_NAME_CHARACTERS_MESSAGE);

/** GET /api/admin/classes: one class, archived or not, with how much history it holds. */
export const AdminClassSchema = z.object({
  name: z.string(),
  /** 1-based place in the dashboard's order. */
  position: z.number().int().describe("The class's place in the dashboard's order, from 1"),
  archived: z.boolean().describe('An archived class is off the dashboard and takes no new registers; its history stays'),
  students: z.number().int().describe('Students on its roster now'),
  registers: z.number().int().describe('Registers taken for it, all dates'),
});
export type AdminClass = z.infer<typeof AdminClassSchema>;
export const AdminClassListSchema = z.array(AdminClassSchema);

export const CreateClassSchema = z.object({ name: ClassNameSchema });
export type CreateClassInput = z.infer<typeof CreateClassSchema>;

export const UpdateClassSchema = z
  .object({
    name: ClassNameSchema.optional(),
    position: z.number().int('position is a whole number').min(1, 'position counts from 1').optional(),
    archived: z.boolean().optional(),
  })
  .refine((change) => change.name !== undefined || change.position !== undefined || change.archived !== undefined, {
    message: 'Nothing to change: send a name, position or archived',
  });
export type UpdateClassInput = z.infer<typeof UpdateClassSchema>;

/**
 * `/api/admin/classes/:class`: a class as the URL names it, 404 when unknown; named `class` (not
 * `name`) as on every other route that names a class in its path.
 */
export const AdminClassParamsSchema = z.object({ class: ClassParamSchema });
