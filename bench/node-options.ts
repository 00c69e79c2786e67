/**
 * The Node options `npm start` gives the portal (package.json's start script, `node <options>
 * scripts/start.mjs`), so that a benchmark that starts the built server itself measures the
 * process `npm start` runs. One home: the start script. With BENCH_CPU_PROF=<folder>, each such
 * process also writes its CPU profile there when it stops (Node's --cpu-prof, which NODE_OPTIONS
 * may not carry): where a benchmark's server time goes.
 */
import { readFileSync } from 'node:fs';

export function startNodeOptions(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.trim().split(/\s+/);
  const script = words.indexOf('scripts/start.mjs');
  if (words[0] !== 'node' || script === -1) throw new Error(`package.json's start script is not "node [options] scripts/start.mjs": ${pkg.scripts.start}`);
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  return [...words.slice(1, script), ...profile];
}
