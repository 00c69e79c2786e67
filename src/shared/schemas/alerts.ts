import { z } from './zod';

/**
 * Alerts, reminders and digests: the day's period times, the rules an admin switches, the notices
 * in the header's bell and how each account wants them by e-mail.
 */

/** The rules, in the order /admin/alerts lists them. */
export const ALERT_RULES = ['below-threshold', 'consecutive-absences', 'register-missing'] as const;
export type AlertRule = (typeof ALERT_RULES)[number];
export const AlertRuleSchema = z.enum(ALERT_RULES);

/** What each rule does, as /admin/alerts says it. */
export const ALERT_RULE_LABELS: Record<AlertRule, { title: string; description: (threshold: number) => string }> = {
  'below-threshold': {
    title: 'Below the threshold',
    description: (threshold) =>
      `A student's attendance in the current term, overall or in a subject, falls below ${threshold}% after at least 5 lectures held. It fires again only after they are back at ${threshold + 2}% or more.`,
  },
  'consecutive-absences': {
    title: 'Absent three times in a row',
    description: () => 'A student is absent from 3 lectures of a subject (or 3 whole days) in a row. It fires again after a present mark.',
  },
  'register-missing': {
    title: 'Register not taken',
    description: () => "A timetabled lecture's register is not saved 30 minutes after its period ends. The slot's teacher is reminded, else the admins.",
  },
};

/** PORTAL_THRESHOLD unless set. */
export const DEFAULT_ALERT_THRESHOLD = 75;

/** Held lectures a student needs in a term before below-threshold can fire. */
export const BELOW_THRESHOLD_MIN_HELD = 5;
/** below-threshold re-arms at the threshold plus this many points. */
export const REARM_POINTS = 2;
/** Absences in a row that fire consecutive-absences. */
export const CONSECUTIVE_ABSENCES = 3;
/** Minutes after a period ends before its missing register is reported. */
export const REGISTER_GRACE_MINUTES = 30;

export const AlertSettingsSchema = z.object({
  threshold: z.number().describe('PORTAL_THRESHOLD: the percentage below which a student is warned (75 unless set)'),
  rules: z.array(z.object({ rule: AlertRuleSchema, enabled: z.boolean() })),
});
export type AlertSettings = z.infer<typeof AlertSettingsSchema>;

export const UpdateAlertRulesSchema = z.object({
  rules: z.array(z.object({ rule: AlertRuleSchema, enabled: z.boolean() })).min(1),
});
export type UpdateAlertRules = z.infer<typeof UpdateAlertRulesSchema>;

/** A time of day in the portal's time zone, 24-hour `HH:MM`. */
export const TimeOfDaySchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Times are written HH:MM, 24-hour (09:00, 13:45)');

export const PeriodTimeSchema = z.object({
  period: z.number().int().min(1, 'Periods are numbered 1 to 12').max(12, 'Periods are numbered 1 to 12'),
  startsAt: TimeOfDaySchema,
  endsAt: TimeOfDaySchema,
});
export type PeriodTime = z.infer<typeof PeriodTimeSchema>;

/** PUT /api/admin/periods: the whole day's periods (those left out have no times). */
export const PeriodTimesSchema = z
  .array(PeriodTimeSchema)
  .max(12)
  .superRefine((periods, ctx) => {
    const seen = new Set<number>();
    for (const [index, p] of periods.entries()) {
      if (seen.has(p.period)) ctx.addIssue({ code: 'custom', path: [index, 'period'], message: `Period ${p.period} is given twice` });
      seen.add(p.period);
      if (p.startsAt >= p.endsAt) ctx.addIssue({ code: 'custom', path: [index, 'endsAt'], message: `Period ${p.period} must end after it starts` });
    }
    const sorted = [...periods].sort((a, b) => a.period - b.period);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]!.startsAt < sorted[i - 1]!.endsAt) {
        ctx.addIssue({ code: 'custom', message: `Period ${sorted[i]!.period} starts before period ${sorted[i - 1]!.period} ends` });
      }
    }
  });
export type PeriodTimes = z.infer<typeof PeriodTimesSchema>;

export const NOTIFICATION_KINDS = ALERT_RULES;
export const NotificationSchema = z.object({
  id: z.string(),
  kind: AlertRuleSchema,
  title: z.string(),
  body: z.string(),
  link: z.string().nullable().describe("A path in the portal (the student's record, a register)"),
  createdAt: z.string().describe('ISO 8601'),
  read: z.boolean(),
});
export type Notification = z.infer<typeof NotificationSchema>;

/** GET /api/notifications: the newest notices of the signed-in account, and how many are unread. */
export const NotificationListSchema = z.object({
  unread: z.number().int(),
  items: z.array(NotificationSchema),
});
export type NotificationList = z.infer<typeof NotificationListSchema>;

/** POST /api/notifications/read: these notices, or all of them. */
export const MarkReadSchema = z.union([z.object({ ids: z.array(z.string().regex(/^\d+$/)).min(1).max(200) }), z.object({ all: z.literal(true) })]);
export type MarkRead = z.infer<typeof MarkReadSchema>;

export const EMAIL_CHOICES = ['immediate', 'daily', 'weekly', 'never'] as const;
export type EmailChoice = (typeof EMAIL_CHOICES)[number];
export const EmailChoiceSchema = z.enum(EMAIL_CHOICES);
export const DEFAULT_EMAIL_CHOICE: EmailChoice = 'daily';

/** The choices as /account offers them. */
export const EMAIL_CHOICE_LABELS: Record<EmailChoice, string> = {
  immediate: 'At once, one e-mail per alert',
  daily: 'A daily digest at 07:30',
  weekly: 'A weekly digest, Mondays at 07:30',
  never: 'Never: only in the portal',
};

/** GET and PUT /api/me/notification-settings. */
export const NotificationSettingsSchema = z.object({ email: EmailChoiceSchema });
export type NotificationSettings = z.infer<typeof NotificationSettingsSchema>;

/** The event on the live stream that tells an account's pages a notice arrived (`data`: `{ unread }`). */
export const NOTIFICATION_EVENT = 'notification';
