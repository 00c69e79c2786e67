import { z } from './zod';
import { IsoDateSchema } from './common';

/**
 * Every kind of action the audit trail records (decision 12): one entry per action, written in
 * the action's own transaction.
 */
export const AUDIT_ACTIONS = [
  'account.create',
  'account.update',
  'account.disable',
  'account.enable',
  'account.reset-password',
  'account.reset-totp',
  'account.unlock',
  'sessions.revoke',
  'register.save',
  'register.replace',
  'profile.approve',
  'profile.edit',
  'profile.delete',
  'roster.import',
  'class.create',
  'class.update',
  'term.create',
  'term.update',
  'subject.create',
  'subject.update',
  'timetable.update',
  'periods.update',
  'correction.accept',
  'correction.decline',
  'backup.download',
  'student.export',
  'student.erase',
  'import.firestore',
  'alerts.update',
  'checkin.open',
  'checkin.close',
  'checkin.remove',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AuditActionSchema = z.enum(AUDIT_ACTIONS);

/** What an action's entry reads like in the trail's action filter. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'account.create': 'Account created',
  'account.update': 'Account changed',
  'account.disable': 'Account disabled',
  'account.enable': 'Account enabled',
  'account.reset-password': 'Password reset',
  'account.reset-totp': 'Two-step sign-in reset',
  'account.unlock': 'Sign-in failures cleared',
  'sessions.revoke': 'Sign-ins ended',
  'register.save': 'Register saved',
  'register.replace': 'Register replaced',
  'profile.approve': 'Profile approved',
  'profile.edit': 'Profile edited',
  'profile.delete': 'Profile deleted',
  'roster.import': 'Roster imported',
  'class.create': 'Class created',
  'class.update': 'Class changed',
  'term.create': 'Term created',
  'term.update': 'Term changed',
  'subject.create': 'Subject created',
  'subject.update': 'Subject renamed',
  'timetable.update': 'Timetable changed',
  'periods.update': 'Period times changed',
  'correction.accept': 'Correction accepted',
  'correction.decline': 'Correction declined',
  'backup.download': 'Backup downloaded',
  'student.export': "Student's data exported",
  'student.erase': "Student's data erased",
  'import.firestore': 'Imported from the Firebase app',
  'alerts.update': 'Alert rules changed',
  'checkin.open': 'Check-in opened',
  'checkin.close': 'Check-in closed',
  'checkin.remove': 'Check-in removed',
};

/** The actor of an action done through the `portal` command. */
export const CLI_ACTOR = 'cli';

export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string().describe('When, as an ISO 8601 timestamp'),
  actor: z.string().describe("The account's e-mail, or cli for the portal command"),
  action: AuditActionSchema,
  target: z.string().describe('What the action was done to: an e-mail, a PIN, a class and date, a term'),
  detail: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 500;

export const AuditQuerySchema = z
  .object({
    action: AuditActionSchema.optional(),
    from: IsoDateSchema.optional().describe('The first day to list (portal time zone)'),
    to: IsoDateSchema.optional().describe('The last day to list (portal time zone)'),
    limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(AUDIT_PAGE_DEFAULT),
    before: z
      .string()
      .regex(/^\d{1,18}$/, 'before is the nextBefore of the previous page')
      .optional()
      .describe('The nextBefore of the previous page'),
    format: z.enum(['json', 'csv']).default('json'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] });
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export const AuditPageSchema = z.object({
  entries: z.array(AuditEntrySchema),
  nextBefore: z.string().nullable().describe('Pass as before for the next (older) page; null on the last page'),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;
