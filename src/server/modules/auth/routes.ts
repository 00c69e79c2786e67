import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CurrentUserResponseSchema, LoginRequestSchema, SetPasswordRequestSchema, UserResponseSchema } from '../../../shared/schemas/auth';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { Db } from '../../db/client';
import { requireSignedIn } from '../../plugins/auth';
import {
  DEFAULT_SIGN_IN_LIMITS,
  DEVICE_COOKIE,
  DEVICE_MS,
  login,
  SESSION_COOKIE,
  setPasswordFromLink,
  signOut,
  type SignInLimits,
} from './service';

/**
 * Set-password requests accepted per address per 10 minutes: a whole lab setting its passwords
 * gets through (as with registrations), a flood of password checks does not.
 */
export const SET_PASSWORD_PER_10_MINUTES = 100;

/** The value of a signed cookie, or undefined when it is missing or its signature is wrong. */
function signedCookie(request: FastifyRequest, name: string): string | undefined {
  const raw = request.cookies[name];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value !== null ? unsigned.value : undefined;
}

export const authRoutes: FastifyPluginAsyncZod<{ db: Db; signInLimits?: SignInLimits }> = async (
  app,
  { db, signInLimits = DEFAULT_SIGN_IN_LIMITS },
) => {
  app.post(
    '/api/auth/login',
    {
      schema: {
        tags: ['auth'],
        operationId: 'signIn',
        summary: 'Sign in on the Faculty or Student tab',
        body: LoginRequestSchema,
        response: {
          200: UserResponseSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          429: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const result = await login(db, request.body, {
        address: request.ip,
        deviceToken: signedCookie(request, DEVICE_COOKIE),
        limits: signInLimits,
      });
      if (result.deviceToken) {
        reply.setCookie(DEVICE_COOKIE, result.deviceToken, {
          path: '/api/auth',
          httpOnly: true,
          sameSite: 'lax',
          secure: request.protocol === 'https',
          expires: new Date(Date.now() + DEVICE_MS),
          signed: true,
        });
      }
      reply.setCookie(SESSION_COOKIE, result.token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        // Without Remember me the cookie ends with the browser; the server still ends it after 12 hours.
        ...(result.persistent ? { expires: result.expiresAt } : {}),
      });
      return { user: result.user };
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
    async (request) => ({ user: request.user }),
  );
};
