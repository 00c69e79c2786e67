import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { TOO_LONG_MESSAGE } from './errors';

/**
 * A request must begin its answer within `timeoutMs`, else it gets 503 (the work it started goes
 * on: a save that commits afterwards is stored, and saving it again is harmless). Once an answer
 * has begun, nothing cuts it: a download or a report streamed over a slow link, and the live
 * updates' stream (it takes the response over), run as long as they need. Fastify's own
 * `handlerTimeout` ends only when the whole answer is sent, so it would cut those.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route may take longer than the limit before its answer begins (a backup's download,
     * whose file is complete, digest and all, before its first byte is sent); its own work bounds it.
     */
    untimed?: boolean;
  }
}

export const requestTimeoutPlugin = fp<{ timeoutMs: number }>(async (app: FastifyInstance, { timeoutMs }) => {
  const timers = new WeakMap<FastifyReply, NodeJS.Timeout>();
  const stop = (reply: FastifyReply) => {
    clearTimeout(timers.get(reply));
    timers.delete(reply);
  };
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.untimed) return;
    const timer = setTimeout(() => {
      timers.delete(reply);
      if (reply.sent || reply.raw.headersSent) return;
      request.log.warn({ route: request.routeOptions.url, timeoutMs }, 'request took too long');
      void reply.code(503).send({ message: TOO_LONG_MESSAGE });
    }, timeoutMs);
    timers.set(reply, timer);
    reply.raw.once('close', () => stop(reply));
  });
  // The answer is on its way: from here the request is no longer timed.
  app.addHook('onSend', async (_request, reply) => stop(reply));
});
