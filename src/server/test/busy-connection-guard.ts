import { afterAll, expect } from 'vitest';

/**
 * Fails a test file that sent statements together on one PostgreSQL connection: node-postgres queues
 * them with a deprecation warning today and will refuse them in its next major version. A
 * transaction is one connection, so the statements run in one must be awaited one after another,
 * never together (Promise.all). node-postgres warns from the third statement waiting at once (two
 * pass unseen), and once per process: the first file that does it fails.
 */
const seen: string[] = [];
const listener = (warning: Error) => {
  if (/already executing a query/.test(warning.message)) seen.push(warning.message);
};
process.on('warning', listener);
afterAll(() => {
  process.off('warning', listener);
  expect(seen, 'statements sent together on one connection (a transaction): await them one after another').toEqual([]);
});
