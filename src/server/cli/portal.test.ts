import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The command as an operator runs it, on its own embedded database.
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-cli-'));
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

describe('portal user commands', () => {
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

    const list = portal(['user', 'list']);
    expect(list.out).toMatch(/faculty\s+rao@uni\.edu\s+Dr Rao\s+disabled/);
    expect(list.out).toMatch(/admin\s+admin@uni\.edu\s+Admin\s+active/);
  }, 240_000);

  it('explains its usage for an unknown command', () => {
    const unknown = portal(['user', 'remove']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('Unknown command "user remove"');
    expect(unknown.err).toContain('Usage: npm run portal -- <command>');
  });
});
