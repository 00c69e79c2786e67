import { afterAll, expect } from 'vitest';

/**
 * Fails a test file that sent a statement on a PostgreSQL connection busy with another: node-postgres
 * queues it with a deprecation warning today and will refuse it in its next major version. A
 * transaction is one connection, so the statements run in one must be awaited one after another,
 * never together (Promise.all). Node warns once per process: the first file that does it fails.
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
