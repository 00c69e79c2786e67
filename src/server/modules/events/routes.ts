import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import { ATTENDANCE_EVENT, type AttendanceEvent } from '../../../shared/schemas/reports';
import type { Database } from '../../db/client';
import { requireSignedIn } from '../../plugins/auth';
import { NOTIFICATION_EVENT } from '../../../shared/schemas/alerts';
import type { Metrics } from '../../plugins/metrics';
import { AttendanceEventHub, NoticeEventHub } from './service';

export interface EventRoutesOptions {
  database: Pick<Database, 'listen'>;
  /** The process's hub; made from `database` when not given (tests pass their own to watch it). */
  hub?: AttendanceEventHub;
  /** The process's hub of notices; made from `database` when not given. */
  notices?: NoticeEventHub;
  /** A comment line this often keeps proxies and load balancers from closing an idle stream. */
  heartbeatMs?: number;
  /**
   * A stream is ended after this long; the browser reconnects at once, and the reconnection
   * checks the sign-in again, so a signed-out or disabled account stops hearing events.
   */
  maxStreamMs?: number;
  /** How long the browser waits before reconnecting after the stream drops (the SSE retry field). */
  retryMs?: number;
  /** Where the count of open streams is reported. */
  metrics?: Metrics;
}

export const HEARTBEAT_MS = 20_000;
export const MAX_STREAM_MS = 15 * 60_000;
export const RETRY_MS = 3_000;
/** A client this far behind is not reading: drop it rather than buffer without end. */
const MAX_BUFFERED_BYTES = 256 * 1024;

function attendanceFrame(event: AttendanceEvent): string {
  return `event: ${ATTENDANCE_EVENT}\ndata: ${JSON.stringify(event)}\n\n`;
}

export const eventRoutes: FastifyPluginAsyncZod<EventRoutesOptions> = async (app, options) => {
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const maxStreamMs = options.maxStreamMs ?? MAX_STREAM_MS;
  const retryMs = options.retryMs ?? RETRY_MS;
  const hub =
    options.hub ?? new AttendanceEventHub(options.database, (err) => app.log.warn({ err }, 'event stream write failed'));
  const notices =
    options.notices ?? new NoticeEventHub(options.database, (err) => app.log.warn({ err }, 'event stream write failed'));
  const open = new Set<ServerResponse>();

  options.metrics?.addGauge({ name: 'live_update_clients', help: 'Live-update (server-sent events) streams open', read: () => open.size });

  // Open streams would keep the server from closing; end them first. The last frame says when to
  // reconnect (the browsers reach another process, or this one restarted): spread over up to twice
  // the usual delay, so that a stopped process's clients do not all come back at once.
  app.addHook('preClose', async () => {
    for (const res of open) res.end(`retry: ${retryMs + Math.floor(Math.random() * retryMs)}\n: closing\n\n`);
    open.clear();
  });
  app.addHook('onClose', async () => {
    await Promise.all([hub.close(), notices.close()]);
  });

  app.get(
    '/api/events',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['events'],
        operationId: 'streamAttendanceEvents',
        summary: 'Server-sent events: `attendance` with {class, date} each time a register is saved (staff), `notification` when the account gets a notice',
        description:
          'A text/event-stream that stays open. Faculty and admins hear every register saved; every account hears ' +
          '`notification` (data {}) when a notice reaches its bell, and then asks GET /api/notifications. A comment ' +
          'line arrives every 20 seconds; the stream ends after 15 minutes and the browser reconnects by itself.',
        response: {
          // Only the stream is text/event-stream; a refusal is the usual JSON error.
          200: { description: 'The event stream', content: { 'text/event-stream': { schema: z.string() } } },
          401: ErrorSchema,
          403: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      // Listen before answering: every save committed after the client sees the first bytes reaches it.
      const events: string[] = [];
      let res: ServerResponse | null = null;
      const send = (frame: string) => {
        if (!res) {
          events.push(frame);
          return;
        }
        res.write(frame);
        if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
      };
      const user = request.user!;
      const staff = user.role === 'faculty' || user.role === 'admin';
      const unsubscribers = await Promise.all([
        ...(staff ? [hub.subscribe((event) => send(attendanceFrame(event)))] : []),
        notices.subscribe((notice) => {
          if (notice.userId === user.id) send(`event: ${NOTIFICATION_EVENT}\ndata: {}\n\n`);
        }),
      ]);
      const unsubscribe = () => {
        for (const stop of unsubscribers) stop();
      };

      reply.hijack();
      if (reply.raw.destroyed || request.raw.socket.destroyed) {
        // The client left while the listener was starting: its close event has already passed.
        unsubscribe();
        reply.raw.destroy();
        return;
      }
      res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        // no-transform: a compressing proxy must not hold the stream back to compress it.
        'cache-control': 'private, no-cache, no-transform',
        connection: 'keep-alive',
        // nginx and similar proxies otherwise buffer the response and deliver events late.
        'x-accel-buffering': 'no',
      });
      res.write(`retry: ${retryMs}\n: connected\n\n`);
      for (const frame of events) res.write(frame);
      open.add(res);

      const stream = res;
      const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), heartbeatMs);
      // A little jitter, so that the streams of a restarted server do not all renew at once.
      const renew = setTimeout(() => stream.end(), maxStreamMs + Math.floor(Math.random() * Math.min(maxStreamMs, 60_000) * 0.1));
      heartbeat.unref();
      renew.unref();

      stream.on('close', () => {
        clearInterval(heartbeat);
        clearTimeout(renew);
        unsubscribe();
        open.delete(stream);
        request.log.debug('event stream closed');
      });
      // A socket error is followed by close; without a listener it would be thrown.
      stream.on('error', () => undefined);
    },
  );
};
