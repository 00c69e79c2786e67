import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oldSchemaDatabases } from '../test/old-schema';
import { migrateDatabase, openDatabase, type Database } from './client';
import { mergeDuplicatePins } from './pin-repair';

/** The migrations up to the last one before profile review and PIN normalisation. */
const BEFORE = '0002_rate_limits';
/** An empty database (PGlite, or a new database on TEST_DATABASE_URL) migrated to the old schema. */
const oldDatabase = oldSchemaDatabases(BEFORE);

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

async function seedRegister(database: Database, pins: [string, boolean][]): Promise<string> {
  const [register] = await rows<{ id: string }>(
    database,
    sql`insert into attendance_sessions (class_name, date, present_count, absent_count)
        values ('CSE1', '2026-02-02', ${pins.filter(([, p]) => p).length}, ${pins.filter(([, p]) => !p).length}) returning id`,
  );
  for (const [pin, present] of pins) {
    await database.db.execute(
      sql`insert into attendance_marks (session_id, pin, name, class_name, present) values (${register!.id}, ${pin}, 'Someone', 'CSE1', ${present})`,
    );
  }
  return register!.id;
}

// Each test opens fresh databases and runs the migrations: slow on a busy machine.
describe('the PIN migration', { timeout: 120_000 }, () => {
  it('normalises every stored PIN and approves the old profiles on roster PINs only', async () => {
    const database = await oldDatabase();
    await database.db.execute(sql`insert into students (pin, name, class_name) values ('23b81a0101', 'Asha', 'CSE1'), (' 23B81A0102 ', 'Ravi', 'CSE1')`);
    await database.db.execute(
      sql`insert into users (email, name, password_hash, role, pin) values ('asha@uni.edu', 'Asha', 'x', 'student', '23b81a0101')`,
    );
    await database.db.execute(
      sql`insert into profiles (pin, name, designation) values ('23B81A0101 ', 'Asha', 'CSE'), ('zz-not-on-roster', 'Stranger', 'CSE')`,
    );
    const register = await seedRegister(database, [['23b81a0101', true], [' 23B81A0102 ', false]]);
    await database.db.execute(
      sql`insert into attendance_changes (session_id, pin, old_value, new_value) values (${register}, '23b81a0101', null, true)`,
    );

    await migrateDatabase(database);

    expect(await rows(database, sql`select pin from students order by pin`)).toEqual([{ pin: '23B81A0101' }, { pin: '23B81A0102' }]);
    expect(await rows(database, sql`select pin from users`)).toEqual([{ pin: '23B81A0101' }]);
    expect(await rows(database, sql`select pin, status from profiles order by pin`)).toEqual([
      { pin: '23B81A0101', status: 'approved' },
      { pin: 'ZZ-NOT-ON-ROSTER', status: 'pending' },
    ]);
    expect(await rows(database, sql`select pin from attendance_marks order by pin`)).toEqual([{ pin: '23B81A0101' }, { pin: '23B81A0102' }]);
    expect(await rows(database, sql`select pin from attendance_changes`)).toEqual([{ pin: '23B81A0101' }]);
  });

  it('merges nothing when only different tables spell a PIN differently, and nothing on an empty database', async () => {
    const database = await oldDatabase();
    await database.db.execute(sql`insert into students (pin, name, class_name) values ('Y1', 'Asha', 'CSE1')`);
    await database.db.execute(sql`insert into profiles (pin, name, designation) values ('y1', 'Asha', 'CSE')`);
    expect(await mergeDuplicatePins(database.db)).toEqual([]);
    const empty = await openDatabase({ migrate: false });
    try {
      expect(await mergeDuplicatePins(empty.db)).toEqual([]);
    } finally {
      await empty.close();
    }
  });

  it('stops on PINs that would become one, and portal pins fix merges them so that it can finish', async () => {
    const database = await oldDatabase();
    await database.db.execute(sql`insert into students (pin, name, class_name) values ('x1', 'Old Spelling', 'CSE1'), ('X1', 'Kept', 'CSE2')`);
    await database.db.execute(sql`insert into users (email, name, password_hash, role, pin) values ('x@uni.edu', 'X', 'x', 'student', 'x1')`);
    await database.db.execute(sql`insert into profiles (pin, name, designation, created_at) values ('x1', 'First', 'CSE', now() - interval '1 day'), ('X1', 'Second', 'CSE', now())`);
    // The present mark wins, whatever its spelling.
    const register = await seedRegister(database, [['x1', true], ['X1', false]]);

    const failure = await migrateDatabase(database).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(Error);
    const { message } = failure as Error;
    expect(message).toMatch(/^The database could not be upgraded: These PINs differ only in case or spaces/);
    expect(message).toContain('X1 (X1, x1)');
    expect(message).toContain('npm run portal -- pins fix');
    expect(message).not.toContain('DO $$');
    // Nothing of the migration stayed.
    expect(await rows(database, sql`select pin from students order by pin`)).toEqual([{ pin: 'X1' }, { pin: 'x1' }]);

    expect(await mergeDuplicatePins(database.db)).toEqual([
      {
        pin: 'X1',
        spellings: ['X1', 'x1'],
        removed: ['roster row "x1" (Old Spelling, CSE1)', 'profile "X1" (Second, CSE)'],
        profilesMerged: true,
      },
    ]);
    await migrateDatabase(database);

    expect(await rows(database, sql`select pin, name, class_name from students`)).toEqual([{ pin: 'X1', name: 'Kept', class_name: 'CSE2' }]);
    expect(await rows(database, sql`select pin from users`)).toEqual([{ pin: 'X1' }]);
    expect(await rows(database, sql`select name, status from profiles`)).toEqual([{ name: 'First', status: 'approved' }]);
    expect(await rows(database, sql`select pin, status from attendance_marks`)).toEqual([{ pin: 'X1', status: 'present' }]);
    expect(await rows(database, sql`select present_count, absent_count from attendance_sessions where id = ${register}`)).toEqual([
      { present_count: 1, absent_count: 0 },
    ]);
  });
});
