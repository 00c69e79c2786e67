import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loggedUrl } from './access-log';
import { createTestDatabase, type TestDatabase } from '../test/test-db';
import { TEST_APP_CONFIG } from '../test/test-app';

/** An app whose log goes to `lines`, one parsed object per line. */
async function appLoggingTo(database: TestDatabase, level: string, lines: Record<string, unknown>[]): Promise<FastifyInstance> {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = await buildApp({
    database,
    config: { ...TEST_APP_CONFIG },
    logger: { level, stream },
  });
  await app.ready();
  return app;
}

describe('the access log', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.close());

  it('writes one line per request, once answered, with method, address, status and time', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appLoggingTo(database, 'info', lines);
    try {
      lines.length = 0;
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      const missing = await app.inject({ method: 'GET', url: '/api/no-such-route?x=1', headers: { cookie: 'portal_session=secret' } });
      expect([health.statusCode, missing.statusCode]).toEqual([200, 404]);
      const requestLines = lines.filter((line) => line.req !== undefined || line.res !== undefined);
      expect(requestLines).toHaveLength(2);
      expect(requestLines[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/api/health' }, res: { statusCode: 200 } });
      expect(requestLines[1]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/api/no-such-route?x=1' }, res: { statusCode: 404 } });
      for (const line of requestLines) {
        expect(typeof line.responseTime).toBe('number');
        expect(typeof line.reqId).toBe('string');
      }
      // Nothing of the request's headers, its cookie least of all.
      expect(JSON.stringify(lines)).not.toContain('secret');
    } finally {
      await app.close();
    }
  });

  it('writes no credential of a query: single sign-on\'s code and state', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appLoggingTo(database, 'debug', lines);
    try {
      lines.length = 0;
      await app.inject({ method: 'GET', url: '/api/auth/oidc/callback?code=one-time-code&state=browser-state&iss=https%3A%2F%2Fidp.example' });
      const requestLines = lines.filter((line) => line.req !== undefined);
      expect(requestLines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
      for (const line of requestLines) {
        expect(line.req).toMatchObject({ method: 'GET', url: '/api/auth/oidc/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fidp.example' });
      }
      // The incoming line still says where the request came from.
      expect(requestLines[0]!.req).toMatchObject({ remoteAddress: '127.0.0.1' });
      expect(JSON.stringify(lines)).not.toMatch(/one-time-code|browser-state/);
    } finally {
      await app.close();
    }
  });

  it('replaces the values of credential parameters only, whatever their case or encoding', () => {
    expect(loggedUrl('/api/reports/students?below=75')).toBe('/api/reports/students?below=75');
    expect(loggedUrl('/a?Code=x&%73tate=y&token&page=2&access_token=z')).toBe('/a?Code=[redacted]&%73tate=[redacted]&token&page=2&access_token=[redacted]');
    expect(loggedUrl('/a?%E0%A4%A=1&code=2')).toBe('/a?%E0%A4%A=1&code=[redacted]');
    expect(loggedUrl('/a')).toBe('/a');
  });

  it('writes none above info', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appLoggingTo(database, 'warn', lines);
    try {
      await app.inject({ method: 'GET', url: '/api/health' });
      expect(lines.filter((line) => line.msg === 'request completed')).toHaveLength(0);
    } finally {
      await app.close();
    }
  });
});
