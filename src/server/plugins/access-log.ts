import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Query parameters whose values are credentials: single sign-on's callback carries the identity
 * provider's one-time `code` and the `state` that binds it to the browser. A log reader must not
 * be able to use them (the code is short-lived, but a log outlives it and travels further).
 */
const SECRET_PARAMETERS = new Set(['code', 'state', 'token', 'id_token', 'access_token', 'refresh_token', 'session_state']);

/** A request's address as the log writes it: its path and query, the values of SECRET_PARAMETERS replaced. */
export function loggedUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        // A malformed name is written as it came.
      }
      return equals >= 0 && SECRET_PARAMETERS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, mark)}?${query}`;
}

/** The levels at which a `debug` line is written. */
const WRITES_DEBUG = new Set(['debug', 'trace']);

/** What the log says of a request: its method and address, nothing of its headers. */
const describe = (request: FastifyRequest) => ({ method: request.method, url: loggedUrl(request.url) });

/**
 * The same with where it came from, for the incoming line: in the shape Fastify's serializer of
 * `req` reads (its `ip`, `host` and the socket's port), as the request itself was logged before.
 */
const describeIncoming = (request: FastifyRequest) => ({
  ...describe(request),
  host: request.host,
  ip: request.ip,
  socket: { remotePort: request.socket.remotePort },
});

/**
 * One line per request (Fastify's `logController`): written once it is answered, with its method,
 * address, status and time taken, at `info`. Fastify's own wrote two, one as a request came in
 * (method and address) and one once answered (status and time), which doubled the log of a busy
 * portal and its cost. The first is kept at `debug`, for following a request that never ends.
 * Both write the address with credentials in its query replaced (`loggedUrl`). Every other line
 * (errors, a route not found) is Fastify's, unchanged.
 */
export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    // Described only when it is written: at the usual levels it never is, and the description
    // (the address with credentials replaced, the client's address) was ~1.5% of a cached read.
    if (this.isLogDisabled(request) || !WRITES_DEBUG.has(request.log.level)) return;
    request.log.debug({ req: describeIncoming(request) }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: describe(request), res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
