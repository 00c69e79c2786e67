import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../project-root';
import { isWebBuildFresh, servedBuildSettings, WEB_BUILD_SOURCES, webBuildCommand, webBuildSettings } from './web-build';
import { onPostgres } from '../test/postgres';

/** Text that only React's development bundle has: a warning it gives developers, and its JSX helper. */
const DEVELOPMENT_ONLY = ['Each child in a list should have a unique', 'jsxDEV'];

/** An environment that asks for development, as `NODE_ENV=development npm start` does. */
const DEVELOPMENT = { ...process.env, NODE_ENV: 'development' };

let outDir: string;

// No database here: the run on PostgreSQL (the server's tests again) leaves this build out.
describe.skipIf(onPostgres)('the web build npm start makes', () => {
  // One real build, made as npm start makes it, for every test below.
  beforeAll(async () => {
    outDir = await mkdtemp(path.join(tmpdir(), 'portal-web-mode-'));
    const { args, env } = webBuildCommand(PROJECT_ROOT, DEVELOPMENT);
    await promisify(execFile)(process.execPath, [...args, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], { cwd: PROJECT_ROOT, env });
  }, 300_000);

  afterAll(async () => {
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('is a production build when the environment says NODE_ENV=development', async () => {
    const assets = path.join(outDir, 'assets');
    const scripts = (await readdir(assets)).filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const text = (await Promise.all(scripts.map((file) => readFile(path.join(assets, file), 'utf8')))).join('\n');
    for (const marker of DEVELOPMENT_ONLY) expect(text.includes(marker), marker).toBe(false);
  });

  it("is fresh for npm start whatever its NODE_ENV, and stale for a development build's settings", () => {
    expect(isWebBuildFresh(PROJECT_ROOT, outDir, WEB_BUILD_SOURCES, servedBuildSettings(DEVELOPMENT))).toBe(true);
    expect(isWebBuildFresh(PROJECT_ROOT, outDir, WEB_BUILD_SOURCES, webBuildSettings('production', DEVELOPMENT))).toBe(false);
  });
});
