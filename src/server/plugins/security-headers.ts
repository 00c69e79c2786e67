import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers (Content-Security-Policy, HSTS, X-Frame-Options and the rest) on
 * every answer. Helmet's middleware is built once, here: building it parses the policy, and
 * Fastify's own helmet plugin builds it again for every request, a cost each request paid.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: HelmetOptions) => {
    const apply = helmet(options);
    app.addHook('onRequest', (request, reply, done) => {
      apply(request.raw, reply.raw, (err) => done(err instanceof Error ? err : undefined));
    });
  },
  { name: 'portal-security-headers' },
);
