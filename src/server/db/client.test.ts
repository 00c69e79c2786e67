import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-db';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe('notifications', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.destroy());

  it('reach a listener on the same database', async () => {
    let deliver: (payload: string) => void = () => undefined;
    const received = new Promise<string>((resolve) => {
      deliver = resolve;
    });
    await database.listen('probe', (payload) => deliver(payload));
    await database.notify('probe', 'hello');
    expect(await received).toBe('hello');
  });

  // PGlite runs in this process, so only PostgreSQL has a connection that can be cut.
  it.runIf(onPostgres)('resume after the listening connection is cut', async () => {
    const payloads: string[] = [];
    await database.listen('resilience', (payload) => payloads.push(payload));
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const cut = await admin.query(
        `select pg_terminate_backend(pid) as ok from pg_stat_activity
          where pid <> pg_backend_pid() and query ilike 'listen %resilience%'`,
      );
      expect(cut.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    const deadline = Date.now() + 15_000;
    let attempt = 0;
    while (!payloads.some((p) => p.startsWith('after-')) && Date.now() < deadline) {
      attempt += 1;
      await database.notify('resilience', `after-${attempt}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(payloads.some((p) => p.startsWith('after-'))).toBe(true);
  });
});
