/**
 * How much JavaScript a first visit downloads, against the page-weight budget
 * (/login: at most 120 kB of gzip JavaScript, in every language): builds the web app into a temporary folder (or
 * reads `--dir <built web folder>`), follows the static imports of index.html's entry and of the
 * chunks the page loads after it (what loads before the page shows), and sums the bytes the server sends for them.
 *
 *   npx tsx bench/page-weight.ts                 build, then measure
 *   npx tsx bench/page-weight.ts --dir dist/web
 *   npx tsx bench/page-weight.ts --enforce       exit 1 when /login is over its budget
 *
 * A file's gzip (or br) size is that of its pre-compressed `.gz` (`.br`) from the build; a file
 * without one is sent as it is when under 1 kB, else compressed here as the build would.
 * kB are 1000 bytes, as in Vite's build report. Over budget, the script says by how much and
 * exits 0 unless `--enforce` is given.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { COMPRESS_THRESHOLD_BYTES } from '../src/server/plugins/compression';
import { LOGIN_JS_BUDGET_BYTES } from './budgets';
import { closure, withBuiltWeb, type BuiltWeb } from './built-web';


/**
 * The chunks each page loads after the entry before it shows: the sign-in page shows from the
 * entry (src/web/app/sign-in-shell.tsx); every other page loads the app, then its own chunk.
 */
const ROUTES = [
  { route: '/login', chunks: [], budget: LOGIN_JS_BUDGET_BYTES },
  // In Hindi and in Telugu the page waits for its language's messages too (English's are in the entry).
  { route: '/login (hi)', chunks: ['messages-hi-start'], budget: LOGIN_JS_BUDGET_BYTES },
  { route: '/login (te)', chunks: ['messages-te-start'], budget: LOGIN_JS_BUDGET_BYTES },
  { route: '/faculty-details', chunks: ['portal-app', 'faculty-details-page'], budget: undefined },
];

type Encoding = 'gzip' | 'br';

/** The bytes the server sends for `file` to a client that accepts `encoding` (the body only). */
function servedBytes(file: string, encoding: Encoding): number {
  const sibling = `${file}.${encoding === 'gzip' ? 'gz' : 'br'}`;
  if (existsSync(sibling)) return statSync(sibling).size;
  const content = readFileSync(file);
  if (content.length < COMPRESS_THRESHOLD_BYTES) return content.length;
  return encoding === 'gzip'
    ? gzipSync(content, { level: constants.Z_BEST_COMPRESSION }).length
    : brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }).length;
}

interface Weight {
  files: number;
  raw: number;
  gzip: number;
  br: number;
}

function weigh(web: BuiltWeb, names: Iterable<string>): Weight {
  const weight: Weight = { files: 0, raw: 0, gzip: 0, br: 0 };
  for (const name of names) {
    const file = path.join(web.assets, name);
    weight.files += 1;
    weight.raw += statSync(file).size;
    weight.gzip += servedBytes(file, 'gzip');
    weight.br += servedBytes(file, 'br');
  }
  return weight;
}

function fail(message: string): never {
  throw new Error(message);
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

async function main(): Promise<void> {
  const enforce = process.argv.includes('--enforce');
  await withBuiltWeb((web) => {
    if (web.entryScripts.length === 0) throw new Error('cannot find the entry script in index.html');
    console.log('JavaScript loaded before the page shows (entry, the chunks after it and their static imports):');
    let over = false;
    for (const { route, chunks, budget } of ROUTES) {
      const found = chunks.map((name) => web.pageChunk(name) ?? fail(`cannot find the ${name} chunk in the build`));
      const scripts = weigh(web, closure(web.assets, [...web.entryScripts, ...found]));
      const line = `${route.padEnd(17)} ${String(scripts.files).padStart(2)} scripts, ${kB(scripts.raw)} raw, ${kB(scripts.gzip)} gzip, ${kB(scripts.br)} br`;
      if (budget === undefined) {
        console.log(line);
        continue;
      }
      const verdict =
        scripts.gzip <= budget
          ? `within the ${kB(budget)} gzip budget (${kB(budget - scripts.gzip)} to spare)`
          : `OVER the ${kB(budget)} gzip budget by ${kB(scripts.gzip - budget)}`;
      if (scripts.gzip > budget) over = true;
      console.log(`${line}: ${verdict}`);
    }
    const styles = weigh(web, web.entryStyles);
    console.log(`entry CSS (not in the budget): ${kB(styles.raw)} raw, ${kB(styles.gzip)} gzip, ${kB(styles.br)} br`);
    if (over && enforce) process.exitCode = 1;
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
