import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import {
  DashboardSchema,
  ReportClassQuerySchema,
  StudentSummariesQuerySchema,
  StudentSummaryListSchema,
  SubjectReportSchema,
} from '../../../shared/schemas/reports';
import { ALL_TERMS, TERM_HEADER } from '../../../shared/schemas/terms';
import type { Db } from '../../db/client';
import { requireFaculty } from '../../plugins/auth';
import { type ReportCache, serialized } from '../../plugins/report-cache';
import { dashboardJson } from './dashboard-json';
import * as service from './service';

const refusals = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema };

export const reportRoutes: FastifyPluginAsyncZod<{ db: Db; versions: service.DataVersions; cache: ReportCache; timeZone: string }> = async (
  app,
  { db, versions, cache, timeZone },
) => {
  // Answers that nothing has changed come from memory, or as 304 (`cache`).
  // Guards run on onRequest so that a signed-out caller gets 401 before any validation.
  app.get(
    '/api/reports/dashboard',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['reports'],
        operationId: 'getDashboard',
        summary: 'Attendance totals: overall, per class, and per date over the last 7 and 30 days',
        description:
          'Read from the register counters. Percentages are present / (present + absent), 0 when there are no marks. ' +
          'The weekly report holds today-6 to today, the monthly one today-29 to today (portal time zone), oldest first. ' +
          'With ?class= every figure is that class\'s. ?term= (a term\'s id, or all) scopes the overall and class-wise ' +
          'totals to the term\'s dates; without it, the term that holds today, else the latest that has ended, else all time. ' +
          'The answer\'s term says which (null: all time); the weekly and monthly windows keep their 7 and 30 days.',
        querystring: ReportClassQuerySchema,
        response: { 200: DashboardSchema, ...refusals },
      },
    },
    async (request, reply) =>
      cache.answer(request, reply, async () => {
        const dashboard = await service.getDashboard(db, { className: request.query.class, term: request.query.term, timeZone, versions });
        return { json: dashboardJson(dashboard, (body) => serialized(reply.serialize(body))) };
      }),
  );

  app.get(
    '/api/reports/students',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['reports'],
        operationId: 'listStudentSummaries',
        summary: 'Each student\'s present and absent days and percentage, lowest percentage first',
        description:
          '?class= keeps one class\'s students; ?below=75 keeps those under 75%; ?subject=CODE counts that subject\'s ' +
          'lectures only and leaves out students who had none. Present and late marks attend, excused ones count in neither. ?term= (a term\'s id, or all) counts ' +
          'the marks of the term\'s dates only; without it, the term that holds today, else the latest that has ended, ' +
          `else all time. The ${TERM_HEADER} header says which: the term's id, or ${ALL_TERMS}.`,
        querystring: StudentSummariesQuerySchema,
        response: { 200: StudentSummaryListSchema, ...refusals },
      },
    },
    async (request, reply) =>
      cache.answer(request, reply, async () => {
        const { term, summaries } = await service.studentSummariesOfTerm(db, {
          className: request.query.class,
          below: request.query.below,
          subject: request.query.subject,
          term: request.query.term,
          timeZone,
          versions,
        });
        return { body: summaries, headers: { [TERM_HEADER]: term?.id ?? ALL_TERMS } };
      }),
  );

  app.get(
    '/api/reports/subjects',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['reports'],
        operationId: 'getSubjectReport',
        summary: 'Per subject: lectures taken, held and attended marks, and the percentage',
        description:
          'From the register counters of the subject\'s registers: held counts present, late and absent ' +
          'marks, attended present and late; excused marks are left out. ?class= keeps one class; ?term= as on the other reports.',
        querystring: ReportClassQuerySchema,
        response: { 200: SubjectReportSchema, ...refusals },
      },
    },
    async (request, reply) =>
      cache.answer(request, reply, async () => {
        const { term, rows } = await service.getSubjectReport(db, { className: request.query.class, term: request.query.term, timeZone, versions });
        return { body: rows, headers: { [TERM_HEADER]: term?.id ?? ALL_TERMS } };
      }),
  );
};
