import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { canAdminister, isStaff } from '../../shared/access';
import type { User } from '../../shared/schemas/auth';
import { forbidden, unauthorized } from '../http-error';

declare module 'fastify' {
  interface FastifyRequest {
    user: User | null;
    /** The id of the request's sign-in session, when it has one. */
    sessionId: string | null;
  }
}

export interface AuthPluginOptions {
  /** The cookie that carries the sign-in token. */
  cookieName: string;
  /** Who the token signs in, or null; given by the app, so that this plugin knows no module. */
  authenticate: (token: string) => Promise<{ user: User; sessionId: string } | null>;
}

/** Reads the sign-in cookie on every request and sets `request.user` (null when signed out). */
export const authPlugin = fp(async (app: FastifyInstance, opts: AuthPluginOptions) => {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);

  app.addHook('onRequest', async (request) => {
    const token = request.cookies[opts.cookieName];
    if (!token) return;
    const signedIn = await opts.authenticate(token);
    if (!signedIn) return;
    request.user = signedIn.user;
    request.sessionId = signedIn.sessionId;
  });
});

export async function requireSignedIn(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) throw unauthorized();
}

/** Faculty routes: staff, that is faculty and administrators (src/shared/access.ts). */
export async function requireFaculty(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) throw unauthorized();
  if (!isStaff(request.user)) throw forbidden('This page is for faculty only');
}

/** Administration (DESIGN.md 7.5): admins only; faculty and students get 403. */
export async function requireAdmin(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) throw unauthorized();
  if (!canAdminister(request.user)) throw forbidden('This page is for administrators only');
}

/**
 * The guards above. A route with one of them among its `onRequest` hooks needs the sign-in
 * cookie: the OpenAPI document derives each operation's security from this set.
 */
export const SIGN_IN_GUARDS: ReadonlySet<unknown> = new Set([requireSignedIn, requireFaculty, requireAdmin]);
