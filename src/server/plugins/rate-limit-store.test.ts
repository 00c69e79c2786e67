import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createTestDatabase, type TestDatabase } from '../test/test-db';
import { TEST_APP_CONFIG } from '../test/test-app';

// Two server processes behind a load balancer are two apps on one database.
let database: TestDatabase;
let first: FastifyInstance;
let second: FastifyInstance;
// A limit of 10 registrations per address per 10 minutes, as PORTAL_LIMIT_REGISTRATIONS=10 would set.
const config = {
  ...TEST_APP_CONFIG,
  limits: { registrations: 10, contact: 30, signInPerAddress: 100 },
};

beforeAll(async () => {
  database = await createTestDatabase();
  first = await buildApp({ database, config });
  second = await buildApp({ database, config });
});
afterAll(async () => {
  await first.close();
  await second.close();
  await database.destroy();
});

function emptyRegistration(app: FastifyInstance, address: string) {
  return app.inject({ method: 'POST', url: '/api/registrations', payload: {}, remoteAddress: address });
}

describe('rate limits kept in the database', () => {
  it('count one address across every server process', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await emptyRegistration(first, '10.1.1.1')).statusCode).toBe(400);
      expect((await emptyRegistration(second, '10.1.1.1')).statusCode).toBe(400);
    }
    expect((await emptyRegistration(first, '10.1.1.1')).statusCode).toBe(429);
    expect((await emptyRegistration(second, '10.1.1.1')).statusCode).toBe(429);
    expect((await emptyRegistration(second, '10.1.1.2')).statusCode).toBe(400);
  });
});
