import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClassParamsSchema, RosterSchema } from '../../../shared/schemas/attendance';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { Db } from '../../db/client';
import { requireAdmin, requireFaculty } from '../../plugins/auth';
import { exportRoster, getClassRoster } from './service';

const refusals = { 401: ErrorSchema, 403: ErrorSchema };

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

  app.get(
    '/api/admin/roster.csv',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'exportRoster',
        summary: 'The whole roster as CSV (pin,name,class), the format the import reads; withdrawn students left out (admins)',
        response: {
          200: { description: 'The roster as CSV', content: { 'text/csv': { schema: z.string() } } },
          ...refusals,
        },
      },
    },
    async (_request, reply) => {
      const { csv } = await exportRoster(db);
      return reply
        .header('cache-control', 'private, no-store')
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="roster.csv"')
        .send(csv);
    },
  );
};
