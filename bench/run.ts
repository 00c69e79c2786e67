/**
 * `npm run bench`: every benchmark and build check in this folder, one after the other.
 * Each is also runnable alone (see the comment at the top of each file).
 */
import { spawnSync } from 'node:child_process';

const SCRIPTS = [
  'bench/check-chunks.ts',
  'bench/page-weight.ts',
  'bench/start-time.ts',
  'bench/lighthouse.ts',
  'bench/cli-refusal.ts',
  // The API under load, at every size (long: about 20 minutes). Writes bench/RESULTS.md.
  'bench/api.ts',
];

let failed = false;
for (const script of SCRIPTS) {
  console.log(`\n=== ${script}`);
  // Through tsx in a child process: each script sets its own exit code and opens its own databases.
  const result = spawnSync(process.execPath, ['--import', 'tsx', script, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
