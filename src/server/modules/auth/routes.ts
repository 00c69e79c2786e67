import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CurrentUserResponseSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  OidcStartQuerySchema,
  PASSWORD_LOGIN_OFF_MESSAGE,
  SetPasswordRequestSchema,
  SignInOptionsSchema,
  SignedInResponseSchema,
  TotpDisableRequestSchema,
  TotpEnableRequestSchema,
  TotpEnableResponseSchema,
  TotpSetupRequestSchema,
  TotpSetupResponseSchema,
  TotpStatusSchema,
  TotpVerifyRequestSchema,
} from '../../../shared/schemas/auth';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { Db } from '../../db/client';
import { LanguageSchema, UserResponseSchema, type User } from '../../../shared/schemas/auth';
import { UserParamsSchema } from '../../../shared/schemas/admin-users';
import { homePathFor } from '../../../shared/access';
import type { OidcSettings } from '../../config';
import { forbidden, notFound } from '../../http-error';
import { requireAdmin, requireSignedIn } from '../../plugins/auth';
import { finishOidcLogin, OIDC_CALLBACK_PATH, OIDC_COOKIE, OidcError, OidcProvider, startOidcLogin } from './oidc';
import {
  chooseLanguage,
  DEFAULT_SIGN_IN_LIMITS,
  DEVICE_COOKIE,
  DEVICE_MS,
  disableTotp,
  enableTotpWithCode,
  login,
  PENDING_COOKIE,
  resetTotp,
  SESSION_COOKIE,
  setPasswordFromLink,
  setUpTotp,
  signInWithOidc,
  signOut,
  SsoRefusal,
  totpStatus,
  verifyTotpSignIn,
  type LoginResult,
  type SignInLimits,
  type TotpRequirement,
} from './service';

/**
 * Set-password requests accepted per address per 10 minutes: a whole lab setting its passwords
 * gets through (as with registrations), a flood of password checks does not.
 */
export const SET_PASSWORD_PER_10_MINUTES = 100;

/** The answer of the single sign-on routes of a portal that has none configured. */
export const SSO_OFF_MESSAGE = 'Single sign-on is not configured';

/**
 * A signed cookie's value, or undefined when it is missing or its signature is wrong; `renew` when
 * it was signed with an older key of PORTAL_SECRET than the one that signs now.
 */
function readSignedCookie(request: FastifyRequest, name: string): { value: string; renew: boolean } | undefined {
  const raw = request.cookies[name];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value !== null ? { value: unsigned.value, renew: unsigned.renew } : undefined;
}

/** The value of a signed cookie, or undefined when it is missing or its signature is wrong. */
function signedCookie(request: FastifyRequest, name: string): string | undefined {
  return readSignedCookie(request, name)?.value;
}

/** Every cookie of the portal: out of scripts' reach, not sent from other sites, HTTPS-only over HTTPS. */
function cookieOptions(request: FastifyRequest, path: string) {
  return { path, httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https' };
}

/**
 * Sets a signed cookie that only the routes under `path` read (the device, a pending TOTP step, a
 * single sign-on in progress), ending at `expires`.
 */
function setSignedCookie(request: FastifyRequest, reply: FastifyReply, name: string, value: string, path: string, expires: Date): void {
  reply.setCookie(name, value, { ...cookieOptions(request, path), expires, signed: true });
}

/** Sets the session cookie (and the device cookie when new) of a completed sign-in. */
function setSignInCookies(request: FastifyRequest, reply: FastifyReply, result: LoginResult): void {
  const deviceExpires = new Date(Date.now() + DEVICE_MS);
  if (result.deviceToken) {
    setSignedCookie(request, reply, DEVICE_COOKIE, result.deviceToken, '/api/auth', deviceExpires);
  } else {
    // A known browser whose device cookie an older key signed gets it signed with the current key,
    // so that the older key can later leave PORTAL_SECRET without the browser becoming a stranger.
    const sent = readSignedCookie(request, DEVICE_COOKIE);
    if (sent?.renew) setSignedCookie(request, reply, DEVICE_COOKIE, sent.value, '/api/auth', deviceExpires);
  }
  reply.setCookie(SESSION_COOKIE, result.token, {
    ...cookieOptions(request, '/'),
    // Without Remember me the cookie ends with the browser; the server still ends it after 12 hours.
    ...(result.persistent ? { expires: result.expiresAt } : {}),
  });
}

export interface AuthRoutesOptions {
  db: Db;
  signInLimits?: SignInLimits;
  /** PORTAL_REQUIRE_TOTP: `staff` makes faculty and admins set TOTP up at their next password sign-in. */
  requireTotp?: TotpRequirement;
  /** The name authenticator apps show beside the account: the university's, or the portal's name. */
  totpIssuer?: string;
  /** Single sign-on with OpenID Connect, when configured. */
  oidc?: OidcSettings | undefined;
  /** False: password sign-in is off, single sign-on only. */
  passwordLogin?: boolean;
  /** PORTAL_PUBLIC_URL: the callback address is built on it; unset, on the request's own address. */
  publicUrl?: string | undefined;
  /**
   * Called once a sign-in completes (password, second step or single sign-on), before the answer:
   * the app finishes there what the visitor began signed out (a check-in's scan). Given by the
   * app, so that this module knows no other.
   */
  onSignedIn?: (request: FastifyRequest, user: User) => Promise<void>;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { db, signInLimits = DEFAULT_SIGN_IN_LIMITS, requireTotp = 'off', totpIssuer = 'University Portal', oidc, passwordLogin = true, publicUrl, onSignedIn },
) => {
  const provider = oidc ? new OidcProvider(oidc) : undefined;
  const redirectUri = (request: FastifyRequest) => `${publicUrl ?? `${request.protocol}://${request.host}`}${OIDC_CALLBACK_PATH}`;

  app.get(
    '/api/auth/options',
    {
      schema: {
        tags: ['auth'],
        operationId: 'getSignInOptions',
        summary: 'How this portal signs people in: with a password, with single sign-on (its button name), or both (public)',
        response: { 200: SignInOptionsSchema, 400: ErrorSchema },
      },
    },
    async () => ({ passwordLogin, sso: oidc ? { name: oidc.name } : null }),
  );

  // Registered whether or not single sign-on is configured, so that the API's document is the same
  // for every portal: without it, both answer 404.
  app.get(
    '/api/auth/oidc/start',
    {
      schema: {
        tags: ['auth'],
        operationId: 'startSingleSignOn',
        summary:
          "Sends the browser to the identity provider (302) with state, nonce and a PKCE challenge, for the tab's role; 404 when single sign-on is not configured",
        querystring: OidcStartQuerySchema,
        response: {
          302: z.null().describe('To the provider, or back to /login?sso=provider when it cannot be reached'),
          400: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      if (!provider) throw notFound(SSO_OFF_MESSAGE);
      try {
        const started = await startOidcLogin(db, provider, { role: request.query.role, returnUrl: request.query.returnUrl, redirectUri: redirectUri(request) });
        setSignedCookie(request, reply, OIDC_COOKIE, started.cookieToken, '/api/auth/oidc', started.expiresAt);
        return reply.redirect(started.url, 302);
      } catch (error) {
        request.log.warn({ err: error }, 'single sign-on could not start');
        return reply.redirect('/login?sso=provider', 302);
      }
    },
  );

  app.get(
    OIDC_CALLBACK_PATH,
    {
      schema: {
        tags: ['auth'],
        operationId: 'finishSingleSignOn',
        summary:
          "The identity provider's answer: signs the account in and goes to the returnUrl or the role's home; every failure goes to /login?sso=<reason>; 404 when single sign-on is not configured",
        response: {
          302: z.null().describe('Into the portal, or back to /login with the reason'),
          400: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      if (!provider) throw notFound(SSO_OFF_MESSAGE);
      const cookieToken = signedCookie(request, OIDC_COOKIE);
      reply.clearCookie(OIDC_COOKIE, { path: '/api/auth/oidc' });
      try {
        const { identity, role, returnUrl } = await finishOidcLogin(db, provider, {
          cookieToken,
          callbackUrl: new URL(request.url, 'http://callback.invalid'),
          redirectUri: redirectUri(request),
        });
        const result = await signInWithOidc(db, identity, role);
        setSignInCookies(request, reply, result);
        await onSignedIn?.(request, result.user);
        return reply.redirect(returnUrl ?? homePathFor(result.user.role), 302);
      } catch (error) {
        const reason = error instanceof OidcError || error instanceof SsoRefusal ? error.reason : 'failed';
        request.log.warn({ err: error }, `single sign-on failed: ${reason}`);
        return reply.redirect(`/login?sso=${reason}`, 302);
      }
    },
  );

  app.post(
    '/api/auth/login',
    {
      schema: {
        tags: ['auth'],
        operationId: 'signIn',
        summary: 'Sign in on the Faculty or Student tab',
        description:
          'An account with TOTP gets `{ totpRequired: true }`, no session, and a five-minute `portal_pending` cookie for ' +
          'POST /api/auth/totp/verify. `totpSetupRequired` means PORTAL_REQUIRE_TOTP holds the session to the TOTP setup.',
        body: LoginRequestSchema,
        response: {
          200: LoginResponseSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          429: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      if (!passwordLogin) throw forbidden(PASSWORD_LOGIN_OFF_MESSAGE);
      const result = await login(db, request.body, {
        address: request.ip,
        deviceToken: signedCookie(request, DEVICE_COOKIE),
        limits: signInLimits,
        requireTotp,
      });
      if ('totpRequired' in result) {
        setSignedCookie(request, reply, PENDING_COOKIE, result.pendingToken, '/api/auth/totp', result.expiresAt);
        return { totpRequired: true as const };
      }
      setSignInCookies(request, reply, result);
      await onSignedIn?.(request, result.user);
      return { user: result.user, ...(result.totpSetupRequired ? { totpSetupRequired: true } : {}) };
    },
  );

  app.post(
    '/api/auth/totp/verify',
    {
      schema: {
        tags: ['auth'],
        operationId: 'verifyTotp',
        summary: "The second step of a password sign-in: a code from the app or a recovery code, with the portal_pending cookie",
        description: 'Each code and each recovery code works once; wrong ones count toward the sign-in limits (429).',
        body: TotpVerifyRequestSchema,
        response: { 200: SignedInResponseSchema, 400: ErrorSchema, 401: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      const result = await verifyTotpSignIn(db, signedCookie(request, PENDING_COOKIE), request.body, {
        address: request.ip,
        deviceToken: signedCookie(request, DEVICE_COOKIE),
        limits: signInLimits,
      });
      reply.clearCookie(PENDING_COOKIE, { path: '/api/auth/totp' });
      setSignInCookies(request, reply, result);
      await onSignedIn?.(request, result.user);
      return { user: result.user };
    },
  );

  app.get(
    '/api/auth/totp',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['auth'],
        operationId: 'getTotpStatus',
        summary: 'Whether two-step sign-in is on for the signed-in account, and whether it is required of it',
        response: { 200: TotpStatusSchema, 401: ErrorSchema },
      },
    },
    async (request) => totpStatus(db, request.user!, requireTotp),
  );

  app.post(
    '/api/auth/totp/setup',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['auth'],
        operationId: 'setUpTotp',
        summary: 'A new TOTP secret for the signed-in account (the current password when TOTP is already on)',
        body: TotpSetupRequestSchema,
        response: { 200: TotpSetupResponseSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request) => setUpTotp(db, request.user!, request.body.password, totpIssuer),
  );

  app.post(
    '/api/auth/totp/enable',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['auth'],
        operationId: 'enableTotp',
        summary: 'Turns TOTP on with a first code from the app; answers ten recovery codes, shown this once',
        body: TotpEnableRequestSchema,
        response: { 200: TotpEnableResponseSchema, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => ({ recoveryCodes: await enableTotpWithCode(db, request.user!, request.body.code) }),
  );

  app.post(
    '/api/auth/totp/disable',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['auth'],
        operationId: 'disableTotp',
        summary: 'Turns TOTP off with the current password (refused to staff where PORTAL_REQUIRE_TOTP=staff)',
        body: TotpDisableRequestSchema,
        response: { 204: z.null(), 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request, reply) => {
      await disableTotp(db, request.user!, request.body.password, requireTotp);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/admin/users/:id/reset-totp',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'resetUserTotp',
        summary: "Turns an account's two-step sign-in off, for someone who lost their phone and their recovery codes (admins; audited)",
        params: UserParamsSchema,
        response: { 204: z.null(), 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      await resetTotp(db, request.user!, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/auth/logout',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['auth'],
        operationId: 'signOut',
        summary: 'Sign out',
        response: { 204: z.null(), 401: ErrorSchema },
      },
    },
    async (request, reply) => {
      if (request.sessionId) await signOut(db, request.sessionId);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/auth/set-password',
    {
      config: { rateLimit: { max: SET_PASSWORD_PER_10_MINUTES, timeWindow: '10 minutes' } },
      schema: {
        tags: ['auth'],
        operationId: 'setPasswordWithLink',
        summary: "Choose a password with a set-password link's token (public: the token is the proof)",
        description:
          'The token works once, for 72 hours, and not for a disabled account (400). The password needs at least 10 ' +
          'characters and must not be guessable. Every sign-in session of the account ends and its device cookies are cancelled.',
        body: SetPasswordRequestSchema,
        response: { 204: z.null(), 400: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      await setPasswordFromLink(db, request.body.token, request.body.password);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/auth/me',
    {
      schema: {
        tags: ['auth'],
        operationId: 'getCurrentUser',
        summary: 'The signed-in user, or null when signed out (200 either way, so a signed-out page logs no failed request)',
        response: { 200: CurrentUserResponseSchema, 400: ErrorSchema },
      },
    },
    async (request) => ({ user: request.user, ...(request.totpSetupRequired ? { totpSetupRequired: true } : {}) }),
  );

  app.put(
    '/api/me/language',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['auth'],
        operationId: 'chooseLanguage',
        summary: "The signed-in account's language (en, hi or te) for the portal and its e-mails; null follows the browser's languages",
        body: z.object({ language: LanguageSchema.nullable() }),
        response: { 200: UserResponseSchema, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => ({ user: await chooseLanguage(db, request.user!, request.body.language) }),
  );
};
