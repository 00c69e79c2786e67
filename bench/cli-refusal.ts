/**
 * How quickly a second process is refused on an embedded data folder a running portal holds
 * (the rule: non-zero within 5 s, nothing changed; decision 9): starts the server on a fresh
 * folder, runs `portal user list` beside it several times, and prints each time, the median and
 * the budget. Not part of `npm test`: timings depend on the machine.
 *
 *   npx tsx bench/cli-refusal.ts [--runs 5]
 */
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { option } from './args';
import { scratchFolder, stopOnExit } from './children';
import { median } from './median';

const BUDGET_SECONDS = 5;
const runs = option('runs', 5);

const dataDir = scratchFolder('portal-bench-lock-');
const env = { ...process.env, PORTAL_DATA_DIR: dataDir, DATABASE_URL: '', PORTAL_DEMO: 'false', PORT: '0', LOG_LEVEL: 'warn', PORTAL_WEB_DIR: path.join(dataDir, 'no-web') };
const server = stopOnExit(spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env }));

try {
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/running at http/.test(output)) resolve();
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    server.once('exit', (code) => reject(new Error(`the server ended (${code}) before serving:\n${output}`)));
  });

  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli/portal.ts', 'user', 'list'], { env, encoding: 'utf8' });
    const seconds = (performance.now() - started) / 1000;
    if (result.status === 0 || !result.stderr.includes('The portal is running on this data folder')) {
      throw new Error(`the command was not refused: exit ${result.status}\n${result.stdout}${result.stderr}`);
    }
    times.push(seconds);
    console.log(`run ${run + 1}: refused in ${seconds.toFixed(2)} s`);
  }
  const middle = median(times);
  console.log(`median ${middle.toFixed(2)} s, budget ${BUDGET_SECONDS} s: ${middle < BUDGET_SECONDS ? 'within' : 'OVER'}`);
  process.exitCode = middle < BUDGET_SECONDS ? 0 : 1;
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
