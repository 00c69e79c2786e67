import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import { ATTENDANCE_EVENT } from '../../../shared/schemas/reports';
import type { Database } from '../../db/client';
import { requireSignedIn } from '../../plugins/auth';
import { NOTIFICATION_EVENT } from '../../../shared/schemas/alerts';
import { EventStreams, eventFrame } from '../../plugins/event-stream';
import { AttendanceEventHub, NoticeEventHub } from './service';

export interface EventRoutesOptions {
  database: Pick<Database, 'listen'>;
  /** The process's hub; made from `database` when not given (tests pass their own to watch it). */
  hub?: AttendanceEventHub;
  /** The process's hub of notices; made from `database` when not given. */
  notices?: NoticeEventHub;
  /** The process's event streams (their timings, the count of them); made with the usual timings when not given. */
  streams?: EventStreams;
}

export const eventRoutes: FastifyPluginAsyncZod<EventRoutesOptions> = async (app, options) => {
  const hub =
    options.hub ?? new AttendanceEventHub(options.database, (err) => app.log.warn({ err }, 'event stream write failed'));
  const notices =
    options.notices ?? new NoticeEventHub(options.database, (err) => app.log.warn({ err }, 'event stream write failed'));
  const streams = options.streams ?? new EventStreams();

  app.addHook('preClose', async () => streams.endAll());
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
      const user = request.user!;
      const staff = user.role === 'faculty' || user.role === 'admin';
      await streams.serve(request, reply, async (send) => {
        const unsubscribers = await Promise.all([
          ...(staff ? [hub.subscribe((event) => send(eventFrame(ATTENDANCE_EVENT, event)))] : []),
          notices.subscribe((notice) => {
            if (notice.userId === user.id) send(eventFrame(NOTIFICATION_EVENT, {}));
          }),
        ]);
        return () => {
          for (const stop of unsubscribers) stop();
        };
      });
    },
  );
};
