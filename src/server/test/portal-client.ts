/**
 * A client of a portal server process over real HTTP, as a browser is: sign in as faculty, read
 * the session cookie, and follow the live updates (server-sent events). For the tests that run
 * servers as processes of their own (scale-out, a database restart).
 */
import { expect } from 'vitest';

export async function signIn(address: string, email: string, password: string): Promise<Response> {
  // As a browser's form sends it: with its Origin, which the portal compares with the address the
  // proxy says the browser used.
  return fetch(`${address}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: address },
    body: JSON.stringify({ email, password, role: 'faculty', remember: false }),
  });
}

export function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('portal_session='));
  if (!cookie) throw new Error(`no session cookie (${response.status})`);
  return cookie.split(';')[0]!;
}

export interface EventStream {
  /** Resolves with the first event that `match` accepts, arrived or arriving, or rejects after `withinMs`. */
  waitFor(match: (event: { event?: string; data?: string; comment?: string }) => boolean, withinMs: number): Promise<void>;
  close(): void;
}

/** A server-sent events client over plain HTTP, as a browser's EventSource reads the stream. */
export async function openEvents(address: string, cookie: string): Promise<EventStream> {
  const abort = new AbortController();
  const response = await fetch(`${address}/api/events`, { headers: { cookie, accept: 'text/event-stream' }, signal: abort.signal });
  expect(response.status).toBe(200);
  const frames: { event?: string; data?: string; comment?: string }[] = [];
  const waiters = new Set<() => void>();
  void (async () => {
    const decoder = new TextDecoder();
    let text = '';
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const frame: { event?: string; data?: string; comment?: string } = {};
          for (const line of text.slice(0, end).split('\n')) {
            if (line.startsWith(': ')) frame.comment = line.slice(2);
            else if (line.startsWith('event: ')) frame.event = line.slice(7);
            else if (line.startsWith('data: ')) frame.data = line.slice(6);
          }
          text = text.slice(end + 2);
          frames.push(frame);
          for (const wake of waiters) wake();
        }
      }
    } catch {
      // Closed by the test.
    }
  })();
  return {
    waitFor(match, withinMs) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!frames.some(match)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such event within ${withinMs} ms; got ${JSON.stringify(frames)}`));
        }, withinMs);
        waiters.add(check);
        check();
      });
    },
    close: () => abort.abort(),
  };
}
