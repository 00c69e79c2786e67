import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import type { Role } from '../../shared/constants';
import { createInjectFetch, signInThroughFetch } from '../../server/test/inject-fetch';
import { createTestContext, type TestContext } from '../../server/test/test-app';

export interface TestServer {
  /** The real app on its fresh database, from the file's first test on. */
  readonly ctx: TestContext;
  /** The page's way to the server (the global `fetch` unless a test wraps it): a test's own fetch calls it. */
  readonly fetch: typeof fetch;
  /** Signs the page in, as the sign-in page does (an admin on the Faculty tab), as an account made before. */
  signIn(email: string, role: Role): Promise<void>;
}

export interface TestServerOptions {
  /** The server's settings that differ from the tests' defaults. */
  config?: Parameters<typeof createTestContext>[0];
  /** What the file's tests need in the database (accounts, students, registers), made once. */
  seed?: (ctx: TestContext) => Promise<unknown>;
  /** Each test starts signed out, with a cookie jar of its own; else the file shares one. */
  jarPerTest?: boolean;
  /** Stands between the page and the server for the whole file: to count, hold or break requests. */
  wrapFetch?: (serverFetch: typeof fetch) => typeof fetch;
  /** The account the page signs in as before the tests, made by `seed`. */
  signedInAs?: { email: string; role: Role };
}

/**
 * The real server, started in-process on a fresh database for a test file, with the page's `fetch`
 * going to it and keeping its cookies as a browser does. Registers the file's hooks: call it at the
 * top of the file.
 */
export function startTestServer(options: TestServerOptions = {}): TestServer {
  let ctx: TestContext | undefined;
  let serverFetch: typeof fetch | undefined;
  let pageFetch: typeof fetch | undefined;
  const stubFetch = () => {
    serverFetch = createInjectFetch(server.ctx.app);
    pageFetch = options.wrapFetch ? options.wrapFetch(serverFetch) : serverFetch;
    vi.stubGlobal('fetch', pageFetch);
  };
  const server: TestServer = {
    get ctx() {
      if (!ctx) throw new Error('the test server starts in beforeAll');
      return ctx;
    },
    get fetch() {
      if (!serverFetch) throw new Error('the test server starts in beforeAll');
      return serverFetch;
    },
    signIn: (email, role) => signInThroughFetch(fetch, email, role === 'student' ? 'student' : 'faculty'),
  };
  // A fresh, migrated database and a password hash or two take a while on a busy machine.
  beforeAll(async () => {
    ctx = await createTestContext(options.config);
    await options.seed?.(ctx);
    if (!options.jarPerTest) stubFetch();
    if (options.signedInAs) await server.signIn(options.signedInAs.email, options.signedInAs.role);
  }, 60_000);
  if (options.jarPerTest) {
    beforeEach(stubFetch);
    afterEach(() => vi.unstubAllGlobals());
  } else {
    // A test that put its own fetch in the page's place leaves the file's for the next one.
    afterEach(() => {
      if (pageFetch) vi.stubGlobal('fetch', pageFetch);
    });
  }
  afterAll(async () => {
    vi.unstubAllGlobals();
    await ctx?.close();
  });
  return server;
}

/**
 * The real server with the page signed in for the whole file as a new account of `role`, made
 * before `seed` runs (its e-mail `email`, and a student's PIN `pin` on the roster).
 */
export function startSignedInApp(
  role: Role,
  { email = `signed-in-${role}@uni.edu`, pin, className, ...options }: TestServerOptions & { email?: string; pin?: string; className?: string } = {},
): TestServer {
  return startTestServer({
    ...options,
    seed: async (ctx) => {
      await ctx.signIn(role, { email, ...(pin ? { pin } : {}), ...(className ? { className } : {}) });
      await options.seed?.(ctx);
    },
    signedInAs: { email, role },
  });
}
