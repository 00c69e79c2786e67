import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../test/postgres';
import { copyMigratedFolderInto } from '../test/test-db';

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

  it('pins fix finds nothing to merge on an up-to-date database', () => {
    const fixed = portal(['pins', 'fix']);
    expect(fixed.code).toBe(0);
    expect(fixed.out).toContain('No PINs differ only in case or spaces; the database is up to date.');
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
    const app = await buildApp({ database, config: { timeZone: 'UTC', trustProxy: false, webDir: '/nonexistent', production: false } });
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
