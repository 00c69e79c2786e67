import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { Database } from '../../db/client';
import { requireAdmin } from '../../plugins/auth';
import * as service from './service';

export const backupRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    '/api/admin/backup',
    {
      onRequest: requireAdmin,
      // Written whole before it is sent: on a large database that takes longer than a request may wait.
      config: { untimed: true },
      schema: {
        tags: ['admin'],
        operationId: 'downloadBackup',
        summary: 'A backup of the whole database, as portal backup writes it (admins)',
        description:
          'One gzip-compressed file: a header (format version, last migration, time, each table\'s row count, ' +
          'the SHA-256 of the content), then every table\'s rows from one snapshot. Load it with portal restore, ' +
          'into either engine. Each download is recorded in the audit trail.',
        response: {
          200: {
            description: 'The backup file, as a download',
            content: { 'application/gzip': { schema: z.instanceof(Readable).meta({ type: 'string', format: 'binary' }) } },
          },
          401: ErrorSchema,
          403: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const download = await service.backupForDownload(database, request.user!);
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${download.fileName}"`)
        .header('content-length', download.bytes)
        .type('application/gzip')
        .send(download.stream);
    },
  );
};
