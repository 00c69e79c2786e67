import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ClassParamsSchema } from '../../../shared/schemas/attendance';
import { ErrorSchema } from '../../../shared/schemas/common';
import { PutTimetableSchema, TimetableSchema } from '../../../shared/schemas/timetable';
import type { Db } from '../../db/client';
import { requireAdmin, requireFaculty } from '../../plugins/auth';
import * as service from './service';

const refusals = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema };

export const timetableRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  // Guards run on onRequest so that a signed-out caller gets 401 before any validation.
  app.get(
    '/api/classes/:class/timetable',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['classes'],
        operationId: 'getTimetable',
        summary: "A class's weekly timetable: the subject of each (weekday, period); weekday 1 = Monday",
        params: ClassParamsSchema,
        response: { 200: TimetableSchema, ...refusals },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-cache');
      return service.getTimetable(db, request.params.class);
    },
  );

  app.put(
    '/api/admin/classes/:class/timetable',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'putTimetable',
        summary: "Replace a class's whole weekly timetable (admins)",
        description:
          'weekday 1 (Monday) to 7, period 1 to 12, subject a code that exists (400 otherwise). Registers already taken ' +
          'keep the subject they were taken for. 404 for an unknown class, 409 for an archived one.',
        params: ClassParamsSchema,
        body: PutTimetableSchema,
        response: { 200: TimetableSchema, ...refusals, 409: ErrorSchema },
      },
    },
    async (request) => service.putTimetable(db, request.user!, request.params.class, request.body.slots),
  );
};
