import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import type { Database } from './db/client';
import { createTestDatabase, type TestDatabase } from './test/test-db';

let database: TestDatabase;
let webDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  webDir = await mkdtemp(path.join(tmpdir(), 'portal-web-'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Portal</title>');
});
afterAll(async () => {
  await database.destroy();
  await rm(webDir, { recursive: true, force: true });
});

const config = () => ({ timeZone: 'UTC', trustProxy: false, webDir, production: false });

describe('building the app while the database opens (npm start)', () => {
  it('waits for the database, then serves the API and the pages', async () => {
    let open: (database: Database) => void = () => undefined;
    const opening = new Promise<Database>((resolve) => (open = resolve));
    let built = false;
    const building = buildApp({ database: opening, config: config() }).then((app) => {
      built = true;
      return app;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(built).toBe(false);

    open(database);
    const app = await building;
    try {
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      const page = await app.inject({ method: 'GET', url: '/login' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>Portal</title>');
      // The pages' headers are the same as when the database was open before the build.
      expect(page.headers['content-security-policy']).toContain("default-src 'self'");
      expect(page.headers['cache-control']).toBe('no-cache');
      expect((await app.inject({ method: 'GET', url: '/api/nowhere' })).json()).toEqual({ message: 'No route for GET /api/nowhere' });
    } finally {
      await app.close();
    }
  });

  it("fails with the database's reason when it cannot open", async () => {
    const opening = Promise.reject(new Error('The data folder is in use by another portal'));
    await expect(buildApp({ database: opening, config: config() })).rejects.toThrow('The data folder is in use by another portal');
  });
});
