import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../http-error';
import { UserInputError } from '../input-error';

interface IssueLike {
  instancePath?: string;
  message?: string;
}

function pathOf(issue: IssueLike, context: string | undefined): string {
  const local = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  return [context, local].filter(Boolean).join('.');
}

/**
 * One error body for the whole API, `{ message, errors? }`. A 4xx says what was wrong; a 5xx
 * says only that something failed and is logged in full on the server.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ message: error.message });
    }
    if (error instanceof UserInputError) {
      return reply.status(400).send({ message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((issue) => ({
        path: pathOf(issue as IssueLike, error.validationContext),
        message: issue.message ?? 'Invalid value',
      }));
      return reply.status(400).send({ message: errors[0]?.message ?? 'Invalid request', errors });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: clientMessage(error, status) });
    }
    const code = databaseErrorCode(error);
    // PostgreSQL cancelled a statement that ran past PORTAL_STATEMENT_TIMEOUT_MS: the server is
    // busy, not broken.
    if (code === QUERY_CANCELED) {
      request.log.warn({ route: request.routeOptions.url, code: code ?? error.code }, 'request took too long');
      return reply.status(503).send({ message: TOO_LONG_MESSAGE });
    }
    // The database is down or restarting (the pool reconnects by itself): a pause, not a fault.
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ route: request.routeOptions.url, code: code ?? error.code }, 'the database is not answering');
      return reply.status(503).send({ message: DATABASE_UNAVAILABLE_MESSAGE });
    }
    // Two transactions each waited for the other (a deadlock), could not both be kept (a
    // serialization failure), or one waited past lock_timeout: PostgreSQL rolled this one back, and
    // the same request may be sent again.
    if (code !== undefined && CONFLICTS.has(code)) {
      request.log.warn({ route: request.routeOptions.url, code }, 'a conflicting change at the same moment');
      return reply.status(503).send({ message: CONFLICT_MESSAGE });
    }
    if (code?.startsWith('22')) {
      // A data exception (a value PostgreSQL cannot store): the request's fault, not the server's.
      return reply.status(400).send({ message: 'The request contains a value that cannot be stored' });
    }
    // Query errors carry the query's parameters, i.e. users' data: log only what locates the fault.
    request.log.error(
      { error: { name: error.name, code: code ?? error.code, stack: error.stack?.split('\n').slice(1).join('\n') }, route: request.routeOptions.url },
      'request failed',
    );
    return reply.status(500).send({ message: 'Something went wrong on the server. Please try again.' });
  });
});

/** SQLSTATE query_canceled: statement_timeout (or an operator) cancelled the statement. */
const QUERY_CANCELED = '57014';

/** SQLSTATEs of a transaction given up for another's sake: serialization_failure, deadlock_detected, lock_not_available. */
const CONFLICTS = new Set(['40001', '40P01', '55P03']);

export const CONFLICT_MESSAGE = 'Another change was being saved at the same moment. Please try again.';

export const TOO_LONG_MESSAGE = 'The server took too long to answer. Please try again in a moment.';

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not answering. Please try again in a moment.';

/** SQLSTATEs of a server going away or not yet taking connections: admin, crash and startup shutdowns. */
const SERVER_GOING_AWAY = new Set(['57P01', '57P02', '57P03']);
/** A socket's errors when the database's end is gone. */
const CONNECTION_LOST = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);
/** What node-postgres says when a connection ends under a query or while it opens. */
const CONNECTION_ENDED = /^Connection terminated|connection error|Connection ended/i;

/**
 * Whether an error says the database is not there (stopped, restarting, out of reach) rather than
 * that the request or the code went wrong: a connection exception (SQLSTATE class 08), a server
 * shutting down, a refused or cut socket, or a connection ended under a query.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (code.startsWith('08') || SERVER_GOING_AWAY.has(code) || CONNECTION_LOST.has(code))) return true;
    if (typeof message === 'string' && CONNECTION_ENDED.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The SQLSTATE of a database error, whether it arrives bare or wrapped by the ORM. */
export function databaseErrorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Request errors raised by the router itself (bad percent-encoding, over-long parameters). */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = typeof error.statusCode === 'number' && error.statusCode < 500 ? error.statusCode : 400;
  const message = error.code === 'FST_ERR_BAD_URL' ? 'The address is not valid' : status === 414 ? 'The address is too long' : 'The request is not valid';
  reply.status(status).send({ message });
}

const NUL = '\u0000';

function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes(NUL);
  if (depth > 20 || value === null || typeof value !== 'object') return false;
  return Object.values(value).some((item) => containsNul(item, depth + 1));
}

/**
 * PostgreSQL cannot store the NUL character in text, so no request that carries one gets past
 * here, whatever route it is for.
 */
export const nulGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request, reply) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      return reply.status(400).send({ message: 'Text may not contain the NUL character' });
    }
  });
});

function clientMessage(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Send the request body as application/json';
    default:
      return status === 429 ? 'Too many requests. Please wait a moment and try again.' : error.message;
  }
}
