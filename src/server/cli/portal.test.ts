import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { onPostgres } from '../test/postgres';
import { copyMigratedFolderInto } from '../test/test-db';
import { TEST_APP_CONFIG } from '../test/test-app';

// The command as an operator runs it, on its own embedded database.
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-cli-'));
copyMigratedFolderInto(dataDir);
const tsx = path.resolve('node_modules/.bin/tsx');

function portal(args: string[], input?: string) {
  const result = spawnSync(tsx, ['src/server/cli/portal.ts', ...args], {
    env: { ...process.env, PORTAL_DATA_DIR: dataDir, DATABASE_URL: '' },
    input: input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// On its own embedded database whatever the run: the run on PostgreSQL leaves it out.
describe.skipIf(onPostgres)('portal user commands', () => {
  it('adds accounts, refuses bad ones with clear errors, lists and disables them', () => {
    const added = portal(['user', 'add', '--email', 'rao@uni.edu', '--name', 'Dr Rao', '--role', 'faculty', '--password', 'long-enough-pw']);
    expect(added.err).toBe('');
    expect(added.out).toContain('Added faculty rao@uni.edu');

    const duplicate = portal(['user', 'add', '--email', 'RAO@uni.edu', '--name', 'Again', '--role', 'faculty', '--password', 'long-enough-pw']);
    expect(duplicate.code).toBe(1);
    expect(duplicate.err).toContain('An account with the email RAO@uni.edu already exists');

    const badRole = portal(['user', 'add', '--email', 'x@uni.edu', '--name', 'X', '--role', 'teacher', '--password', 'long-enough-pw']);
    expect(badRole.code).toBe(1);
    expect(badRole.err).toContain('Role must be faculty, student or admin, not "teacher"');

    const noPin = portal(['user', 'add', '--email', 's@uni.edu', '--name', 'S', '--role', 'student'], 'long-enough-pw\n');
    expect(noPin.code).toBe(1);
    expect(noPin.err).toContain('A student account needs --pin');

    // Without --password the password is read from standard input.
    const piped = portal(['user', 'add', '--email', 'admin@uni.edu', '--name', 'Admin', '--role', 'admin'], 'piped-password-1\n');
    expect(piped.out).toContain('Added admin admin@uni.edu');

    const changed = portal(['user', 'set-password', '--email', 'admin@uni.edu'], 'another-password-2\n');
    expect(changed.out).toContain('Password changed for admin@uni.edu');

    const disabled = portal(['user', 'disable', '--email', 'rao@uni.edu']);
    expect(disabled.out).toContain('Disabled rao@uni.edu');

    const weak = portal(['user', 'set-password', '--email', 'admin@uni.edu', '--password', 'password1234']);
    expect(weak.code).toBe(1);
    expect(weak.err).toContain('Choose a less common password');

    const list = portal(['user', 'list']);
    expect(list.out).toMatch(/faculty\s+rao@uni\.edu\s+Dr Rao\s+disabled/);
    expect(list.out).toMatch(/admin\s+admin@uni\.edu\s+Admin\s+active/);
  }, 240_000);

  it('imports a roster with e-mails, giving those students accounts without a password', () => {
    const file = path.join(dataDir, 'roster.csv');
    writeFileSync(file, 'pin,name,class,email\n 23b81a0101 ,Asha Rao,CSE1,asha@uni.edu\n23B81A0102,Ravi,CSE1,\n');
    const imported = portal(['roster', 'import', file]);
    expect(imported.err).toBe('');
    expect(imported.out).toContain('Roster imported: 2 added, 0 updated, 0 moved, 0 unchanged');
    expect(imported.out).toContain('Student accounts: 1 created, 0 updated, 0 unchanged');
    expect(portal(['user', 'list']).out).toMatch(/student\s+asha@uni\.edu\s+Asha Rao\s+23B81A0101\s+no password yet/);
  }, 120_000);

  it('checks an export of the Firebase app, then imports it with --apply, and a second import adds nothing', () => {
    const file = path.join(dataDir, 'firestore.ndjson');
    const record = (pin: string, present: unknown) => ({ pin, name: 'Ravi', class: 'CSE1', present });
    writeFileSync(
      file,
      [
        { path: 'attendance/d1', data: { date: '2024-01-08', class: 'CSE1', records: [record('23b81a0301', true)] } },
        { path: 'attendance/d2', data: { date: '2024-01-09', class: 'CSE1', records: [record('23B81A0301', 'Absent')] } },
        { path: 'attendance/d3', data: { date: '2024-01-09', class: 'MECH9', records: [record('23B81A0199', true)] } },
        { path: 'cards/k1', data: { Pinnumber: '23B81A0301', designation: 'Student' } },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const checked = portal(['import', 'firestore', file]);
    expect(checked.code).toBe(0);
    expect(checked.out).toContain('The export holds 3 attendance, 0 registration and 1 card documents');
    expect(checked.out).toContain('It would add: 2 registers, 2 marks (1 present, 1 absent)');
    expect(checked.out).toContain('attendance/d3: Class MECH9 is not in the portal');
    expect(checked.out).toContain('Nothing was changed. Add the missing classes (or use --create-classes), then run again with --apply.');

    const refused = portal(['import', 'firestore', file, '--apply']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('Error: Nothing was imported: 1 document names a class not in the portal');

    const applied = portal(['import', 'firestore', file, '--apply', '--create-classes']);
    expect(applied.err).toBe('');
    expect(applied.out).toContain('Imported: 3 registers, 3 marks (2 present, 1 absent), 2 students added to the roster, 0 profiles (0 approved, 0 pending review), 1 class (MECH9)');
    expect(portal(['import', 'firestore', file, '--apply']).out).toContain('; 3 were imported before');
    expect(portal(['verify']).out).toContain('Counters agree with the marks');

    const notAnExport = path.join(dataDir, 'roster.json');
    writeFileSync(notAnExport, JSON.stringify({ CSE1: [{ pin: '1', name: 'A' }] }));
    const wrong = portal(['import', 'firestore', notAnExport]);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('The import reads a Firestore export in one of these shapes');
  }, 120_000);

  it('pins fix finds nothing to merge on an up-to-date database', () => {
    const fixed = portal(['pins', 'fix']);
    expect(fixed.code).toBe(0);
    expect(fixed.out).toContain('No PINs differ only in case or spaces; the database is up to date.');
  }, 60_000);

  it('demo-data refuses a day of more lectures than periods, before it writes anything', () => {
    const many = portal(['demo-data', '--marks', '1000', '--periods', '13']);
    expect(many.code).toBe(1);
    expect(many.err).toContain('--periods must be at most 12');
    const fraction = portal(['demo-data', '--marks', '1000', '--periods', '1.5']);
    expect(fraction.code).toBe(1);
    expect(fraction.err).toContain('--periods must be a whole number of at least 0');
  }, 60_000);

  it('alerts evaluate names the term it cannot find', () => {
    const unknown = portal(['alerts', 'evaluate', '--term', 'Spring 1999']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('There is no term named Spring 1999');
  }, 60_000);

  it('explains its usage for an unknown command', () => {
    const unknown = portal(['user', 'remove']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('Unknown command "user remove"');
    expect(unknown.err).toContain('Usage: npm run portal -- <command>');
  });
});

// On PostgreSQL the command works beside running servers, and what it does takes effect at once.
describe.runIf(onPostgres)('portal beside a running server (PostgreSQL)', () => {
  it('disabling an account signs it out of the running server at once', async () => {
    const { createPostgresCopy } = await import('../test/test-db');
    const { buildApp } = await import('../app');
    const { openDatabase } = await import('../db/client');
    const { addUser } = await import('../modules/accounts/service');
    const copy = await createPostgresCopy(process.env.TEST_DATABASE_URL!);
    const database = await openDatabase({ databaseUrl: copy.url });
    const app = await buildApp({ database, config: { ...TEST_APP_CONFIG } });
    try {
      await addUser(database.db, { email: 'busy@uni.edu', name: 'Busy', role: 'faculty', password: 'long-enough-pw' });
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'busy@uni.edu', password: 'long-enough-pw', role: 'faculty' },
      });
      const cookie = `portal_session=${login.cookies.find((c) => c.name === 'portal_session')!.value}`;
      const result = spawnSync(tsx, ['src/server/cli/portal.ts', 'user', 'disable', '--email', 'busy@uni.edu'], {
        env: { ...process.env, DATABASE_URL: copy.url },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.stdout).toContain('Disabled busy@uni.edu');
      const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
      expect(me.json()).toEqual({ user: null });
    } finally {
      await app.close();
      await database.close();
      await copy.drop();
    }
  }, 120_000);
});

/**
 * `sessions revoke` and `user unlock`, beside the portal: on PostgreSQL while it runs (what the
 * command does takes effect in it at once); on the embedded database, which one process holds at a
 * time, with the portal stopped while the command runs.
 */
describe('portal sessions revoke and user unlock', () => {
  type Portal = { app: FastifyInstance; db: Db };
  let use: <T>(what: (portal: Portal) => Promise<T>) => Promise<T>;
  let env: NodeJS.ProcessEnv;
  let finish: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const { buildApp } = await import('../app');
    const { openDatabase } = await import('../db/client');
    const config = { ...TEST_APP_CONFIG };
    if (onPostgres) {
      const { createPostgresCopy } = await import('../test/test-db');
      const copy = await createPostgresCopy(process.env.TEST_DATABASE_URL!);
      const database = await openDatabase({ databaseUrl: copy.url });
      const app = await buildApp({ database, config });
      env = { ...process.env, DATABASE_URL: copy.url };
      use = (what) => what({ app, db: database.db });
      finish = async () => {
        await app.close();
        await database.close();
        await copy.drop();
      };
    } else {
      env = { ...process.env, PORTAL_DATA_DIR: dataDir, DATABASE_URL: '' };
      use = async (what) => {
        const database = await openDatabase({ dataDir });
        const app = await buildApp({ database, config });
        try {
          return await what({ app, db: database.db });
        } finally {
          await app.close();
          await database.close();
        }
      };
    }
  }, 60_000);
  afterAll(() => finish());

  const run = (args: string[]) => {
    const result = spawnSync(tsx, ['src/server/cli/portal.ts', ...args], { env, input: '', encoding: 'utf8', timeout: 60_000 });
    return { code: result.status, out: result.stdout, err: result.stderr };
  };
  const signIn = (portal: Portal, email: string, password: string) =>
    portal.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password, role: 'faculty', remember: false },
      remoteAddress: '10.9.8.7',
    });
  const sessionOf = (res: { cookies: { name: string; value: string }[] }) =>
    `portal_session=${res.cookies.find((c) => c.name === 'portal_session')!.value}`;
  const whoIs = async (portal: Portal, cookie: string) =>
    ((await portal.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).json() as { user: { email: string } | null }).user?.email ?? null;
  const auditOf = async (portal: Portal, action: string) => {
    const { auditLog } = await import('../db/schema');
    const { eq } = await import('drizzle-orm');
    return portal.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.id);
  };

  it('user unlock clears the failed sign-ins that locked an account, so its owner signs in at once', async () => {
    const { addUser } = await import('../modules/accounts/service');
    await use(async (portal) => {
      await addUser(portal.db, { email: 'Locked.Out@uni.edu', name: 'Locked Out', role: 'faculty', password: 'the-right-password' });
      for (let i = 0; i < 5; i += 1) expect((await signIn(portal, 'locked.out@uni.edu', 'a wrong password')).statusCode).toBe(401);
      expect((await signIn(portal, 'locked.out@uni.edu', 'the-right-password')).statusCode).toBe(429);
    });

    const unlocked = run(['user', 'unlock', 'LOCKED.OUT@uni.edu']);
    expect(unlocked.err).toBe('');
    expect(unlocked.code).toBe(0);
    // Five failures, and the refused attempt that counted too.
    expect(unlocked.out).toContain('Cleared the sign-in failures of Locked.Out@uni.edu (6 attempts in the last 15 minutes); it can sign in again at once');

    await use(async (portal) => {
      expect((await signIn(portal, 'locked.out@uni.edu', 'the-right-password')).statusCode).toBe(200);
      expect(await auditOf(portal, 'account.unlock')).toEqual([
        expect.objectContaining({ actor: 'cli', target: 'Locked.Out@uni.edu', detail: { failures: 6 } }),
      ]);
    });

    expect(run(['user', 'unlock', 'locked.out@uni.edu']).out).toContain('Locked.Out@uni.edu has no sign-in failures to clear');
    const unknown = run(['user', 'unlock', 'nobody@uni.edu']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('Error: No account with the email nobody@uni.edu');
    const bare = run(['user', 'unlock']);
    expect(bare.code).toBe(1);
    expect(bare.err).toContain('Usage: npm run portal -- user unlock EMAIL');
  }, 240_000);

  it("sessions revoke ends one account's sign-ins or everyone's, and says how many", async () => {
    const { addUser } = await import('../modules/accounts/service');
    const { signInSessions } = await import('../db/schema');
    const cookies = await use(async (portal) => {
      await addUser(portal.db, { email: 'first@revoke.edu', name: 'First', role: 'faculty', password: 'long-enough-pw' });
      await addUser(portal.db, { email: 'second@revoke.edu', name: 'Second', role: 'faculty', password: 'long-enough-pw' });
      return {
        first: [sessionOf(await signIn(portal, 'first@revoke.edu', 'long-enough-pw')), sessionOf(await signIn(portal, 'first@revoke.edu', 'long-enough-pw'))],
        second: sessionOf(await signIn(portal, 'second@revoke.edu', 'long-enough-pw')),
      };
    });

    const one = run(['sessions', 'revoke', '--user', 'FIRST@revoke.edu']);
    expect(one.err).toBe('');
    expect(one.out).toContain('Ended 2 sign-in sessions of first@revoke.edu');
    // A running server hears of it through the sign-ins' data version, as soon as its announcement arrives.
    const signedOut = (portal: Portal, cookie: string) => expect.poll(() => whoIs(portal, cookie), { timeout: 3000 }).toBeNull();
    const left = await use(async (portal) => {
      await signedOut(portal, cookies.first[0]!);
      await signedOut(portal, cookies.first[1]!);
      expect(await whoIs(portal, cookies.second)).toBe('second@revoke.edu');
      return (await portal.db.select().from(signInSessions)).length;
    });
    expect(left).toBeGreaterThanOrEqual(1);

    const all = run(['sessions', 'revoke', '--all']);
    expect(all.out).toContain(`Ended ${left} sign-in session${left === 1 ? '' : 's'} of every account`);
    await use(async (portal) => {
      await signedOut(portal, cookies.second);
      expect(await portal.db.select().from(signInSessions)).toEqual([]);
      expect((await auditOf(portal, 'sessions.revoke')).map((e) => [e.actor, e.target, e.detail])).toEqual([
        ['cli', 'first@revoke.edu', { sessions: 2 }],
        ['cli', 'every account', { sessions: left }],
      ]);
      // Signing in again works.
      expect((await signIn(portal, 'second@revoke.edu', 'long-enough-pw')).statusCode).toBe(200);
    });

    for (const args of [[], ['--all', '--user', 'first@revoke.edu']]) {
      const unclear = run(['sessions', 'revoke', ...args]);
      expect(unclear.code).toBe(1);
      expect(unclear.err).toContain('Error: Say whose sign-ins to end: --all, or --user EMAIL');
    }
    const unknown = run(['sessions', 'revoke', '--user', 'nobody@revoke.edu']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('Error: No account with the email nobody@revoke.edu');
  }, 240_000);
});
