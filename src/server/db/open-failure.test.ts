import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type * as PgliteThread from './pglite-thread';
import { onPostgres } from '../test/postgres';
import { copyMigratedFolderInto } from '../test/test-db';

// The embedded database's thread begins before the rest of the driver loads (client.ts): when the
// rest fails, the thread must not be left running on the folder whose lock is let go. The failure
// is made by a driver that cannot be set up; the thread and its database are the real ones.
const begun: PGlite[] = [];
const closed: PGlite[] = [];

vi.doMock('drizzle-orm/pglite', () => ({
  drizzle() {
    throw new Error('the driver could not be set up');
  },
}));
vi.doMock('./pglite-thread', async (importOriginal) => {
  const original = await importOriginal<typeof PgliteThread>();
  return {
    ...original,
    async beginPgliteThread(...args: Parameters<typeof original.beginPgliteThread>) {
      const begin = await original.beginPgliteThread(...args);
      begun.push(begin.client);
      const close = begin.client.close.bind(begin.client);
      begin.client.close = async () => {
        closed.push(begin.client);
        await close();
      };
      return begin;
    },
  };
});

describe.skipIf(onPostgres)('opening the embedded database when its driver cannot load', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-open-failure-'));
  copyMigratedFolderInto(dataDir);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('closes the thread it began and lets the folder go', async () => {
    const { openDatabase } = await import('./client');
    const { lockDataFolder } = await import('./data-folder-lock');
    await expect(openDatabase({ dataDir })).rejects.toThrow('the driver could not be set up');
    expect(begun).toHaveLength(1);
    expect(closed).toEqual(begun);
    // The lock is free again: the folder can be taken by the next start.
    lockDataFolder(dataDir).release();
  });
});
