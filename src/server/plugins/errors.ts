import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../http-error';

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
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Something went wrong on the server. Please try again.' });
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
