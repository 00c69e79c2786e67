import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ClassListSchema, ClassParamsSchema, RosterSchema } from '../../../shared/schemas/attendance';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { Db } from '../../db/client';
import { requireFaculty } from '../../plugins/auth';
import { getRoster, listClasses } from './service';

export const classRoutes: FastifyPluginAsyncZod<{ db: Db; timeZone: string }> = async (app, { db, timeZone }) => {
  app.get(
    '/api/classes',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['classes'],
        summary: 'The classes with their roster sizes and whether today\'s register is taken',
        response: { 200: ClassListSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async () => listClasses(db, timeZone),
  );

  app.get(
    '/api/classes/:class/students',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['classes'],
        summary: 'The roster of one class, ordered by PIN',
        params: ClassParamsSchema,
        response: { 200: RosterSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => getRoster(db, request.params.class),
  );
};
