import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CHECKIN_EVENT,
  CheckinParamsSchema,
  CheckinSchema,
  OpenCheckinRequestSchema,
  OpenedCheckinSchema,
  PENDING_SCAN_MS,
  PendingScanRequestSchema,
  RemoveCheckinEntrySchema,
  ScanRequestSchema,
  ScanResultSchema,
  type ScanResult,
} from '../../../shared/schemas/checkins';
import type { User } from '../../../shared/schemas/auth';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { Database } from '../../db/client';
import { HttpError } from '../../http-error';
import { requireFaculty, requireSignedIn } from '../../plugins/auth';
import { EventStreams, eventFrame } from '../../plugins/event-stream';
import { CheckinWatch } from './live';
import {
  assertCheckinExists,
  campusMatcher,
  closeCheckin,
  completePendingScan,
  getCheckin,
  openCheckin,
  pendingScanValue,
  removeEntry,
  scan,
  STUDENTS_ONLY_MESSAGE,
  type CheckinContext,
} from './service';

/** The signed cookie that keeps a signed-out scan (its token and time) while the student signs in. */
export const SCAN_COOKIE = 'portal_scan';
/** Scans a student may send per minute, every way of scanning counted together. */
export const SCANS_PER_MINUTE = 10;
/** Where the web shows a scan's outcome. */
export const RESULT_PATH = '/checkin-result';
/** The web page that checks a signed-in student in with the device's signature: /scan#<token>, or /scan#done for the kept scan. */
export const SCAN_PATH = '/scan';
/** The address the sign-in returns to after a signed-out scan: it completes the kept scan. */
export const PENDING_PATH = '/c/done';

export interface CheckinRoutesOptions {
  database: Database;
  timeZone: string;
  /** PORTAL_CAMPUS_NETWORKS, as config.ts writes them. */
  campusNetworks: readonly string[];
  /** PORTAL_PUBLIC_URL: the QR's address is built on it; unset, on the request's own address. */
  publicUrl: string | undefined;
  /** The clock the codes are made and checked by (tests set their own). */
  clock?: () => Date;
  /** The process's event streams; made with the usual timings when not given. */
  streams?: EventStreams;
}

const refused = { 401: ErrorSchema, 403: ErrorSchema };

/** The scans' limit: per signed-in account, shared by the three ways to scan. A signed-out visit only sets the cookie. */
const scanLimit = {
  max: SCANS_PER_MINUTE,
  timeWindow: '1 minute',
  groupId: 'checkin-scan',
  keyGenerator: (request: FastifyRequest) => request.user?.id ?? request.ip,
  allowList: (request: FastifyRequest) => request.user === null,
};

function checkinContext(options: CheckinRoutesOptions): CheckinContext {
  return { timeZone: options.timeZone, onCampus: options.campusNetworks.length > 0 ? campusMatcher(options.campusNetworks) : undefined };
}

/** The value of the signed scan cookie, or undefined when it is missing or its signature is wrong. */
export function scanCookie(request: FastifyRequest): string | undefined {
  const raw = request.cookies[SCAN_COOKIE];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value !== null ? unsigned.value : undefined;
}

function clearScanCookie(reply: FastifyReply): void {
  reply.clearCookie(SCAN_COOKIE, { path: '/' });
}

/** Where a scan's outcome is shown: the mark, or the refusal's message. */
function resultAddress(outcome: ScanResult | HttpError): string {
  const query =
    outcome instanceof HttpError
      ? new URLSearchParams({ error: outcome.message })
      : new URLSearchParams({ status: outcome.status, class: outcome.class, period: String(outcome.period), ...(outcome.markKept ? { kept: 'true' } : {}) });
  return `${RESULT_PATH}?${query.toString()}`;
}

/**
 * The sign-in's own completion of a kept scan (the app hands it to the auth routes): a student who
 * scanned while signed out is checked in as they sign in, whatever page the browser goes to next.
 * The cookie stays, so that the page's call (with the device's key) answers the same result. A
 * refusal, or a failure, does not stop the sign-in.
 */
export function completeScanAtSignIn(options: CheckinRoutesOptions) {
  const context = checkinContext(options);
  const clock = options.clock ?? (() => new Date());
  return async (request: FastifyRequest, user: User): Promise<void> => {
    const cookie = scanCookie(request);
    if (!cookie || user.role !== 'student') return;
    try {
      await completePendingScan(options.database, user, cookie, {}, context, { now: clock(), address: request.ip });
    } catch (error) {
      // The sign-in stands whatever becomes of the scan: the page's own call reports it.
      if (error instanceof HttpError) request.log.info({ reason: error.message }, 'the scan kept at sign-in was refused');
      else request.log.warn({ err: error }, 'the scan kept at sign-in failed');
    }
  };
}

export const checkinRoutes: FastifyPluginAsyncZod<CheckinRoutesOptions> = async (app, options) => {
  const { database } = options;
  const { db } = database;
  const clock = options.clock ?? (() => new Date());
  const context = checkinContext(options);
  const baseUrl = (request: FastifyRequest) => options.publicUrl ?? `${request.protocol}://${request.host}`;
  const streams = options.streams ?? new EventStreams();
  const watch = new CheckinWatch(db, database, clock, (err) => app.log.warn({ err }, 'check-in stream failed'));

  app.addHook('preClose', async () => streams.endAll());
  app.addHook('onClose', async () => watch.close());

  app.post(
    '/api/checkins',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['checkins'],
        operationId: 'openCheckin',
        summary: 'Open a self check-in for a register of today (faculty)',
        description:
          'For 1 to 30 minutes (10 by default). Students who check in after lateAfterMinutes are marked late. campusOnly ' +
          'accepts scans from PORTAL_CAMPUS_NETWORKS only. One open check-in per register (409). A lecture must be on the ' +
          "timetable that day, or its register saved first (400); a date's whole-day register and lectures do not mix (409).",
        body: OpenCheckinRequestSchema,
        response: { 201: OpenedCheckinSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, ...refused },
      },
    },
    async (request, reply) => {
      const opened = await openCheckin(db, request.user!, request.body, context, clock());
      return reply.status(201).send(opened);
    },
  );

  app.get(
    '/api/checkins/:id',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['checkins'],
        operationId: 'getCheckin',
        summary: "A check-in as faculty and the projector see it: the current code, the students checked in with their flags, the refused scans",
        description:
          'The code changes every 10 seconds: the screen asks again at code.slotEndsAt (a code is accepted for its ' +
          '10 seconds, the next 10 and 2 more, so a late redraw does no harm). The list comes at once after each change ' +
          'through GET /api/checkins/{id}/events.',
        params: CheckinParamsSchema,
        response: { 200: CheckinSchema, 400: ErrorSchema, 404: ErrorSchema, ...refused },
      },
    },
    async (request, reply) => {
      // The code is of this moment: never kept by a cache.
      reply.header('cache-control', 'no-store');
      return getCheckin(db, request.params.id, baseUrl(request), clock());
    },
  );

  app.get(
    '/api/checkins/:id/events',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['checkins'],
        operationId: 'streamCheckin',
        summary: 'Server-sent events of one check-in: `checkin` with the check-in without its code, at once and after each change',
        description:
          'A text/event-stream that stays open, for whoever may read GET /api/checkins/{id}. Its first `checkin` event is ' +
          'the check-in as it is; another follows each student checked in or removed, each flag, each refused scan and ' +
          'the closing, whichever server process they reached. The data is the answer of GET /api/checkins/{id} without ' +
          '`code`, which the screen still asks for at each slotEndsAt. A comment line arrives every 20 seconds; the ' +
          'stream ends after 15 minutes and the browser reconnects by itself.',
        params: CheckinParamsSchema,
        response: {
          // Only the stream is text/event-stream; a refusal is the usual JSON error.
          200: { description: 'The event stream', content: { 'text/event-stream': { schema: z.string() } } },
          400: ErrorSchema,
          404: ErrorSchema,
          ...refused,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await assertCheckinExists(db, id);
      await streams.serve(request, reply, (send) => watch.watch(id, (list) => send(eventFrame(CHECKIN_EVENT, list))));
    },
  );

  app.post(
    '/api/checkins/:id/close',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['checkins'],
        operationId: 'closeCheckin',
        summary: 'Close a check-in now (faculty); closing a closed one changes nothing',
        params: CheckinParamsSchema,
        response: { 200: CheckinSchema, 400: ErrorSchema, 404: ErrorSchema, ...refused },
      },
    },
    async (request) => closeCheckin(db, request.user!, request.params.id, baseUrl(request), clock()),
  );

  app.post(
    '/api/checkins/:id/remove',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['checkins'],
        operationId: 'removeCheckinEntry',
        summary: "Take a student's check-in back (faculty): the mark returns to what it was, with the reason in the register's history",
        params: CheckinParamsSchema,
        body: RemoveCheckinEntrySchema,
        response: { 200: CheckinSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, ...refused },
      },
    },
    async (request) => removeEntry(database, request.user!, request.params.id, request.body, baseUrl(request), clock()),
  );

  app.post(
    '/api/checkins/scan',
    {
      onRequest: requireSignedIn,
      config: { rateLimit: scanLimit },
      schema: {
        tags: ['checkins'],
        operationId: 'checkIn',
        summary: 'A student checks in with the token scanned or the code typed',
        description:
          'A code is accepted for 22 seconds from the start of its 10-second slot. Refusals: a wrong or expired code (400), ' +
          'a closed check-in (409), not on the roster (403), off campus for a campus-only check-in (403), more than 10 ' +
          'scans a minute (429). A repeat answers the same result. deviceKey, signature and signedAt are the browser\'s ' +
          'proof of its device: without them the check-in is accepted and flagged for faculty.',
        body: ScanRequestSchema,
        response: { 200: ScanResultSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 429: ErrorSchema, ...refused },
      },
    },
    async (request) => {
      const { token, code, ...proof } = request.body;
      const now = clock();
      return scan(database, request.user!, token !== undefined ? { token } : { code: code! }, proof, context, {
        scannedAt: now,
        now,
        address: request.ip,
      });
    },
  );

  app.post(
    '/api/checkins/scan/pending',
    {
      onRequest: requireSignedIn,
      config: { rateLimit: scanLimit },
      schema: {
        tags: ['checkins'],
        operationId: 'completePendingCheckIn',
        summary: 'After signing in, complete the scan made while signed out (the portal_scan cookie)',
        description:
          'The scan counts if its code was valid when scanned, up to 3 minutes before; the cookie is then cleared. ' +
          '404 when no scan is waiting. The device proof signs the subject `pending`.',
        body: PendingScanRequestSchema,
        response: { 200: ScanResultSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 429: ErrorSchema, ...refused },
      },
    },
    async (request, reply) => {
      const cookie = scanCookie(request);
      try {
        return await completePendingScan(database, request.user!, cookie, request.body, context, { now: clock(), address: request.ip });
      } finally {
        if (cookie) clearScanCookie(reply);
      }
    },
  );

  app.get(
    '/c/:token',
    {
      config: { rateLimit: scanLimit },
      schema: {
        tags: ['checkins'],
        operationId: 'scanCheckinCode',
        summary: "The QR's address: a signed-in student goes to the web's scan page; a signed-out visitor signs in first",
        description:
          `Signed in as a student: the browser goes to the web's scan page, ${SCAN_PATH}#<token> (${SCAN_PATH}#done from ` +
          `${PENDING_PATH}), which checks in with the device's signature by POST /api/checkins/scan (or /scan/pending) and ` +
          `shows the result at ${RESULT_PATH}; signed in otherwise, to ${RESULT_PATH} with the refusal. ` +
          `Signed out: a signed cookie keeps the token and the time for 3 minutes, and the browser goes to the sign-in, ` +
          `which completes the kept scan and returns to ${PENDING_PATH}.`,
        params: z.object({ token: z.string().max(200) }),
        response: { 302: z.null().describe('To the result page, or to the sign-in'), 400: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { token } = request.params;
      const user = request.user;
      const pending = token === 'done';
      if (!user) {
        if (!pending) {
          const now = clock();
          reply.setCookie(SCAN_COOKIE, pendingScanValue(token, now), {
            path: '/',
            httpOnly: true,
            sameSite: 'lax',
            secure: request.protocol === 'https',
            expires: new Date(now.getTime() + PENDING_SCAN_MS),
            signed: true,
          });
        }
        return reply.redirect(`/login?returnUrl=${encodeURIComponent(PENDING_PATH)}`, 302);
      }
      if (user.role !== 'student') return reply.redirect(resultAddress(new HttpError(403, STUDENTS_ONLY_MESSAGE)), 302);
      // The web's scan page makes the scan (or completes the kept one), signed by the device's key:
      // a plain navigation could bring none. The token travels in the fragment, which no log keeps.
      return reply.redirect(`${SCAN_PATH}#${encodeURIComponent(token)}`, 302);
    },
  );
};
