import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PeriodTimeSchema, PeriodTimesSchema } from '../../../shared/schemas/alerts';
import { ClassParamsSchema } from '../../../shared/schemas/attendance';
import { ErrorSchema } from '../../../shared/schemas/common';
import { z } from '../../../shared/schemas/zod';
import { PutTimetableSchema, TimetableSchema } from '../../../shared/schemas/timetable';
import type { Db } from '../../db/client';
import { requireAdmin, requireFaculty, requireSignedIn } from '../../plugins/auth';
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
        summary: "A class's weekly timetable: the subject and teacher of each (weekday, period); weekday 1 = Monday",
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
          'weekday 1 (Monday) to 7, period 1 to 12, subject a code that exists (400 otherwise), teacherId optional: the id of ' +
          'an enabled faculty or admin account (400 otherwise). The body is the whole week: a slot sent without teacherId ' +
          'has no teacher afterwards, whatever it had. Registers already taken keep the subject they were taken for. ' +
          '404 for an unknown class, 409 for an archived one.',
        params: ClassParamsSchema,
        body: PutTimetableSchema,
        response: { 200: TimetableSchema, ...refusals, 409: ErrorSchema },
      },
    },
    async (request) => service.putTimetable(db, request.user!, request.params.class, request.body.slots),
  );

  app.get(
    '/api/periods',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['classes'],
        operationId: 'listPeriodTimes',
        summary: "The day's period times (HH:MM, the portal's time zone, the same every weekday), by period; periods without times are left out",
        response: { 200: z.array(PeriodTimeSchema), 401: ErrorSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'private, no-cache');
      return service.periodTimes(db);
    },
  );

  app.put(
    '/api/admin/periods',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'putPeriodTimes',
        summary: "Replace the day's period times (admins)",
        description:
          'The body is every period that has times: a period left out has none afterwards. Each period 1 to 12 at most once, ' +
          'HH:MM 24-hour, ending after it starts and not before the previous period ends (400 otherwise). Answers the saved times.',
        body: PeriodTimesSchema,
        response: { 200: z.array(PeriodTimeSchema), 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request) => service.putPeriodTimes(db, request.user!, request.body),
  );
};
