import { z } from './zod';
import { LOGIN_ROLES, ROLES } from '../constants';
import { LANGUAGES } from '../languages';
import {
  EMAIL_MAX_LENGTH,
  EMAIL_MESSAGE,
  EMAIL_PATTERN,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MESSAGE,
  PASSWORD_TOO_LONG_MESSAGE,
} from '../sign-in-rules';

export { EMAIL_MESSAGE, PASSWORD_MESSAGE } from '../sign-in-rules';

export const RoleSchema = z.enum(ROLES);
export const LoginRoleSchema = z.enum(LOGIN_ROLES);

/** The rules of ../sign-in-rules.ts, which the sign-in page checks without this library. */
export const EmailSchema = z
  .string()
  .trim()
  .min(1, EMAIL_MESSAGE)
  .max(EMAIL_MAX_LENGTH, EMAIL_MESSAGE)
  .pipe(z.email({ pattern: EMAIL_PATTERN, error: EMAIL_MESSAGE }));

export const LoginFormSchema = z.object({
  email: EmailSchema,
  password: z.string().min(1, PASSWORD_MESSAGE).max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG_MESSAGE),
  remember: z.boolean(),
});
export type LoginForm = z.infer<typeof LoginFormSchema>;

export const LoginRequestSchema = LoginFormSchema.extend({
  role: LoginRoleSchema,
  remember: z.boolean().default(false),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

export const LanguageSchema = z.enum(LANGUAGES);

export const UserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: RoleSchema,
  pin: z.string().optional(),
  /** The language the account chose; absent: the browser's languages decide. */
  language: LanguageSchema.optional(),
});
export type User = z.infer<typeof UserSchema>;

export const UserResponseSchema = z.object({ user: UserSchema });

/** GET /api/auth/me: the signed-in user, or null. */
export const CurrentUserResponseSchema = z.object({ user: UserSchema.nullable(), totpSetupRequired: z.boolean().optional() });

/** Password rules for new passwords set by an administrator. */
export const NewPasswordSchema = z
  .string()
  .min(10, 'Passwords need at least 10 characters')
  .max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG_MESSAGE);

export const SET_PASSWORD_LINK_MESSAGE =
  'This link has expired or was already used. Ask an administrator for a new one.';

/** POST /api/auth/set-password: the token of a set-password link and the new password. */
export const SetPasswordRequestSchema = z.object({
  token: z.string().trim().min(1, SET_PASSWORD_LINK_MESSAGE).max(200, SET_PASSWORD_LINK_MESSAGE),
  password: NewPasswordSchema,
});
export type SetPasswordRequest = z.infer<typeof SetPasswordRequestSchema>;

/* ---- Two-step sign-in with TOTP (decision 17) ---- */

export const TOTP_CODE_MESSAGE = 'Enter the 6-digit code from your authenticator app';
export const INVALID_TOTP_MESSAGE = 'That code is not right. Please try again.';
export const PENDING_SIGN_IN_MESSAGE = 'Your sign-in has timed out. Please sign in again.';
export const TOTP_SETUP_REQUIRED_MESSAGE = 'Set up two-step sign-in to continue.';
export const TOTP_PASSWORD_MESSAGE = 'The password is not right';
export const TOTP_STAFF_REQUIRED_MESSAGE = 'Two-step sign-in is required for staff accounts here';

export const TotpCodeSchema = z.string({ error: TOTP_CODE_MESSAGE }).trim().regex(/^\d{6}$/, TOTP_CODE_MESSAGE);

/** POST /api/auth/login when the account has TOTP: no session yet, a `portal_pending` cookie instead. */
export const TotpRequiredResponseSchema = z.object({ totpRequired: z.literal(true) });
/** A signed-in answer; `totpSetupRequired` when PORTAL_REQUIRE_TOTP holds the session until TOTP is set up. */
export const SignedInResponseSchema = UserResponseSchema.extend({ totpSetupRequired: z.boolean().optional() });
export const LoginResponseSchema = z.union([SignedInResponseSchema, TotpRequiredResponseSchema]);
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

/** POST /api/auth/totp/verify: the code from the app, or one of the recovery codes. */
export const TotpVerifyRequestSchema = z
  .object({
    code: TotpCodeSchema.optional(),
    recoveryCode: z.string().trim().min(1, 'Enter a recovery code').max(40, 'Recovery codes are 11 characters').optional(),
  })
  .refine((body) => (body.code === undefined) !== (body.recoveryCode === undefined), { message: 'Send either a code or a recovery code' });
export type TotpVerifyRequest = z.infer<typeof TotpVerifyRequestSchema>;

/** POST /api/auth/totp/setup: the current password, needed when TOTP is already on. */
export const TotpSetupRequestSchema = z.object({ password: z.string().max(1024).optional() });
export const TotpSetupResponseSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export const TotpEnableRequestSchema = z.object({ code: TotpCodeSchema });
export const TotpEnableResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });
export const TotpDisableRequestSchema = z.object({ password: z.string().min(1, PASSWORD_MESSAGE).max(1024) });
/** GET /api/auth/totp: whether it is on, how many recovery codes are left, and whether this portal requires it of the account. */
export const TotpStatusSchema = z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number().int(), required: z.boolean() });
export type TotpStatus = z.infer<typeof TotpStatusSchema>;

/* ---- Single sign-on with OpenID Connect (decision 17) ---- */

export { OIDC_ERROR_MESSAGES, type OidcErrorReason } from '../sign-in-rules';

export const PASSWORD_LOGIN_OFF_MESSAGE = 'Password sign-in is turned off here. Use single sign-on.';

/** GET /api/auth/options: how this portal signs people in, for the sign-in page. */
export const SignInOptionsSchema = z.object({
  passwordLogin: z.boolean(),
  sso: z.object({ name: z.string() }).nullable(),
});
export type SignInOptions = z.infer<typeof SignInOptionsSchema>;

export const OidcStartQuerySchema = z.object({
  role: LoginRoleSchema,
  returnUrl: z.string().max(2048).optional(),
});
