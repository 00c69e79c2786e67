import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import {
  RosterFileErrorSchema,
  RosterImportQuerySchema,
  RosterImportResultSchema,
  RosterPreviewSchema,
  ROSTER_UPLOAD_MAX_BYTES,
} from '../../../shared/schemas/roster';
import type { Db } from '../../db/client';
import { requireAdmin } from '../../plugins/auth';
import { RosterFileError, rosterProblemsSummary } from './roster-file';
import { importRosterAs, previewRoster, rosterFileErrors } from './service';

const refusals = { 401: ErrorSchema, 403: ErrorSchema };
const TOO_LARGE_MESSAGE = `The roster file is larger than ${ROSTER_UPLOAD_MAX_BYTES / (1024 * 1024)} MB: split it into several files and import them one after another`;
const FILE_BODY = z.string().describe('The roster as CSV: a header pin,name,class (optionally email), then one line per student');

export const rosterImportRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  // The uploads: CSV as text, up to 10 MB, in a scope of their own so that the rest of the API
  // keeps its small body limit and its JSON-only bodies.
  await app.register(async (scope) => {
    const uploads = scope.withTypeProvider<ZodTypeProvider>();
    const asText = (_request: unknown, body: string, done: (err: Error | null, body?: string) => void) => done(null, body);
    uploads.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string', bodyLimit: ROSTER_UPLOAD_MAX_BYTES }, asText);
    uploads.setErrorHandler((error: FastifyError, _request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send({ message: TOO_LARGE_MESSAGE });
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        return reply.status(415).send({ message: 'Send the roster file as text/csv' });
      }
      if (error instanceof RosterFileError) {
        return reply.status(400).send({ message: `Nothing was imported: ${rosterProblemsSummary(error.problems.length)}`, errors: rosterFileErrors(error) });
      }
      throw error; // the API's own error handler
    });

    uploads.post(
      '/api/admin/roster/preview',
      {
        onRequest: requireAdmin,
        bodyLimit: ROSTER_UPLOAD_MAX_BYTES,
        schema: {
          tags: ['admin'],
          operationId: 'previewRoster',
          summary: 'What importing a roster CSV would do, and its problems by line; changes nothing (admins)',
          description:
            'Lists (the first 1000 of each, with the whole count) the students added, updated (a new name), moved ' +
            '(a new class: fromClass -> className) and not in the file, and counts the unchanged. Lines are counted ' +
            'as the CLI counts them, the header being line 1; an unknown class is an error on its line.',
          consumes: ['text/csv', 'text/plain'],
          body: FILE_BODY,
          response: { 200: RosterPreviewSchema, 400: ErrorSchema, 413: ErrorSchema, 415: ErrorSchema, ...refusals },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store');
        return previewRoster(db, request.body);
      },
    );

    uploads.post(
      '/api/admin/roster/import',
      {
        onRequest: requireAdmin,
        bodyLimit: ROSTER_UPLOAD_MAX_BYTES,
        schema: {
          tags: ['admin'],
          operationId: 'importRoster',
          summary: 'Imports a roster CSV in one transaction, or nothing when it has problems (admins)',
          description:
            'With ?withdraw=true the students the file leaves out are withdrawn: off their class register and the ' +
            "reports' student lists, no longer on the roster for a new profile or account, their marks, record, " +
            'profile and account kept. A withdrawn student in a later file is back. One roster.import entry ' +
            'in the audit trail holds the counts.',
          consumes: ['text/csv', 'text/plain'],
          querystring: RosterImportQuerySchema,
          body: FILE_BODY,
          response: {
            200: RosterImportResultSchema,
            400: RosterFileErrorSchema.or(ErrorSchema),
            413: ErrorSchema,
            415: ErrorSchema,
            ...refusals,
          },
        },
      },
      async (request) => importRosterAs(db, request.user!, request.body, { withdraw: request.query.withdraw }),
    );
  });
};
