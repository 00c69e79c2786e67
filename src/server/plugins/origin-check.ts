import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests sent from another site. SameSite=Lax cookies already stop most
 * of them; this also covers browsers and sub-domains where Lax is not enough.
 */
export const originCheckPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    const fetchSite = request.headers['sec-fetch-site'];
    const origin = request.headers.origin;
    let crossOrigin = fetchSite === 'cross-site' || fetchSite === 'same-site';
    if (!crossOrigin && origin && origin !== 'null') {
      try {
        crossOrigin = new URL(origin).host !== request.host;
      } catch {
        crossOrigin = true;
      }
    } else if (origin === 'null') {
      crossOrigin = true;
    }
    if (crossOrigin) {
      return reply.status(403).send({ message: 'Requests from other sites are not accepted' });
    }
  });
});
