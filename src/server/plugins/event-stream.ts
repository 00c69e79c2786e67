import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics';

export interface EventStreamOptions {
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
export const MAX_BUFFERED_BYTES = 256 * 1024;

/** The frame of a named event; its data is one line of JSON. */
export function eventFrame(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Starts listening for one stream, given the function that sends a frame to it; resolves, once
 * every event committed from then on will reach it, to the function that stops listening.
 */
export type StreamListener = (send: (frame: string) => void) => Promise<() => void>;

/**
 * The server-sent event streams of one process (the live updates, a check-in's list): each has
 * its head and retry delay, a heartbeat, an end after `maxStreamMs`, and is dropped when its
 * client stops reading. `endAll` ends them when the server closes, with a hint to reconnect.
 */
export class EventStreams {
  private readonly open = new Set<ServerResponse>();
  private readonly heartbeatMs: number;
  private readonly maxStreamMs: number;
  private readonly retryMs: number;

  constructor(options: EventStreamOptions = {}) {
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.maxStreamMs = options.maxStreamMs ?? MAX_STREAM_MS;
    this.retryMs = options.retryMs ?? RETRY_MS;
    options.metrics?.addGauge({ name: 'live_update_clients', help: 'Server-sent event streams open (live updates and check-in lists)', read: () => this.open.size });
  }

  get size(): number {
    return this.open.size;
  }

  /**
   * Open streams would keep the server from closing; a server's preClose hook ends them. The last
   * frame says when to reconnect (the browsers reach another process, or this one restarted):
   * spread over up to twice the usual delay, so that a stopped process's clients do not all come
   * back at once.
   */
  endAll(): void {
    for (const res of this.open) res.end(`retry: ${this.retryMs + Math.floor(Math.random() * this.retryMs)}\n: closing\n\n`);
    this.open.clear();
  }

  /**
   * Answers the request with a text/event-stream that stays open. The route checks who may hear
   * it before; `listen` starts before the answer does, so that every event committed after the
   * client sees the first bytes reaches it (frames sent before the head are kept until then).
   */
  async serve(request: FastifyRequest, reply: FastifyReply, listen: StreamListener): Promise<void> {
    const early: string[] = [];
    let res: ServerResponse | null = null;
    const stopListening = await listen((frame) => {
      if (!res) {
        early.push(frame);
        return;
      }
      res.write(frame);
      if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
    });

    reply.hijack();
    if (reply.raw.destroyed || request.raw.socket.destroyed) {
      // The client left while the listener was starting: its close event has already passed.
      stopListening();
      reply.raw.destroy();
      return;
    }
    const stream = reply.raw;
    stream.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      // no-transform: a compressing proxy must not hold the stream back to compress it.
      'cache-control': 'private, no-cache, no-transform',
      connection: 'keep-alive',
      // nginx and similar proxies otherwise buffer the response and deliver events late.
      'x-accel-buffering': 'no',
    });
    stream.write(`retry: ${this.retryMs}\n: connected\n\n`);
    for (const frame of early) stream.write(frame);
    res = stream;
    this.open.add(stream);

    const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), this.heartbeatMs);
    // A little jitter, so that the streams of a restarted server do not all renew at once.
    const renew = setTimeout(() => stream.end(), this.maxStreamMs + Math.floor(Math.random() * Math.min(this.maxStreamMs, 60_000) * 0.1));
    heartbeat.unref();
    renew.unref();

    stream.on('close', () => {
      clearInterval(heartbeat);
      clearTimeout(renew);
      stopListening();
      this.open.delete(stream);
      request.log.debug('event stream closed');
    });
    // A socket error is followed by close; without a listener it would be thrown.
    stream.on('error', () => undefined);
  }
}
