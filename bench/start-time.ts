/**
 * How long `npm start` takes to answer after a restart (the budget: within 1.5 s on an existing
 * data folder and an unchanged tree; decision 15).
 *
 *   npx tsx bench/start-time.ts               5 restarts
 *   npx tsx bench/start-time.ts --runs 10
 *
 * A first `npm start` on a new data folder builds what is missing and seeds the demo data; then
 * each run starts `npm start` again and times it from the spawn to the first answer of
 * /api/health, and stops it with SIGTERM. Prints the median and the slowest run, and the
 * target's verdict on the median, and writes them to bench/RESULTS.md. Each run is followed by
 * one of what `npm start` runs (`node scripts/start.mjs`), so that npm's own share of the time is
 * known: about a quarter of a second on the machines measured, the same whatever the portal does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { option } from './args';
import { scratchFolder, stopOnExit } from './children';
import { LOCK_FILE } from '../src/server/db/data-folder-lock';
import { freePort } from '../src/server/test/free-port';
import { median } from './median';
import { startNodeOptions } from './node-options';
import { machineLine, runDate, writeResultsSection } from './results-file';

const TARGET_MS = 1500;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** `npm start`, and what it runs (package.json's start script), to tell npm's own share. */
const NPM_START = { command: 'npm', args: ['start'] };
const WITHOUT_NPM = { command: process.execPath, args: [...startNodeOptions(), 'scripts/start.mjs'] };

/** Starts the portal; resolves with the milliseconds from the spawn to the first health answer. */
async function startPortal(
  env: NodeJS.ProcessEnv,
  port: number,
  how: { command: string; args: string[] } = NPM_START,
): Promise<{ child: ChildProcess; ms: number; output: () => string }> {
  let output = '';
  const started = performance.now();
  // Its own process group: npm, its shell and node stop together.
  const child = stopOnExit(spawn(how.command, how.args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }), { group: true });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}/api/health`;
  for (;;) {
    if (await answers(url)) return { child, ms: performance.now() - started, output: () => output };
    if (exited) throw new Error(`npm start exited before answering:\n${output}`);
    if (performance.now() - started > 300_000) throw new Error(`npm start did not answer within 5 minutes:\n${output}`);
    await delay(10);
  }
}

/** Stops the portal's process group and waits until the data folder's lock is let go. */
async function stopPortal(child: ChildProcess, dataDir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
  // npm can exit before the portal's own process has closed the database and let go of the lock
  // (a close after the first start's seeding took longer than a fixed wait once).
  const lock = path.join(dataDir, LOCK_FILE);
  const started = performance.now();
  while (existsSync(lock)) {
    if (performance.now() - started > 60_000) throw new Error('the portal did not let go of its data folder within a minute');
    await delay(20);
  }
}

async function main(): Promise<void> {
  const runs = option('runs', 5);
  const folder = scratchFolder('portal-start-');
  const port = await freePort();
  const dataDir = path.join(folder, 'data');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    PORTAL_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
  };
  try {
    const first = await startPortal(env, port);
    console.log(`first start (builds what is missing, creates and seeds the database): ${(first.ms / 1000).toFixed(2)} s`);
    await stopPortal(first.child, dataDir);
    // Alternating: each run of `npm start` is followed by one of what it runs, on the same folder.
    const times: number[] = [];
    const withoutNpm: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      for (const [how, into] of [
        [NPM_START, times],
        [WITHOUT_NPM, withoutNpm],
      ] as const) {
        const { child, ms } = await startPortal(env, port, how);
        into.push(ms);
        await stopPortal(child, dataDir);
      }
    }
    const middle = median(times);
    const slowest = Math.max(...times);
    const middleWithoutNpm = median(withoutNpm);
    const verdict = middle <= TARGET_MS ? 'met' : 'NOT met';
    const line =
      `restart on the same data folder, ${runs} runs: median ${middle.toFixed(0)} ms, slowest ${slowest.toFixed(0)} ms ` +
      `(target ${TARGET_MS} ms: ${verdict})`;
    const npmLine =
      `the same restarts without npm (\`node scripts/start.mjs\`, what \`npm start\` runs), alternating with them: ` +
      `median ${middleWithoutNpm.toFixed(0)} ms; npm's own start is some ${(middle - middleWithoutNpm).toFixed(0)} ms of the above`;
    console.log(line);
    console.log(npmLine);
    const section = [
      '## npm start after a restart',
      '',
      `\`npx tsx bench/start-time.ts\` on ${runDate()}, from the spawn of \`npm start\` to the first answer of /api/health on an existing embedded data folder and an unchanged tree; ${machineLine()}.`,
      '',
      `- first start on a new data folder (builds what is missing, creates and seeds the database): ${(first.ms / 1000).toFixed(2)} s`,
      `- ${line}`,
      `- ${npmLine}`,
    ].join('\n');
    writeResultsSection('start-time', section);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
