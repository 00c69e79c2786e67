import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CSV_BOM } from '../../../shared/csv';
import { AuditPageSchema, AuditQuerySchema } from '../../../shared/schemas/audit';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { Db } from '../../db/client';
import { requireAdmin } from '../../plugins/auth';
import * as service from './service';

const refusals = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

export const auditRoutes: FastifyPluginAsyncZod<{ db: Db; timeZone: string }> = async (app, { db, timeZone }) => {
  app.get(
    '/api/admin/audit',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'listAudit',
        summary: 'The audit trail, newest first, filtered by action and date; ?format=csv for a download (admins)',
        description:
          'Each entry is one action: accounts created, changed, disabled or reset; registers saved or replaced; ' +
          'profiles approved, edited or deleted; rosters imported; classes and terms changed. ' +
          'Page with ?limit= and ?before= (the previous page\'s nextBefore). ?format=csv lists every matching entry.',
        querystring: AuditQuerySchema,
        response: {
          200: {
            description: 'A page of the trail, or with ?format=csv every matching entry as CSV',
            content: {
              'application/json': { schema: AuditPageSchema },
              'text/csv': { schema: z.string() },
            },
          },
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      const { format, ...query } = request.query;
      if (format === 'csv') {
        const csv = await service.auditCsv(db, query, timeZone);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="audit.csv"')
          .send(`${CSV_BOM}${csv}`);
      }
      return service.listAudit(db, query, timeZone);
    },
  );
};
