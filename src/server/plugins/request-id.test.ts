import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import type { TrustProxy } from '../config';
import { createTestDatabase, type TestDatabase } from '../test/test-db';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database.destroy());

/** An app whose log goes to `lines`, one parsed object per line. */
async function appLoggingTo(lines: Record<string, unknown>[], options: { level?: string; trustProxy?: TrustProxy } = {}): Promise<FastifyInstance> {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return buildApp({
    database,
    config: { timeZone: 'UTC', trustProxy: options.trustProxy ?? false, webDir: '/nonexistent', production: false },
    logger: { level: options.level ?? 'info', stream },
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it("keep a safe incoming X-Request-Id, send it back, and write it in each of the request's log lines", async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appLoggingTo(lines, { level: 'debug' });
    try {
      lines.length = 0;
      const id = 'proxy-1.2_3';
      const res = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': id } });
      expect(res.headers['x-request-id']).toBe(id);
      const mine = lines.filter((line) => line.reqId === id);
      expect(mine.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
      // Every line that concerns a request names one.
      expect(lines.filter((line) => line.req !== undefined && line.reqId === undefined)).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('make a new id for a request without one, or with one that is too long or unsafe', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appLoggingTo(lines);
    try {
      const seen = new Set<string>();
      for (const given of [undefined, 'a'.repeat(65), 'two words', 'id;drop', 'ünïcode', '']) {
        lines.length = 0;
        const res = await app.inject({ method: 'GET', url: '/api/no-such-route', headers: given === undefined ? {} : { 'x-request-id': given } });
        expect(res.statusCode).toBe(404);
        const id = res.headers['x-request-id'] as string;
        expect(id, String(given)).toMatch(UUID);
        seen.add(id);
        expect(lines.find((line) => line.msg === 'request completed')?.reqId).toBe(id);
      }
      expect(seen.size).toBe(6);
      // The longest that is kept.
      const longest = 'b'.repeat(64);
      expect((await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': longest } })).headers['x-request-id']).toBe(longest);
    } finally {
      await app.close();
    }
  });
});

describe('the client address behind proxies (PORTAL_TRUST_PROXY)', () => {
  /** The address the log gives for a request from `remoteAddress` that says it forwards for `forwardedFor`. */
  async function loggedAddress(trustProxy: TrustProxy, remoteAddress: string, forwardedFor: string): Promise<unknown> {
    const lines: Record<string, unknown>[] = [];
    const app = await appLoggingTo(lines, { level: 'debug', trustProxy });
    try {
      await app.inject({ method: 'GET', url: '/api/health', remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });
      const incoming = lines.find((line) => line.msg === 'incoming request') as { req: { remoteAddress: string } } | undefined;
      return incoming?.req.remoteAddress;
    } finally {
      await app.close();
    }
  }

  it('takes the client from X-Forwarded-For only when a listed proxy sent it', async () => {
    const proxies = ['10.0.0.5', '192.168.1.0/24'];
    expect(await loggedAddress(proxies, '10.0.0.5', '203.0.113.9')).toBe('203.0.113.9');
    expect(await loggedAddress(proxies, '192.168.1.77', '203.0.113.9')).toBe('203.0.113.9');
  });

  it('ignores a forged X-Forwarded-For from an address that is not a listed proxy', async () => {
    expect(await loggedAddress(['10.0.0.5', '192.168.1.0/24'], '198.51.100.20', '10.0.0.1')).toBe('198.51.100.20');
    expect(await loggedAddress(false, '198.51.100.20', '10.0.0.1')).toBe('198.51.100.20');
  });
});
