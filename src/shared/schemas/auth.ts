import { z } from 'zod';
import { LOGIN_ROLES, ROLES } from '../constants';

export const RoleSchema = z.enum(ROLES);
export const LoginRoleSchema = z.enum(LOGIN_ROLES);

export const EMAIL_MESSAGE = 'Please enter a valid email address';
export const PASSWORD_MESSAGE = 'Password is required';

export const EmailSchema = z
  .string()
  .trim()
  .min(1, EMAIL_MESSAGE)
  .max(254, EMAIL_MESSAGE)
  .pipe(z.email(EMAIL_MESSAGE));

export const LoginFormSchema = z.object({
  email: EmailSchema,
  password: z.string().min(1, PASSWORD_MESSAGE).max(1024, 'Passwords have at most 1024 characters'),
  remember: z.boolean(),
});
export type LoginForm = z.infer<typeof LoginFormSchema>;

export const LoginRequestSchema = LoginFormSchema.extend({
  role: LoginRoleSchema,
  remember: z.boolean().default(false),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

export const UserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: RoleSchema,
  pin: z.string().optional(),
});
export type User = z.infer<typeof UserSchema>;

export const UserResponseSchema = z.object({ user: UserSchema });

/** GET /api/auth/me: the signed-in user, or null. */
export const CurrentUserResponseSchema = z.object({ user: UserSchema.nullable() });

/** Password rules for new passwords set by an administrator. */
export const NewPasswordSchema = z
  .string()
  .min(10, 'Passwords need at least 10 characters')
  .max(1024, 'Passwords have at most 1024 characters');

export const SET_PASSWORD_LINK_MESSAGE =
  'This link has expired or was already used. Ask an administrator for a new one.';

/** POST /api/auth/set-password: the token of a set-password link and the new password. */
export const SetPasswordRequestSchema = z.object({
  token: z.string().trim().min(1, SET_PASSWORD_LINK_MESSAGE).max(200, SET_PASSWORD_LINK_MESSAGE),
  password: NewPasswordSchema,
});
export type SetPasswordRequest = z.infer<typeof SetPasswordRequestSchema>;
