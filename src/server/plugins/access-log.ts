import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One line per request (Fastify's `logController`): written once it is answered, with its method,
 * address, status and time taken, at `info`. Fastify's own wrote two, one as a request came in
 * (method and address) and one once answered (status and time), which doubled the log of a busy
 * portal and its cost. The first is kept at `debug`, for following a request that never ends.
 * Every other line (errors, a route not found) is Fastify's, unchanged.
 */
export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: { method: request.method, url: request.url }, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
