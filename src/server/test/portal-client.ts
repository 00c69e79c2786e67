/**
 * A client of a portal server process over real HTTP, as a browser is: sign in, read
 * the session cookie, and follow the live updates (server-sent events). For the tests that run
 * servers as processes of their own (scale-out, a database restart).
 */
import { expect } from 'vitest';
import { openStream, type Frame } from './sse-client';

export async function signIn(address: string, email: string, password: string, role: 'faculty' | 'student' = 'faculty'): Promise<Response> {
  // As a browser's form sends it: with its Origin, which the portal compares with the address the
  // proxy says the browser used.
  return fetch(`${address}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: address },
    body: JSON.stringify({ email, password, role, remember: false }),
  });
}

export function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('portal_session='));
  if (!cookie) throw new Error(`no session cookie (${response.status})`);
  return cookie.split(';')[0]!;
}

export interface EventStream {
  /** Resolves with the first event that `match` accepts, arrived or arriving, or rejects after `withinMs`. */
  waitFor(match: (event: Frame) => boolean, withinMs: number): Promise<unknown>;
  close(): void;
}

/** The live updates (GET /api/events) of the server at `address`, read as a browser's EventSource reads them. */
export async function openEvents(address: string, cookie: string): Promise<EventStream> {
  const stream = await openStream(`${address}/api/events`, cookie);
  expect(stream.status).toBe(200);
  return stream;
}
