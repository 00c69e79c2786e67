import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { Signer } from '@fastify/cookie';
import { beginOpening, type Database } from './db/client';
import { sharedSecret } from './db/secrets';
import { addUser } from './modules/accounts/service';
import { DEVICE_COOKIE } from './modules/auth/service';
import { TEST_PASSWORD } from './test/test-app';
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
    const opened = new Promise<Database>((resolve) => (open = resolve));
    let built = false;
    const building = buildApp({ database: { database, opened }, config: config() }).then((app) => {
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
    const opened = Promise.reject(new Error('The data folder is in use by another portal'));
    opened.catch(() => undefined);
    await expect(buildApp({ database: { database, opened }, config: config() })).rejects.toThrow('The data folder is in use by another portal');
  });

  // The routes are registered before the schema exists: none may read the database meanwhile.
  it('builds on a new database being opened, and signs its cookies with the key read once it is open', async () => {
    const opening = await beginOpening({});
    const app = await buildApp({ database: opening, config: config() });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      await addUser(opening.database.db, { email: 'early@test.university.edu', name: 'Early', role: 'faculty', password: TEST_PASSWORD });
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'early@test.university.edu', password: TEST_PASSWORD, role: 'faculty', remember: false },
      });
      expect(login.statusCode).toBe(200);
      // The device cookie is signed with the key the database holds.
      const device = login.cookies.find((cookie) => cookie.name === DEVICE_COOKIE);
      expect(device).toBeDefined();
      const key = await sharedSecret(opening.database.db, 'cookie');
      expect(new Signer(key).unsign(device!.value).valid).toBe(true);
    } finally {
      await app.close();
      await opening.database.close();
    }
  });
});
