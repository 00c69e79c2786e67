/**
 * A server-sent events client for the tests, over a real socket as a browser's EventSource reads
 * the stream (inject would wait for an end that never comes).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** One frame of the stream: a named event with its data, a comment, a retry delay. */
export interface Frame {
  event?: string;
  data?: string;
  comment?: string;
  retry?: string;
}

/** An open text/event-stream. */
export interface Stream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every frame so far, oldest first. */
  frames: Frame[];
  /** Resolves when the server ends the stream (or the test closes it). */
  ended: Promise<void>;
  /** The first frame that `match` accepts, arrived or arriving; rejects after `timeoutMs`. */
  waitFor(match: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  close(): void;
}

export function parseFrame(text: string): Frame {
  const frame: Frame = {};
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) frame.comment = line.slice(1).trim();
    else {
      const at = line.indexOf(':');
      const field = at === -1 ? line : line.slice(0, at);
      const value = at === -1 ? '' : line.slice(at + 1).replace(/^ /, '');
      if (field === 'event' || field === 'data' || field === 'retry') frame[field] = value;
    }
  }
  return frame;
}

/** Starts the app on a free port of 127.0.0.1; its address. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** GETs `url` with the cookie and reads what comes as a stream; resolves once the answer's head has arrived. */
export function openStream(url: string, cookie: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { cookie, accept: 'text/event-stream' } }, (response) => {
      const frames: Frame[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          frames.push(parseFrame(buffer.slice(0, end)));
          buffer = buffer.slice(end + 2);
        }
        for (const wake of waiters) wake();
      });
      const ended = new Promise<void>((done) => response.on('close', () => done()));
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        frames,
        ended,
        waitFor(match, timeoutMs = 5000) {
          return new Promise((found, fail) => {
            const check = () => {
              const frame = frames.find(match);
              if (!frame) return;
              waiters.delete(check);
              clearTimeout(timer);
              found(frame);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(frames)}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
}

/** Waits until `condition` holds, looking every 10 ms; throws after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
