import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';
import { students } from '../db/schema';
import { seedRegister } from '../test/registers';
import { onPostgres } from '../test/postgres';
import { copyMigratedFolderInto } from '../test/test-db';

// `portal verify` as an operator runs it, on its own embedded database.
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-verify-'));
copyMigratedFolderInto(dataDir);
const tsx = path.resolve('node_modules/.bin/tsx');

function portal(args: string[]) {
  const result = spawnSync(tsx, ['src/server/cli/portal.ts', ...args], {
    env: { ...process.env, PORTAL_DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** Opens the folder's database for one change, and closes it so that the command can take the folder. */
async function withDatabase(change: (database: Awaited<ReturnType<typeof openDatabase>>) => Promise<void>) {
  const database = await openDatabase({ dataDir });
  try {
    await change(database);
  } finally {
    await database.close();
  }
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// On its own embedded database whatever the run: the run on PostgreSQL leaves it out.
describe.skipIf(onPostgres)('portal verify', { timeout: 120_000 }, () => {
  it('finds counters that disagree with the marks, and counters rebuild puts them right', async () => {
    await withDatabase(async (database) => {
      await database.db.insert(students).values([
        { pin: 'V-1', name: 'Asha', className: 'CSE1' },
        { pin: 'V-2', name: 'Ravi', className: 'CSE1' },
      ]);
      await seedRegister(database, { className: 'CSE1', date: '2026-02-02' }, [
        { pin: 'V-1', name: 'Asha', status: 'late' },
        { pin: 'V-2', name: 'Ravi', status: 'excused' },
      ]);
    });
    const clean = portal(['verify']);
    expect(clean.err).toBe('');
    expect(clean.code).toBe(0);
    expect(clean.out).toContain('Counters agree with the marks');

    // A counter changed behind the portal's back.
    await withDatabase(async (database) => {
      await database.db.execute(sql`update student_counters set late = late + 2 where pin = 'V-1'`);
    });
    const drift = portal(['verify']);
    expect(drift.code).toBe(1);
    expect(drift.out).toContain('student V-1 (whole day) (no term): 0/3/0/0 stored, 0/1/0/0 recomputed');
    expect(drift.err).toContain('1 counter disagrees with the marks');

    // And a class total.
    await withDatabase(async (database) => {
      await database.db.execute(sql`update student_counters set late = late - 2 where pin = 'V-1'`);
      await database.db.execute(sql`update class_day_totals set absent = absent + 1 where class_name = 'CSE1'`);
    });
    const classDrift = portal(['verify']);
    expect(classDrift.code).toBe(1);
    expect(classDrift.out).toContain('class day CSE1 2026-02-02: 0/1/1/1 in 1 registers stored, 0/1/0/1 in 1 registers recomputed');
    expect(classDrift.err).toContain('1 counter disagrees with the marks');

    const rebuilt = portal(['counters', 'rebuild']);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.out).toContain('Counters recomputed from the marks.');
    expect(portal(['verify']).code).toBe(0);
  });
});
