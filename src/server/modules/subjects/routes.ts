import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import {
  CreateSubjectSchema,
  SubjectListSchema,
  SubjectParamsSchema,
  SubjectSchema,
  UpdateSubjectSchema,
} from '../../../shared/schemas/subjects';
import type { Db } from '../../db/client';
import { requireAdmin, requireSignedIn } from '../../plugins/auth';
import * as service from './service';

const refusals = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

export const subjectRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  // Guards run on onRequest so that a signed-out caller gets 401 before any validation.
  app.get(
    '/api/subjects',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['subjects'],
        operationId: 'listSubjects',
        summary: 'Every subject, by code',
        response: { 200: SubjectListSchema, 401: ErrorSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'private, no-cache');
      return service.listSubjects(db);
    },
  );

  app.post(
    '/api/admin/subjects',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'createSubject',
        summary: 'Add a subject (admins)',
        description: 'The code is stored upper case and never changes; 409 when another subject has it.',
        body: CreateSubjectSchema,
        response: { 201: SubjectSchema, ...refusals, 409: ErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createSubject(db, request.user!, request.body)),
  );

  app.patch(
    '/api/admin/subjects/:code',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'renameSubject',
        summary: "Change a subject's name (admins)",
        params: SubjectParamsSchema,
        body: UpdateSubjectSchema,
        response: { 200: SubjectSchema, ...refusals, 404: ErrorSchema },
      },
    },
    async (request) => service.renameSubject(db, request.user!, request.params.code, request.body.name),
  );
};
