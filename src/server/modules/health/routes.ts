import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import { HealthSchema, NotReadySchema, ReadySchema } from '../../../shared/schemas/health';
import type { Database } from '../../db/client';
import type { Metrics } from '../../plugins/metrics';
import { mayReadMetrics, newestMigration, Readiness } from './service';

export interface HealthRoutesOptions {
  database: Pick<Database, 'db' | 'kind'>;
  metrics: Metrics;
  /** PORTAL_METRICS_TOKEN: opens /metrics to other machines; unset, only this machine reads them. */
  metricsToken: string | undefined;
}

/** The OpenAPI security scheme of the metrics' bearer token. */
export const METRICS_SECURITY_SCHEME = 'metricsToken';

export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (app, { database, metrics, metricsToken }) => {
  const readiness = new Readiness(database, newestMigration());
  // The first thing a stop does (app.close): from then on the process is not ready.
  app.addHook('preClose', async () => readiness.stopping());

  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        operationId: 'getHealth',
        summary: 'Liveness: the process answers (the database is not asked; see getReadiness)',
        response: {
          200: HealthSchema,
          // Like every route: a malformed address or a NUL character in the query.
          400: ErrorSchema,
        },
      },
    },
    async () => ({ status: 'ok' as const, database: database.kind }),
  );

  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['health'],
        operationId: 'getReadiness',
        summary: 'Readiness: whether this process should be sent requests',
        description:
          '200 when the database answers, its migrations are applied and the process is not stopping; else 503 with ' +
          'the reason: database unreachable, migrations pending or shutting down. No sign-in needed.',
        response: { 200: ReadySchema, 400: ErrorSchema, 503: NotReadySchema },
      },
    },
    async (_request, reply) => {
      const reason = await readiness.check();
      // Never kept by a cache: each ask is a fresh look.
      reply.header('cache-control', 'no-store');
      if (reason) return reply.status(503).send({ status: 'not ready' as const, reason });
      return { status: 'ready' as const };
    },
  );

  app.get(
    '/metrics',
    {
      schema: {
        tags: ['health'],
        operationId: 'getMetrics',
        summary: 'Metrics in the Prometheus text format',
        description:
          'Open to a client on this machine (the loopback address, not forwarded by a proxy); from elsewhere only with ' +
          'Authorization: Bearer and the PORTAL_METRICS_TOKEN, else 401.',
        security: [{ [METRICS_SECURITY_SCHEME]: [] }],
        response: {
          200: { description: 'The metrics', content: { 'text/plain': { schema: z.string() } } },
          400: ErrorSchema,
          401: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      if (!mayReadMetrics({ socketAddress: request.socket.remoteAddress, headers: request.headers }, metricsToken)) {
        reply.header('www-authenticate', 'Bearer');
        return reply.status(401).send({
          message:
            metricsToken === undefined
              ? 'The metrics are open only on this machine (set PORTAL_METRICS_TOKEN to read them from elsewhere)'
              : 'The metrics need Authorization: Bearer and the metrics token',
        });
      }
      reply.header('cache-control', 'no-store');
      return reply.type(metrics.contentType).send(await metrics.text());
    },
  );
};
