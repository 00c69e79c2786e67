import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import {
  AcceptCorrectionSchema,
  CorrectionListSchema,
  CorrectionParamsSchema,
  CorrectionQuerySchema,
  CorrectionSchema,
  CreateCorrectionSchema,
  DeclineCorrectionSchema,
} from '../../../shared/schemas/corrections';
import type { Database } from '../../db/client';
import { requireFaculty, requireSignedIn } from '../../plugins/auth';
import * as service from './service';

const refusals = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

/** Correction requests (decision 16). */
export const correctionRoutes: FastifyPluginAsyncZod<{ database: Database; timeZone: string }> = async (app, { database, timeZone }) => {
  const { db } = database;

  app.post(
    '/api/corrections',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['corrections'],
        operationId: 'requestCorrection',
        summary: 'A student asks to correct one of their own marks',
        description: 'The mark is the student\'s on `date` and `period` (0, the default, for a whole-day register). One open request per mark (409).',
        body: CreateCorrectionSchema,
        response: { 201: CorrectionSchema, ...refusals, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await service.requestCorrection(db, request.user!, request.body)),
  );

  app.get(
    '/api/corrections',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['corrections'],
        operationId: 'listCorrections',
        summary: 'Correction requests: faculty see all, a student their own',
        description: '?status=open (the default) waits for faculty; ?status=closed has been accepted or declined.',
        querystring: CorrectionQuerySchema,
        response: { 200: CorrectionListSchema, ...refusals },
      },
    },
    async (request) => service.listCorrections(db, request.user!, request.query.status),
  );

  app.get(
    '/api/corrections/open-count',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['corrections'],
        operationId: 'countOpenCorrections',
        summary: 'How many correction requests wait for faculty',
        response: { 200: z.object({ open: z.number().int() }), ...refusals },
      },
    },
    async () => ({ open: await service.countOpenCorrections(db) }),
  );

  app.post(
    '/api/corrections/:id/accept',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['corrections'],
        operationId: 'acceptCorrection',
        summary: 'Accept a request: the mark becomes `status` (present unless said), with the request\'s reason in the history',
        params: CorrectionParamsSchema,
        body: AcceptCorrectionSchema,
        response: { 200: CorrectionSchema, ...refusals, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => service.acceptCorrection(database, request.user!, request.params.id, request.body.status, timeZone),
  );

  app.post(
    '/api/corrections/:id/decline',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['corrections'],
        operationId: 'declineCorrection',
        summary: 'Decline a request with a reply the student sees; the mark stays',
        params: CorrectionParamsSchema,
        body: DeclineCorrectionSchema,
        response: { 200: CorrectionSchema, ...refusals, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => service.declineCorrection(db, request.user!, request.params.id, request.body.reply),
  );
};
