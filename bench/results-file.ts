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
  'Written by the scripts of `npm run bench`; each section says which and when. Targets are those',
  'of DESIGN.md section 7.4 and the scale issue.',
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
