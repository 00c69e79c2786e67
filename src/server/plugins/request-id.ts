import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const REQUEST_ID_HEADER = 'x-request-id';

/** An id a client or proxy may hand in: 1 to 64 letters, digits, dots, underscores and hyphens. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Each request's id (Fastify's `genReqId`): the incoming X-Request-Id when it is safe to write in
 * a log line and a header, so that a proxy's id follows the request through; else a new one.
 */
export function requestId(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Sends the request's id back in X-Request-Id on every answer: set on the raw response, so that
 * streams that write their own head (the live updates) and files send it too. Every log line of
 * the request carries it as `reqId`.
 */
export const requestIdPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
  });
});
