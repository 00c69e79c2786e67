/**
 * The built web app as the bench scripts read it: built into a temporary folder (or read from
 * `--dir <built web folder>`), its entry from index.html, and the scripts a page loads before
 * it runs (the static imports, followed from file to file).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { argument } from './args';

/** Files named by `import ... from "./x.js"` and `import "./x.js"`: loaded before the module runs. */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
    found.add(match[1]!.slice(2));
  }
  return [...found];
}

/** The files of `assets` that `roots` load before they run, `roots` included. */
export function closure(assets: string, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of staticImports(readFileSync(path.join(assets, file), 'utf8'))) queue.push(next);
  }
  return seen;
}

export interface BuiltWeb {
  dir: string;
  /** The assets folder, where every script and style sheet is. */
  assets: string;
  /** The scripts and style sheets index.html names (the entry), as names in `assets`. */
  entryScripts: string[];
  entryStyles: string[];
  /** A lazily loaded chunk by its module's name (`faculty-details-page` -> `faculty-details-page-<hash>.js`). */
  pageChunk(name: string): string | undefined;
}

function readBuiltWeb(dir: string): BuiltWeb {
  const assets = path.join(dir, 'assets');
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const files = readdirSync(assets);
  return {
    dir,
    assets,
    entryScripts: [...html.matchAll(/<script[^>]+src="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!),
    entryStyles: [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="\/assets\/([^"]+\.css)"/g)].map((m) => m[1]!),
    pageChunk: (name) => files.find((file) => new RegExp(`^${name}-[\\w-]+\\.js$`).test(file)),
  };
}

/**
 * Runs `use` on the web app in `--dir`, or else on a build made now (vite.config.ts, as
 * `npm run build`) into a temporary folder that is removed afterwards.
 */
export async function withBuiltWeb<T>(use: (web: BuiltWeb) => T | Promise<T>): Promise<T> {
  let dir = argument('dir');
  let temporary: string | undefined;
  if (!dir) {
    temporary = mkdtempSync(path.join(tmpdir(), 'portal-web-'));
    dir = temporary;
    await build({ configFile: 'vite.config.ts', logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
  }
  try {
    return await use(readBuiltWeb(dir));
  } finally {
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  }
}
