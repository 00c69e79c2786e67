import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import {
  CreateTermSchema,
  TermListItemSchema,
  TermListSchema,
  TermParamsSchema,
  UpdateTermSchema,
} from '../../../shared/schemas/terms';
import type { Db } from '../../db/client';
import { requireAdmin, requireSignedIn } from '../../plugins/auth';
import * as service from './service';

const refusals = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

export const termRoutes: FastifyPluginAsyncZod<{ db: Db; timeZone: string }> = async (app, { db, timeZone }) => {
  // Guards run on onRequest so that a signed-out caller gets 401 before any validation.
  app.get(
    '/api/terms',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['reports'],
        operationId: 'listTerms',
        summary: 'Every term, newest first, with the one that holds today marked current (anyone signed in)',
        description: 'Faculty and students pick a term for reports and records from this list.',
        response: { 200: TermListSchema, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return service.listTerms(db, timeZone);
    },
  );

  app.post(
    '/api/admin/terms',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'createTerm',
        summary: 'Add a term (admins); terms never overlap',
        description: '409 when the name is taken or the dates share a day with another term (named in the message).',
        body: CreateTermSchema,
        response: { 201: TermListItemSchema, ...refusals, 409: ErrorSchema },
      },
    },
    async (request, reply) => {
      const term = await service.createTerm(db, request.user!, request.body, timeZone);
      return reply.status(201).send(term);
    },
  );

  app.patch(
    '/api/admin/terms/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'updateTerm',
        summary: "Rename a term or change its dates (admins); terms never overlap",
        description: '409 when the name is taken or the new dates share a day with another term (named in the message).',
        params: TermParamsSchema,
        body: UpdateTermSchema,
        response: { 200: TermListItemSchema, ...refusals, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => service.updateTerm(db, request.user!, request.params.id, request.body, timeZone),
  );
};
