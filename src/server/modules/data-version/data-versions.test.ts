import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-db';
import * as repo from './repository';
import { bumpDataVersion, DataVersions, REPORTS } from './service';

/**
 * What a process knows of the data versions (decision 28): its own writes at once, other
 * processes' when their announcement arrives, and within the trust window when one is lost.
 */
let database: TestDatabase;
const opened: DataVersions[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterEach(async () => {
  await Promise.all(opened.splice(0).map((versions) => versions.close()));
});
afterAll(async () => {
  await database.destroy();
});

async function watch(trustMs: number): Promise<DataVersions> {
  const versions = new DataVersions(database, trustMs);
  await versions.start();
  opened.push(versions);
  return versions;
}

/** Another process's bump: committed and announced, unknown to this process's own bookkeeping. */
const bumpElsewhere = () => repo.bump(database.db, REPORTS);
/** A bump whose announcement is lost. */
const bumpSilently = () => database.db.execute(sql`update data_versions set version = version + 1 where name = ${REPORTS}`);

describe('data versions', () => {
  it('see this process\'s own write at once, whatever the trust window', async () => {
    const versions = await watch(60_000);
    const before = await versions.current(REPORTS);
    const written = await bumpDataVersion(database.db);
    expect(written).toBe(before + 1);
    expect(await versions.current(REPORTS)).toBe(written);
  });

  it('see another process\'s write when its announcement arrives, without waiting for the trust window', async () => {
    const versions = await watch(60_000);
    const before = await versions.current(REPORTS);
    const after = await bumpElsewhere();
    expect(after).toBe(before + 1);
    await vi.waitFor(async () => expect(await versions.current(REPORTS)).toBe(after), { timeout: 5000, interval: 20 });
  });

  it('answer from memory within the trust window, and read the row again after it: a lost announcement costs at most that', async () => {
    const versions = await watch(300);
    await bumpDataVersion(database.db);
    const known = await versions.current(REPORTS);
    await bumpSilently();
    expect(await versions.current(REPORTS)).toBe(known);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await versions.current(REPORTS)).toBe(known + 1);
  });

  it('keep reading the row while a write of this process is not committed, and never run ahead of the row', async () => {
    const versions = await watch(60_000);
    const before = await versions.current(REPORTS);
    await expect(
      database.db.transaction(async (tx) => {
        await bumpDataVersion(tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // The rolled-back bump is awaited: the row is read, and it still holds the old version.
    expect(await versions.current(REPORTS)).toBe(before);
    await bumpSilently();
    expect(await versions.current(REPORTS)).toBe(before + 1);
    expect(await repo.read(database.db, REPORTS)).toBe(before + 1);
  });

  it('remember a value read from the data until the version changes, whoever changed it', async () => {
    const versions = await watch(60_000);
    let reads = 0;
    const read = async () => (reads += 1);
    expect(await versions.remember(REPORTS, 'a value', read)).toBe(1);
    expect(await versions.remember(REPORTS, 'a value', read)).toBe(1);
    // Another key is another value.
    expect(await versions.remember(REPORTS, 'another value', read)).toBe(2);
    await bumpDataVersion(database.db);
    expect(await versions.remember(REPORTS, 'a value', read)).toBe(3);
    const after = await bumpElsewhere();
    await vi.waitFor(async () => expect(await versions.current(REPORTS)).toBe(after), { timeout: 5000, interval: 20 });
    expect(await versions.remember(REPORTS, 'a value', read)).toBe(4);
    expect(await versions.remember(REPORTS, 'a value', read)).toBe(4);
  });

  it('ignore announcements that are not versions', async () => {
    const versions = await watch(60_000);
    const known = await versions.current(REPORTS);
    await database.notify(repo.DATA_VERSION_CHANNEL, 'reports:not-a-number');
    await database.notify(repo.DATA_VERSION_CHANNEL, 'garbage');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await versions.current(REPORTS)).toBe(known);
  });
});
