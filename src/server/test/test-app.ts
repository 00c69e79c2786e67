import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type AppOptions } from '../app';
import type { Role } from '../../shared/constants';
import { addUser } from '../modules/accounts/service';
import { isOnRoster, putStudents } from '../modules/roster/service';
import { openDatabase, type Database } from '../db/client';
import { createPostgresCopy, createTestDatabase, type TestDatabase } from './test-db';

export const TEST_PASSWORD = 'correct horse battery';

/** The settings every test's app starts from: UTC, no proxy, no web build, not production. */
export const TEST_APP_CONFIG = { timeZone: 'UTC', trustProxy: false, webDir: '/nonexistent', production: false } as const;

export interface TestContext {
  app: FastifyInstance;
  database: TestDatabase;
  /** Creates an account (a student also gets a roster entry) and returns its sign-in cookie. */
  signIn(role: Role, options?: { email?: string; pin?: string; className?: string }): Promise<string>;
  close(): Promise<void>;
}

let counter = 0;

/** A real app on a real, fresh database, for `app.inject()` tests. */
export async function createTestContext(config: Partial<AppOptions['config']> = {}, options: Pick<AppOptions, 'clock'> = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  const app = await buildApp({
    database,
    config: { ...TEST_APP_CONFIG, ...config },
    ...options,
  });
  await app.ready();

  async function signIn(role: Role, options: { email?: string; pin?: string; className?: string } = {}) {
    counter += 1;
    const email = options.email ?? `${role}${counter}@test.university.edu`;
    let pin: string | undefined;
    if (role === 'student') {
      pin = options.pin ?? `T${counter}X${Date.now() % 100000}`;
      if (!(await isOnRoster(database.db, pin))) {
        await putStudents(database.db, [{ pin, name: `Student ${pin}`, className: options.className ?? 'CSE1' }]);
      }
    }
    await addUser(database.db, { email, name: `Test ${role}`, role, pin, password: TEST_PASSWORD });
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: TEST_PASSWORD, role: role === 'student' ? 'student' : 'faculty', remember: false },
    });
    if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.body}`);
    const cookie = response.cookies.find((c) => c.name === 'portal_session');
    if (!cookie) throw new Error('no session cookie');
    return `portal_session=${cookie.value}`;
  }

  return {
    app,
    database,
    signIn,
    async close() {
      await app.close();
      await database.destroy();
    },
  };
}

/**
 * The usual start of an API test file: a real app on a fresh database with a faculty sign-in,
 * made before the file's tests (handed to `take`) and closed after them.
 */
export function withFacultyApp(take: (made: { ctx: TestContext; faculty: string }) => void): void {
  let ctx: TestContext | undefined;
  beforeAll(async () => {
    ctx = await createTestContext();
    take({ ctx, faculty: await ctx.signIn('faculty') });
  });
  afterAll(async () => ctx?.close());
}

/** As `withFacultyApp`, with an admin's sign-in too. */
export function withStaffApp(take: (made: { ctx: TestContext; faculty: string; admin: string }) => void): void {
  let ctx: TestContext | undefined;
  beforeAll(async () => {
    ctx = await createTestContext();
    take({ ctx, admin: await ctx.signIn('admin'), faculty: await ctx.signIn('faculty') });
  }, 60_000);
  afterAll(async () => ctx?.close());
}

/** Server processes' apps on one PostgreSQL database, each with its own connections and memory. */
export interface ServersOnOneDatabase {
  apps: FastifyInstance[];
  /** The database the first app uses, to put data in directly. */
  db: Database['db'];
  close(): Promise<void>;
}

/**
 * `count` apps, as that many server processes, on a new copy of the migrated template at `url`
 * (PostgreSQL): what one process writes and announces, the others see.
 */
export async function startServersOnOneDatabase(url: string, count = 2): Promise<ServersOnOneDatabase> {
  const copy = await createPostgresCopy(url);
  const databases: Database[] = [];
  const apps: FastifyInstance[] = [];
  const close = async () => {
    for (const app of apps) await app.close();
    for (const database of databases) await database.close();
    await copy.drop();
  };
  try {
    for (let index = 0; index < count; index += 1) {
      const database = await openDatabase({ databaseUrl: copy.url });
      databases.push(database);
      const app = await buildApp({ database, config: { ...TEST_APP_CONFIG } });
      await app.ready();
      apps.push(app);
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { apps, db: databases[0]!.db, close };
}
