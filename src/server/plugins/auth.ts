import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { User } from '../../shared/schemas/auth';
import type { Db } from '../db/client';
import { forbidden, unauthorized } from '../http-error';
import { findLiveSession, touchSession } from '../modules/auth/repository';
import { hashToken, SESSION_COOKIE, toUser } from '../modules/auth/service';

declare module 'fastify' {
  interface FastifyRequest {
    user: User | null;
    sessionId: string | null;
  }
}

/** Writing last_seen_at on every request would turn every read into a write. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

/** Reads the session cookie on every request and sets `request.user` (null when signed out). */
export const authPlugin = fp(async (app: FastifyInstance, opts: { db: Db }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);

  app.addHook('onRequest', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    const id = hashToken(token);
    const now = new Date();
    const session = await findLiveSession(opts.db, id, now);
    if (!session) return;
    request.user = toUser(session.user);
    request.sessionId = id;
    if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await touchSession(opts.db, id, now);
    }
  });
});

export async function requireSignedIn(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) throw unauthorized();
}

/** Faculty routes: faculty and administrators. */
export async function requireFaculty(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.user) throw unauthorized();
  if (request.user.role === 'student') throw forbidden('This page is for faculty only');
}

/** Faculty may see any student; a student only their own PIN. */
export function canSeeStudent(user: User, pin: string): boolean {
  return user.role !== 'student' || user.pin === pin;
}
