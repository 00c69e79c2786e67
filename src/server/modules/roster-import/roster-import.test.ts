import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_NAMES } from '../../../shared/constants';
import { queryRows } from '../../db/client';
import { students } from '../../db/schema';
import { onPostgres } from '../../test/postgres';
import { createTestDatabase, type TestDatabase } from '../../test/test-db';
import { CLI } from '../audit/service';
import { exportRoster } from '../roster/service';
import { RosterFileError } from './roster-file';
import { importRoster } from './service';

/** importRoster's counts when nobody is withdrawn or brought back. */
const counts = (added: number, updated: number, moved: number, unchanged: number, notInFile = 0) => ({
  added,
  updated,
  moved,
  unchanged,
  notInFile,
  withdrawn: 0,
  returned: 0,
  accounts: [],
});

describe('importRoster and exportRoster', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.destroy());

  const roster = () => database.db.select({ pin: students.pin, name: students.name, className: students.className }).from(students).orderBy(asc(students.pin));

  it('imports a file, and importing it again changes nothing', async () => {
    const csv = 'pin,name,class\nR1,Asha Rao,CSE1\nR2,"Iyer, Bala",CSE1\nR3,Chitra,CSE2\n';
    expect(await importRoster(database.db, csv, CLI)).toEqual(counts(3, 0, 0, 0));
    expect(await importRoster(database.db, csv, CLI)).toEqual(counts(0, 0, 0, 3));
    expect(await roster()).toEqual([
      { pin: 'R1', name: 'Asha Rao', className: 'CSE1' },
      { pin: 'R2', name: 'Iyer, Bala', className: 'CSE1' },
      { pin: 'R3', name: 'Chitra', className: 'CSE2' },
    ]);
  });

  it('moves a student whose class changed, corrects names, and leaves students not in the file alone', async () => {
    const json = JSON.stringify({ CSE3: [{ pin: 'R1', name: 'Asha Rao' }, { pin: 'R4', name: 'Dev' }], CSE2: [{ pin: 'R3', name: 'Chitra N' }] });
    expect(await importRoster(database.db, json, CLI)).toEqual(counts(1, 1, 1, 0, 1));
    expect(await roster()).toEqual([
      { pin: 'R1', name: 'Asha Rao', className: 'CSE3' },
      { pin: 'R2', name: 'Iyer, Bala', className: 'CSE1' },
      { pin: 'R3', name: 'Chitra N', className: 'CSE2' },
      { pin: 'R4', name: 'Dev', className: 'CSE3' },
    ]);
  });

  it('imports nothing when any row is bad, and says which', async () => {
    const before = await roster();
    const csv = 'pin,name,class\nR5,Fine,CSE1\nR6,Bad class,CSE0\nR1,Would move,CSE4\n';
    const err = await importRoster(database.db, csv, CLI).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RosterFileError);
    expect((err as RosterFileError).errors).toEqual([
      'line 3: class "CSE0" does not exist (the classes are CSE1, CSE2, CSE3, CSE4, CSE5, CSE6, CSE7, CSE8)',
    ]);
    expect((err as RosterFileError).message).toBe(
      'Nothing was imported: the file has 1 problem.\n  line 3: class "CSE0" does not exist (the classes are CSE1, CSE2, CSE3, CSE4, CSE5, CSE6, CSE7, CSE8)',
    );
    expect(await roster()).toEqual(before);
  });

  it('exports class by class in the format it imports, so a round trip changes nothing', async () => {
    const { csv, count } = await exportRoster(database.db);
    expect(count).toBe(4);
    expect(csv).toBe('pin,name,class\nR2,"Iyer, Bala",CSE1\nR3,Chitra N,CSE2\nR1,Asha Rao,CSE3\nR4,Dev,CSE3\n');
    expect(await importRoster(database.db, csv, CLI)).toEqual(counts(0, 0, 0, 4));

    const fresh = await createTestDatabase();
    try {
      await importRoster(fresh.db, csv, CLI);
      expect((await exportRoster(fresh.db)).csv).toBe(csv);
    } finally {
      await fresh.destroy();
    }
  });

  it('writes a name a spreadsheet would run as a formula with an apostrophe, and reads it back as it was', async () => {
    const fresh = await createTestDatabase();
    try {
      const names = ['=HYPERLINK("http://example.com","x")', '+91 Rao', '-Dev', '@Asha', "'Quoted", "O'Neil"];
      const csv = `pin,name,class\n${names.map((name, i) => `F${i},"${name.replace(/"/g, '""')}",CSE1`).join('\n')}\n`;
      await importRoster(fresh.db, csv, CLI);
      const exported = (await exportRoster(fresh.db)).csv;
      expect(exported.split('\n').slice(1, -1)).toEqual([
        'F0,"\'=HYPERLINK(""http://example.com"",""x"")",CSE1',
        "F1,'+91 Rao,CSE1",
        "F2,'-Dev,CSE1",
        "F3,'@Asha,CSE1",
        "F4,'Quoted,CSE1",
        "F5,O'Neil,CSE1",
      ]);
      // Read back unchanged: a name read with its apostrophe would count as updated.
      expect(await importRoster(fresh.db, exported, CLI)).toEqual(counts(0, 0, 0, names.length));
      expect((await fresh.db.select({ name: students.name }).from(students).orderBy(asc(students.pin))).map((row) => row.name)).toEqual(names);
    } finally {
      await fresh.destroy();
    }
  });

  it('handles a large roster in one go', async () => {
    const lines = ['pin,name,class'];
    for (let i = 0; i < 2500; i += 1) lines.push(`BULK${String(i).padStart(4, '0')},Student ${i},${CLASS_NAMES[i % 8]}`);
    expect(await importRoster(database.db, lines.join('\n'), CLI)).toEqual(counts(2500, 0, 0, 0, 4));
    expect((await exportRoster(database.db)).count).toBe(2504);
    // Analyzed once imported: the planner counts every student there is.
    const [table] = await queryRows<{ rows: number; count: number }>(
      database.db,
      sql`select reltuples::int as rows, (select count(*)::int from students) as count from pg_class where relname = 'students'`,
    );
    expect(table!.rows).toBe(table!.count);
  });
});

describe.skipIf(!onPostgres)('a move and a register save of the class at once (PostgreSQL)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await importRoster(database.db, 'pin,name,class\nMV-1,Moving,CSE1\nMV-2,Staying,CSE1\n', CLI);
  }, 60_000);
  afterAll(async () => database?.destroy());

  it('waits for a save holding the class it moves a student out of, so the save never counts the student as its own', async () => {
    let releaseSave!: () => void;
    const saveMayEnd = new Promise<void>((resolve) => (releaseSave = resolve));
    let saveHolds!: () => void;
    const holding = new Promise<void>((resolve) => (saveHolds = resolve));
    // A save's first step: its class locked for the rest of its transaction.
    const save = database.db.transaction(async (tx) => {
      await tx.execute(sql`select name from classes where name = 'CSE1' for no key update`);
      saveHolds();
      await saveMayEnd;
    });
    await holding;
    let moved = false;
    const move = importRoster(database.db, 'pin,name,class\nMV-1,Moving,CSE2\nMV-2,Staying,CSE1\n', CLI).then(() => (moved = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(moved).toBe(false);
    releaseSave();
    await save;
    await move;
    expect(moved).toBe(true);
  });
});

describe.skipIf(!onPostgres)('two imports at once (PostgreSQL)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  }, 60_000);
  afterAll(async () => database?.destroy());

  const file = (blocks: { className: string; from: number; names?: string }[]) => {
    const lines = ['pin,name,class'];
    for (const { className, from, names = 'Student' } of blocks) {
      for (let i = from; i < from + 1000; i += 1) lines.push(`AT${String(i).padStart(5, '0')},${names} ${i},${className}`);
    }
    return lines.join('\n');
  };

  it('both end when their files hold the same classes in the opposite order, each in two statements', async () => {
    // Each file's first statement is one class's thousand students, the second the other class's.
    const first = file([{ className: 'CSE5', from: 0 }, { className: 'CSE6', from: 1000 }]);
    const second = file([{ className: 'CSE6', from: 1000, names: 'Pupil' }, { className: 'CSE5', from: 0, names: 'Pupil' }]);
    const results = await Promise.allSettled([importRoster(database.db, first, CLI), importRoster(database.db, second, CLI)]);
    expect(results.map((result) => (result.status === 'rejected' ? String(result.reason) : 'imported'))).toEqual(['imported', 'imported']);
    const [row] = await queryRows<{ count: number }>(database.db, sql`select count(*)::int as count from students where pin like 'AT%'`);
    expect(row!.count).toBe(2000);
  }, 60_000);

  it('both end when each withdraws the students the other renames', async () => {
    const seven = file([{ className: 'CSE7', from: 5000 }]).split('\n').slice(0, 21).join('\n');
    const eight = file([{ className: 'CSE8', from: 6000 }]).split('\n').slice(0, 21).join('\n');
    await importRoster(database.db, `${seven}\n${eight.split('\n').slice(1).join('\n')}`, CLI);
    // Each renames its own class's students and withdraws everyone else: the other file's too.
    const renamed = (text: string) => text.replaceAll('Student', 'Renamed');
    const results = await Promise.allSettled([
      importRoster(database.db, renamed(seven), CLI, { withdraw: true }),
      importRoster(database.db, renamed(eight), CLI, { withdraw: true }),
    ]);
    expect(results.map((result) => (result.status === 'rejected' ? String(result.reason) : 'imported'))).toEqual(['imported', 'imported']);
  }, 60_000);
});
