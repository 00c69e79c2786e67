import { z } from './zod';
import { EmailSchema, RoleSchema } from './auth';
import { PinSchema } from './common';

/** How long a set-password link works (decision 12). */
export const SET_PASSWORD_LINK_HOURS = 72;

export const USERS_PAGE_DEFAULT = 50;
export const USERS_PAGE_MAX = 200;

export const LAST_ADMIN_MESSAGE =
  'This is the last enabled admin account: make another account an admin before disabling or demoting this one.';
export const STUDENT_NEEDS_PIN_MESSAGE =
  'Only an account with a roster PIN can be a student: add the student as a new account with their PIN.';
export const DISABLED_RESET_MESSAGE = 'This account is disabled: enable it before making a set-password link.';

/** Where an account's newest set-password e-mail is (the mail outbox keeps it and retries). */
export const SET_PASSWORD_MAIL_STATES = ['queued', 'failing', 'sent', 'failed'] as const;

export const SetPasswordMailSchema = z.object({
  state: z
    .enum(SET_PASSWORD_MAIL_STATES)
    .describe('queued: waiting to be sent; failing: tried and will be tried again; sent: the mail server took it; failed: given up'),
  queuedAt: z.string().describe('When the link was made and its e-mail queued (ISO 8601)'),
  sentAt: z.string().nullable().describe('When the mail server took it'),
  attempts: z.number().int(),
  lastError: z.string().nullable().describe("The last failure's reason, in the mail server's words where it gave any"),
  nextAttemptAt: z.string().nullable().describe('When it is tried again, while it waits'),
});
export type SetPasswordMail = z.infer<typeof SetPasswordMailSchema>;

/** One account as the accounts table shows it. */
export const AdminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: RoleSchema,
  pin: z.string().nullable().describe('The roster PIN of a student account'),
  lastSignInAt: z.string().nullable().describe('The last successful sign-in (ISO 8601), null if never'),
  disabled: z.boolean(),
  hasPassword: z.boolean().describe('False until the account has used its set-password link'),
  createdAt: z.string(),
  setPasswordMail: SetPasswordMailSchema.nullable().describe(
    'The newest set-password e-mail of the account; null when none was queued (e-mail is not set up, or none was made)',
  ),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

export const UsersQuerySchema = z.object({
  role: RoleSchema.optional(),
  q: z
    .string()
    .trim()
    .max(200, 'Search for at most 200 characters')
    .optional()
    .describe('Part of an e-mail, a name or a PIN (any case)'),
  limit: z.coerce.number().int().min(1).max(USERS_PAGE_MAX).default(USERS_PAGE_DEFAULT),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type UsersQuery = z.infer<typeof UsersQuerySchema>;

export const UsersPageSchema = z.object({
  users: z.array(AdminUserSchema),
  total: z.number().int().describe('How many accounts match, over all pages'),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type UsersPage = z.infer<typeof UsersPageSchema>;

export const AccountNameSchema = z
  .string()
  .trim()
  .min(1, 'Please enter a name')
  .max(200, 'A name has at most 200 characters');

export const CreateUserSchema = z.object({
  email: EmailSchema,
  name: AccountNameSchema,
  role: RoleSchema,
  pin: PinSchema.optional().describe("A student's roster PIN; only for students"),
});
export type CreateUserInput = z.infer<typeof CreateUserSchema>;

export const SetPasswordLinkSchema = z.object({
  setPasswordUrl: z.string().describe('A one-time link, valid 72 hours, shown only in this answer'),
  emailed: z.boolean().describe('The link is also e-mailed to the account (queued in the mail outbox): the portal sends e-mail'),
});
export type SetPasswordLink = z.infer<typeof SetPasswordLinkSchema>;

export const CreatedUserSchema = SetPasswordLinkSchema.extend({ user: AdminUserSchema });
export type CreatedUser = z.infer<typeof CreatedUserSchema>;

export const UpdateUserSchema = z
  .object({
    name: AccountNameSchema.optional(),
    role: RoleSchema.optional(),
    disabled: z.boolean().optional(),
  })
  .refine((body) => body.name !== undefined || body.role !== undefined || body.disabled !== undefined, {
    message: 'Say what to change: name, role or disabled',
  });
export type UpdateUserInput = z.infer<typeof UpdateUserSchema>;

export const UserParamsSchema = z.object({ id: z.string().max(64) });
