import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ClassParamsSchema, RosterSchema } from '../../../shared/schemas/attendance';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { Db } from '../../db/client';
import { requireFaculty } from '../../plugins/auth';
import { getClassRoster } from './service';

export const rosterRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/classes/:class/students',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['classes'],
        operationId: 'getClassRoster',
        summary: 'The roster of one class, ordered by PIN',
        params: ClassParamsSchema,
        response: { 200: RosterSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => getClassRoster(db, request.params.class),
  );
};
