import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import {
  StudentDaysSchema,
  StudentPinParamsSchema,
  StudentRecordQuerySchema,
  StudentRecordSchema,
  StudentReportQuerySchema,
} from '../../../shared/schemas/students';
import type { Db } from '../../db/client';
import { requireSignedIn } from '../../plugins/auth';
import type { ReportCache } from '../../plugins/report-cache';
import * as service from './service';

export const studentRoutes: FastifyPluginAsyncZod<{
  db: Db;
  versions: service.DataVersions;
  cache: ReportCache;
  timeZone: string;
  university?: string | undefined;
}> = async (app, { db, versions, cache, timeZone, university }) => {
  // Records that nothing has changed come from memory, or as 304 (`cache`), under the versions of
  // the student's own class's marks (decision 52).
  // Faculty may see any PIN and a student only their own: the service checks, as it knows the PIN.
  // Guards run on onRequest so that a signed-out caller gets 401 before any validation.
  app.get(
    '/api/students/:pin',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['students'],
        operationId: 'getStudentRecord',
        summary: "A student's profile, attendance summary and history (newest first)",
        description:
          "?term= (a term's id, or all) keeps the marks of the term's dates in the summary, subjects and history; without it, the term " +
          "that holds today, else the latest that has ended, else all time. The answer's term says which (null: all time). " +
          'The history is paged newest first: ?limit= rows (50, at most 500), ?before= the nextBefore of the previous page ' +
          '(null on the last one). Present and late marks attend, excused ones count in neither held nor attended.',
        params: StudentPinParamsSchema,
        querystring: StudentRecordQuerySchema,
        response: { 200: StudentRecordSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      // Who may see the PIN first: an answer from memory is as guarded as a computed one.
      service.assertCanSeeStudent(request.user!, request.params.pin);
      const { term, limit, before } = request.query;
      return cache.answer(
        request,
        reply,
        async () => ({
          body: await service.getStudentRecord(db, request.user!, request.params.pin, { term, timeZone, versions }, { limit, before }),
        }),
        () => service.recordVersion(db, versions, request.params.pin),
      );
    },
  );

  app.get(
    '/api/students/:pin/days',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['students'],
        operationId: 'getStudentDays',
        summary: "A student's marks per day and per month over a term: the calendar and the monthly trend",
        description:
          "?term= as for the record (without a term in force: the last twelve months). Each day counts the marks of each status; " +
          'each month the marks that attend (present and late) of those held (excused left out).',
        params: StudentPinParamsSchema,
        querystring: StudentReportQuerySchema,
        response: { 200: StudentDaysSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      service.assertCanSeeStudent(request.user!, request.params.pin);
      return cache.answer(
        request,
        reply,
        async () => ({
          body: await service.getStudentDays(db, request.user!, request.params.pin, { term: request.query.term, timeZone, versions }),
        }),
        () => service.recordVersion(db, versions, request.params.pin),
      );
    },
  );

  app.get(
    '/api/students/:pin/report.pdf',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['students'],
        operationId: 'getStudentReportPdf',
        summary: "A student's attendance report as a PDF download",
        description: "?term= as for the record: the report covers the term's dates and names the term.",
        params: StudentPinParamsSchema,
        querystring: StudentReportQuerySchema,
        response: {
          // A Buffer is sent as it is; the schema only documents it. Errors stay JSON.
          200: {
            description: 'The report as a PDF file',
            content: { 'application/pdf': { schema: z.instanceof(Buffer).meta({ type: 'string', format: 'binary' }) } },
          },
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const report = await service.getStudentReport(db, request.user!, request.params.pin, { term: request.query.term, timeZone, university, versions });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${report.filename}"`)
        .header('cache-control', 'private, no-store')
        .send(report.pdf);
    },
  );
};
