/** The environment variable naming the migrated embedded data folder that test files copy (the global set-up's). */
export const PGLITE_TEMPLATE_ENV = 'PORTAL_TEST_PGLITE_TEMPLATE';

/**
 * The migrated template that each test file copies. Its name is unique per test run (the global
 * set-up puts it in the environment the workers inherit), so runs sharing one server never collide.
 */
export function templateDatabase(): string {
  const name = process.env.PORTAL_TEST_TEMPLATE;
  if (!name) throw new Error('PORTAL_TEST_TEMPLATE is not set: the global test set-up did not run');
  return name;
}

/** The same server and credentials, another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * Whether this run is the one on PostgreSQL (TEST_DATABASE_URL set). Tests of the embedded
 * database alone, and tests that need no database, skip it: they ran on the embedded run already.
 */
export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
