/**
 * `npm run bench`: every benchmark and build check in this folder, one after the other.
 * Each is also runnable alone (see the comment at the top of each file), or through this script
 * with `--only`: `npm run bench -- --only rush` (names without folder and `.ts`, separated by commas).
 * Every other option is passed to each script, which reads its own (`--rush-marks 1000000`).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { argument } from './args';

const SCRIPTS = [
  'bench/check-chunks.ts',
  'bench/page-weight.ts',
  'bench/start-time.ts',
  'bench/register-sync.ts',
  'bench/lighthouse.ts',
  'bench/cli-refusal.ts',
  // The API under load, at every size (long: about 20 minutes). Writes bench/RESULTS.md.
  'bench/api.ts',
  // The morning rush: three processes behind nginx on PostgreSQL, demo data and 36M marks (long:
  // the 36M marks take a while to write). Writes bench/RESULTS.md.
  'bench/rush.ts',
];

const only = argument('only')?.split(',');
const unknown = only?.filter((name) => !SCRIPTS.includes(`bench/${name}.ts`)) ?? [];
if (unknown.length > 0) {
  console.error(`--only takes ${SCRIPTS.map((script) => path.basename(script, '.ts')).join(', ')}; not ${unknown.join(', ')}`);
  process.exit(2);
}
const chosen = only ? SCRIPTS.filter((script) => only.includes(path.basename(script, '.ts'))) : SCRIPTS;
const passed = process.argv.slice(2).filter((word, index, words) => word !== '--only' && words[index - 1] !== '--only');

let failed = false;
for (const script of chosen) {
  console.log(`\n=== ${script}`);
  // Through tsx in a child process: each script sets its own exit code and opens its own databases.
  const result = spawnSync(process.execPath, ['--import', 'tsx', script, ...passed], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
