import { z } from './zod';
import { MAX_PERIOD } from './attendance';
import { SubjectSchema } from './subjects';

/** Weekday 1 = Monday .. 7 = Sunday, as ISO 8601 counts them. */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** Why a slot's teacher is refused: an unknown id, a student's or a disabled account. */
export const TEACHER_MESSAGE = 'The teacher must be an active faculty account';

export const SlotInputSchema = z.object({
  weekday: z.number().int().min(1, 'weekday is 1 (Monday) to 7 (Sunday)').max(7, 'weekday is 1 (Monday) to 7 (Sunday)'),
  period: z.number().int().min(1, `period is 1 to ${MAX_PERIOD}`).max(MAX_PERIOD, `period is 1 to ${MAX_PERIOD}`),
  subject: z.string().trim().toUpperCase().min(1, 'Each slot needs a subject code').max(20),
  teacherId: z
    .uuid({ message: TEACHER_MESSAGE })
    .nullable()
    .optional()
    .describe('The id of the active faculty or admin account who teaches it; left out or null: no teacher'),
});
export type SlotInput = z.infer<typeof SlotInputSchema>;

/** PUT /api/admin/classes/:class/timetable: the class's whole week, replacing what it had. */
export const PutTimetableSchema = z.object({
  slots: z
    .array(SlotInputSchema)
    .max(7 * MAX_PERIOD, `A week has at most ${7 * MAX_PERIOD} slots`)
    .superRefine((slots, ctx) => {
      const seen = new Set<string>();
      slots.forEach((slot, index) => {
        const key = `${slot.weekday}/${slot.period}`;
        if (seen.has(key)) {
          ctx.addIssue({
            code: 'custom',
            path: [index],
            message: `${WEEKDAYS[slot.weekday - 1] ?? 'That day'} period ${slot.period} appears more than once`,
          });
        }
        seen.add(key);
      });
    }),
});
export type PutTimetableInput = z.infer<typeof PutTimetableSchema>;

/** Who teaches a slot, as the timetable shows them. */
export const SlotTeacherSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type SlotTeacher = z.infer<typeof SlotTeacherSchema>;

export const TimetableSlotSchema = z.object({
  weekday: z.number().int(),
  period: z.number().int(),
  subject: SubjectSchema,
  teacher: SlotTeacherSchema.nullable().describe('null when the slot names no teacher, or their account was deleted'),
});
export type TimetableSlot = z.infer<typeof TimetableSlotSchema>;
export const TimetableSchema = z.object({ class: z.string(), slots: z.array(TimetableSlotSchema) });
export type Timetable = z.infer<typeof TimetableSchema>;
