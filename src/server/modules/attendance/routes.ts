import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AttendanceHistorySchema,
  AttendanceRegisterSchema,
  ClassListSchema,
  DayPeriodsSchema,
  PortalTodaySchema,
  PreviousRegisterSchema,
  RegisterParamsSchema,
  RegisterQuerySchema,
  SaveAttendanceRequestSchema,
} from '../../../shared/schemas/attendance';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { Database } from '../../db/client';
import { requireFaculty } from '../../plugins/auth';
import type { ReportCache } from '../../plugins/report-cache';
import { getHistory, getPreviousRegister, getRegister, listClassSummaries, listDayPeriods, portalToday, saveRegister } from './service';

const refused = { 401: ErrorSchema, 403: ErrorSchema };

export const attendanceRoutes: FastifyPluginAsyncZod<{ database: Database; cache: ReportCache; timeZone: string }> = async (
  app,
  { database, cache, timeZone },
) => {
  const { db } = database;
  // The class cards change only with a write: answered from memory, or as 304 (`cache`).

  app.get(
    '/api/classes',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['classes'],
        operationId: 'listClasses',
        summary: 'The active (not archived) classes in order, with their roster sizes and whether today\'s register is taken',
        response: { 200: ClassListSchema, ...refused },
      },
    },
    async (request, reply) => cache.answer(request, reply, async () => ({ body: await listClassSummaries(db, timeZone) })),
  );

  app.get(
    '/api/attendance/today',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['attendance'],
        operationId: 'getPortalToday',
        summary: 'Today\'s date in the portal\'s time zone: the latest date a register can be taken for',
        response: { 200: PortalTodaySchema, ...refused },
      },
    },
    async () => portalToday(timeZone),
  );

  app.get(
    '/api/attendance/:class/:date',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['attendance'],
        operationId: 'getRegister',
        summary: 'The register of one class on one date and period; before it is taken, the roster with everyone absent',
        description: '?period=N (1 to 12) is a lecture of the timetable; without it, period 0, the whole-day register.',
        params: RegisterParamsSchema,
        querystring: RegisterQuerySchema,
        response: { 200: AttendanceRegisterSchema, 400: ErrorSchema, 404: ErrorSchema, ...refused },
      },
    },
    async (request) => getRegister(db, request.params.class, request.params.date, request.query.period),
  );

  app.get(
    '/api/attendance/:class/:date/previous',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['attendance'],
        operationId: 'getPreviousRegister',
        summary: 'The marks of the register of this class taken last before this date and period, or null',
        description: 'A new register can start as a copy of it (Copy last register). ?period=N as for the register itself.',
        params: RegisterParamsSchema,
        querystring: RegisterQuerySchema,
        response: { 200: PreviousRegisterSchema, 400: ErrorSchema, 404: ErrorSchema, ...refused },
      },
    },
    async (request) => getPreviousRegister(db, request.params.class, request.params.date, request.query.period),
  );

  app.get(
    '/api/attendance/:class/:date/periods',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['attendance'],
        operationId: 'listDayPeriods',
        summary: "The periods of one class on one date: the timetable's for that weekday and every register taken that day",
        params: RegisterParamsSchema,
        response: { 200: DayPeriodsSchema, 400: ErrorSchema, 404: ErrorSchema, ...refused },
      },
    },
    async (request) => listDayPeriods(db, request.params.class, request.params.date),
  );

  app.put(
    '/api/attendance/:class/:date',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['attendance'],
        operationId: 'saveRegister',
        summary: 'Create or replace the register of one class on one date and period',
        description:
          'Every roster student missing from records is recorded absent. Each changed mark is added to the history. ' +
          'Statuses are present, absent, late and excused ({ pin, present } still means present or absent). ' +
          '?period=N (1 to 12) takes a lecture, for the subject the timetable gives it or the body\'s subject; without it, ' +
          'period 0, the whole-day register. A date has either a whole-day register or lectures: mixing them is 409 ' +
          'Choose a period. An archived class takes no new registers (409); its past ones can still be read.',
        params: RegisterParamsSchema,
        querystring: RegisterQuerySchema,
        body: SaveAttendanceRequestSchema,
        response: { 200: AttendanceRegisterSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, ...refused },
      },
    },
    async (request) =>
      saveRegister(database, {
        className: request.params.class,
        date: request.params.date,
        period: request.query.period,
        user: request.user!,
        body: request.body,
        timeZone,
        onNotifyError: (err) => request.log.warn({ err }, 'attendance notification failed'),
      }),
  );

  app.get(
    '/api/attendance/:class/:date/history',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['attendance'],
        operationId: 'getRegisterHistory',
        summary: 'Every change to the register of one class on one date and period, newest first',
        params: RegisterParamsSchema,
        querystring: RegisterQuerySchema,
        response: { 200: AttendanceHistorySchema, 400: ErrorSchema, 404: ErrorSchema, ...refused },
      },
    },
    async (request) => getHistory(db, request.params.class, request.params.date, request.query.period),
  );
};
