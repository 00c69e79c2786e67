/**
 * bench/RESULTS.md: one section per benchmark, each replaced by its own script's latest full run
 * and left alone by the others.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FILE = path.join(import.meta.dirname, 'RESULTS.md');

const HEADER = [
  '# Benchmark results',
  '',
  'Written by the scripts of `npm run bench`; each section says which and when, and the sections',
  'marked "kept by hand" are written with the decision records. The targets are the portal\'s own',
  'budgets: a report\'s p99 at most 20 ms at 10M marks and within 1.5x of its demo-size figure; a read',
  'answered from the report cache at least 25% of a bare route\'s throughput; the embedded database',
  'within 2x of PostgreSQL; a 60-student save\'s p99 at most 30 ms; an idle server at most 150 MB on',
  'PostgreSQL and 300 MB on the embedded database; a restart within 1.5 s; Lighthouse (mobile) at',
  'least 95 on /login and 90 on /faculty-details; /login within 120 kB of gzip JavaScript; a register',
  'save as the outbox sends it within 1.2x of a plain save (p50 and p95); a second',
  'process refused on a data folder in use within 5 s; in the morning rush (three processes on',
  'PostgreSQL), no error and no acknowledged save lost, each read\'s p99 at most 3x its p99 with no',
  'saves running, and a 60-student save\'s p99 at 36M marks at most 1.5x its p99 at demo size.',
  '',
].join('\n');

/** Replaces (or adds) the section `name` of bench/RESULTS.md with `markdown`. Returns the file's path. */
export function writeResultsSection(name: string, markdown: string): string {
  const start = `<!-- ${name}: start -->`;
  const end = `<!-- ${name}: end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let text = existsSync(FILE) ? readFileSync(FILE, 'utf8') : HEADER;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from !== -1 && to > from) text = `${text.slice(0, from)}${block}${text.slice(to + end.length)}`;
  else text = `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(FILE, text);
  return FILE;
}

/** The machine a run is on: processors, memory, system and Node. */
export function machineLine(): string {
  const cpus = os.cpus();
  return `${cpus.length} x ${cpus[0]?.model ?? 'unknown processor'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB memory, ${os.type()} ${os.release()}, Node ${process.version}`;
}

/** Today, as a section says when it was written. */
export function runDate(): string {
  return new Date().toISOString().slice(0, 10);
}
