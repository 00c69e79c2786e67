import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AttendanceHistorySchema,
  AttendanceRegisterSchema,
  ClassListSchema,
  DayPeriodsSchema,
  PortalTodaySchema,
  PreviousRegisterSchema,
  RegisterConflictSchema,
  RegisterParamsSchema,
  RegisterQuerySchema,
  SaveAttendanceRequestSchema,
  SaveRegisterHeadersSchema,
  type SaveAttendanceRequest,
} from '../../../shared/schemas/attendance';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { Database } from '../../db/client';
import { requireFaculty } from '../../plugins/auth';
import type { ReportCache } from '../../plugins/report-cache';
import { getHistory, getPreviousRegister, getTaggedRegister, listClassSummaries, listDayPeriods, portalToday, syncRegister, type DataVersions } from './service';

const refused = { 401: ErrorSchema, 403: ErrorSchema };

/** JSON with its object keys sorted: the same value always gives the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The SHA-256 of a register save as the server reads it (decision 46): method, the register's
 * address (class, date and period, `?period=0` and none being one address) and the body as
 * parsed (PINs in their normal form, `present` as its status), keys sorted. What an
 * Idempotency-Key is compared by.
 */
function saveRequestHash(className: string, date: string, period: number, body: SaveAttendanceRequest): string {
  const path = `/api/attendance/${encodeURIComponent(className)}/${date}?period=${period}`;
  return createHash('sha256').update(`PUT\n${path}\n${canonicalJson(body)}`).digest('hex');
}

export const attendanceRoutes: FastifyPluginAsyncZod<{ database: Database; versions?: DataVersions; cache: ReportCache; timeZone: string }> = async (
  app,
  { database, versions, cache, timeZone },
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
    async (request, reply) => cache.answer(request, reply, async () => ({ body: await listClassSummaries(db, timeZone, undefined, versions) })),
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
        description:
          '?period=N (1 to 12) is a lecture of the timetable; without it, period 0, the whole-day register. ' +
          'The ETag is the register\'s revision ("none" before it is taken): a save may send it back as If-Match.',
        params: RegisterParamsSchema,
        querystring: RegisterQuerySchema,
        response: { 200: AttendanceRegisterSchema, 400: ErrorSchema, 404: ErrorSchema, ...refused },
      },
    },
    async (request, reply) => {
      const { register, etag } = await getTaggedRegister(db, request.params.class, request.params.date, request.query.period);
      return reply.header('etag', etag).send(register);
    },
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
          'Choose a period. An archived class takes no new registers (409); its past ones can still be read. ' +
          'The answer\'s ETag is the register\'s new revision. With If-Match (a revision, "none" or *), the save is made only ' +
          'if the register is still at that revision; else 412 with every student whose mark changed since, and nothing is ' +
          'saved. With an Idempotency-Key (a UUID), a successful save\'s answer is kept 72 hours: the same key and request ' +
          'again get it back (Idempotent-Replayed: true) without a second save; the key with another request is 422. ' +
          'markedAt, the time the marks were taken on the device, goes into the history.',
        params: RegisterParamsSchema,
        querystring: RegisterQuerySchema,
        headers: SaveRegisterHeadersSchema,
        body: SaveAttendanceRequestSchema,
        response: {
          200: AttendanceRegisterSchema,
          400: ErrorSchema,
          404: ErrorSchema,
          409: ErrorSchema,
          412: RegisterConflictSchema,
          422: ErrorSchema,
          ...refused,
        },
      },
    },
    async (request, reply) => {
      const key = request.headers['idempotency-key'];
      const { class: className, date } = request.params;
      const outcome = await syncRegister(
        database,
        {
          className,
          date,
          period: request.query.period,
          user: request.user!,
          body: request.body,
          timeZone,
          onNotifyError: (err) => request.log.warn({ err }, 'attendance notification failed'),
        },
        {
          idempotencyKey: key,
          requestHash: key === undefined ? undefined : saveRequestHash(className, date, request.query.period, request.body),
          ifMatch: request.headers['if-match'],
        },
      );
      if (outcome.etag !== null) reply.header('etag', outcome.etag);
      if (outcome.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(outcome.status).send(outcome.body);
    },
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
