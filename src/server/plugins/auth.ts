import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { canAdminister, isStaff } from '../../shared/access';
import { TOTP_SETUP_REQUIRED_MESSAGE, type User } from '../../shared/schemas/auth';
import { forbidden, unauthorized } from '../http-error';

declare module 'fastify' {
  interface FastifyRequest {
    user: User | null;
    /** The id of the request's sign-in session, when it has one. */
    sessionId: string | null;
    /** PORTAL_REQUIRE_TOTP holds this session to the TOTP setup (decision 17). */
    totpSetupRequired: boolean;
  }
}

export interface AuthPluginOptions {
  /** The cookie that carries the sign-in token. */
  cookieName: string;
  /** Who the token signs in, or null; given by the app, so that this plugin knows no module. */
  authenticate: (token: string) => Promise<{ user: User; sessionId: string; totpSetupRequired?: boolean } | null>;
}

/**
 * What a session held for the TOTP setup may still reach: the setup itself, who is signed in,
 * signing out, and the public branding of the pages.
 */
const OPEN_WHILE_TOTP_SETUP = /^\/api\/(?:auth\/totp(?:\/|$|\?)|auth\/me(?:$|\?)|auth\/logout(?:$|\?)|branding(?:\/|$|\?)|(?:health|ready)(?:$|\?))/;

/** Reads the sign-in cookie on every request and sets `request.user` (null when signed out). */
export const authPlugin = fp(async (app: FastifyInstance, opts: AuthPluginOptions) => {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('totpSetupRequired', false);

  app.addHook('onRequest', async (request) => {
    const token = request.cookies[opts.cookieName];
    if (!token) return;
    const signedIn = await opts.authenticate(token);
    if (!signedIn) return;
    request.user = signedIn.user;
    request.sessionId = signedIn.sessionId;
    request.totpSetupRequired = signedIn.totpSetupRequired === true;
    // Only the API is held: the pages themselves load, and send the user to the setup.
    if (request.totpSetupRequired && request.url.startsWith('/api/') && !OPEN_WHILE_TOTP_SETUP.test(request.url)) {
      throw forbidden(TOTP_SETUP_REQUIRED_MESSAGE);
    }
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

/** Administration (decision 12): admins only; faculty and students get 403. */
export async function requireAdmin(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) throw unauthorized();
  if (!canAdminister(request.user)) throw forbidden('This page is for administrators only');
}

/**
 * The guards above. A route with one of them among its `onRequest` hooks needs the sign-in
 * cookie: the OpenAPI document derives each operation's security from this set.
 */
export const SIGN_IN_GUARDS: ReadonlySet<unknown> = new Set([requireSignedIn, requireFaculty, requireAdmin]);
