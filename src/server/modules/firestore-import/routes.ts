import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import {
  FIRESTORE_UPLOAD_MAX_BYTES,
  FirestoreImportQuerySchema,
  FirestoreImportResultSchema,
} from '../../../shared/schemas/firestore-import';
import type { Database } from '../../db/client';
import { requireAdmin } from '../../plugins/auth';
import { importFirestoreAs } from './service';

const TOO_LARGE_MESSAGE = `The export is larger than ${FIRESTORE_UPLOAD_MAX_BYTES / (1024 * 1024)} MB: import it with npm run portal -- import firestore FILE on the server`;

export const firestoreImportRoutes: FastifyPluginAsyncZod<{ database: Database; timeZone: string }> = async (app, { database, timeZone }) => {
  // The export as text, in a scope of its own: JSON here is read by the import, not by the API's parser.
  await app.register(async (scope) => {
    const uploads = scope.withTypeProvider<ZodTypeProvider>();
    uploads.removeContentTypeParser('application/json');
    uploads.addContentTypeParser(
      ['application/json', 'application/x-ndjson', 'text/plain'],
      { parseAs: 'string', bodyLimit: FIRESTORE_UPLOAD_MAX_BYTES },
      (_request: unknown, body: string, done: (err: Error | null, body?: string) => void) => done(null, body),
    );
    uploads.setErrorHandler((error: FastifyError, _request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send({ message: TOO_LARGE_MESSAGE });
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        return reply.status(415).send({ message: 'Send the export as application/json or application/x-ndjson' });
      }
      throw error; // the API's own error handler
    });

    uploads.post(
      '/api/admin/import/firestore',
      {
        onRequest: requireAdmin,
        bodyLimit: FIRESTORE_UPLOAD_MAX_BYTES,
        // A large export takes longer than a request may usually wait.
        config: { untimed: true },
        schema: {
          tags: ['admin'],
          operationId: 'importFirestore',
          summary: "Checks, or with ?apply=true imports, an export of the Firebase app's collections (admins)",
          description:
            'Reads {"__collections__": ...}, {"<collection>": {"<id>": ...}} or NDJSON {"path", "data"} lines; any other ' +
            'file is refused with 400 naming them. Attendance documents become whole-day registers (one per class and ' +
            'date, documents merged), registrations profiles (approved when the PIN is on the roster), cards are counted. ' +
            'Without apply nothing changes. With it, all in one transaction audited as import.firestore; 400 while a ' +
            'document names a class the portal lacks (unless createClasses=true). Registers already taken for a class ' +
            'and date are left and reported; documents imported before are skipped.',
          consumes: ['application/json', 'application/x-ndjson'],
          querystring: FirestoreImportQuerySchema,
          body: z.string().describe('The export file'),
          response: { 200: FirestoreImportResultSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 413: ErrorSchema, 415: ErrorSchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store');
        return importFirestoreAs(database, request.user!, request.body, { ...request.query, timeZone });
      },
    );
  });
};
