/**
 * The register stays as fast online as before it could be taken offline (decisions 46 and 47): a
 * register page's save as the outbox sends it (an Idempotency-Key, If-Match with the register's
 * revision, and markedAt) against the plain save the page sent before (the same body without
 * them), in one run, as a ratio.
 *
 *   npx tsx bench/register-sync.ts              3 measures of 300 saves of each kind; writes bench/RESULTS.md
 *   npx tsx bench/register-sync.ts --saves 50 --repeats 1   a quick look, printed only (unless --write)
 *
 * Starts the portal as `npm start` does (the server's build) on a new embedded data folder with
 * the demo data, or on a scratch database on the PostgreSQL server at BENCH_DATABASE_URL when set
 * (created and dropped here), and signs in as the demo faculty. Then one save after the other,
 * as one faculty member saves: today's whole-day register of CSE1 plainly and CSE2's through the
 * sync headers (both 60 students), in turns, the order of each turn swapped every turn, so that
 * both kinds meet the machine in the same state. Each turn sets both registers to the same new
 * pattern, so that both saves change the same marks (about one in seven). The sync save's
 * If-Match is the ETag of its previous answer, as the page keeps it; its key is new each time and
 * its answer is kept by the server (the idempotency table grows as it does in use). Every request
 * carries a browser's Accept-Encoding (decision 26). The outbox's own work on the device (the
 * save written in IndexedDB before the request and removed after it) is not in these figures.
 *
 * Each measure is a warm-up of 30 turns and then `--saves` turns; the figures are the medians of
 * the measures' figures. The target: the sync save's median and p95 within 1.2x of the plain
 * save's. Not part of `npm test`: figures depend on the machine.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ensureServerBuild } from '../scripts/build-server.mjs';
import { DEMO_FACULTY } from '../src/server/seed/demo';
import { freePort } from '../src/server/test/free-port';
import { todayIn } from '../src/shared/dates';
import { argument, option } from './args';
import { scratchFolder } from './children';
import { median } from './median';
import { scratchPostgres, startPortalProcess, stopPortalProcess } from './portal';
import { machineLine, runDate, writeResultsSection } from './results-file';

const SAVES = option('saves', 300);
const REPEATS = option('repeats', 3);
const WARM_UP = 30;
const TARGET_RATIO = 1.2;
const TIME_ZONE = 'UTC';
const WRITE = process.argv.includes('--write') || (argument('saves') === undefined && argument('repeats') === undefined);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL || undefined;
/** What every browser sends (decision 26). */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };


interface Figures {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}

function figures(times: number[]): Figures {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), mean: sorted.reduce((sum, time) => sum + time, 0) / sorted.length };
}

/** A scratch database on BENCH_DATABASE_URL's server, or a new embedded data folder. */
async function scratchDatabase(): Promise<{ env: Record<string, string>; describe: string; drop: () => Promise<void> }> {
  if (!POSTGRES_URL) {
    const folder = scratchFolder('portal-register-sync-');
    return { env: { PORTAL_DATA_DIR: path.join(folder, 'data'), DATABASE_URL: '' }, describe: 'the embedded database (PGlite)', drop: async () => undefined };
  }
  const scratch = await scratchPostgres(POSTGRES_URL, 'portal_sync_bench');
  return { env: { DATABASE_URL: scratch.url }, describe: 'PostgreSQL', drop: () => scratch.drop() };
}

interface Register {
  records: { pin: string }[];
}

async function main(): Promise<void> {
  const { entry } = await ensureServerBuild();
  const scratch = await scratchDatabase();
  let portal: ChildProcess | undefined;
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // The demo data.
    portal = await startPortalProcess(entry, { env: { ...scratch.env, PORTAL_DEMO: 'true', PORTAL_TIMEZONE: TIME_ZONE }, port });
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO_FACULTY.email, password: DEMO_FACULTY.password, role: 'faculty', remember: false }),
    });
    const cookie = login.headers.getSetCookie().find((value) => value.startsWith('portal_session='))?.split(';')[0];
    if (!login.ok || !cookie) throw new Error(`sign-in failed: ${login.status}`);
    const date = todayIn(TIME_ZONE);
    const headers = { ...BROWSER_HEADERS, cookie, 'content-type': 'application/json' };

    const open = async (className: string) => {
      const response = await fetch(`${base}/api/attendance/${className}/${date}`, { headers });
      if (!response.ok) throw new Error(`GET the register of ${className}: ${response.status}`);
      return { pins: ((await response.json()) as Register).records.map((record) => record.pin), etag: response.headers.get('etag')! };
    };
    const plain = await open('CSE1');
    const synced = await open('CSE2');
    if (plain.pins.length !== synced.pins.length) throw new Error(`CSE1 has ${plain.pins.length} students and CSE2 ${synced.pins.length}: not the same save`);
    let revision = synced.etag;

    const recordsOf = (pins: string[], turn: number) => pins.map((pin, index) => ({ pin, status: (index + turn) % 7 === 0 ? 'absent' : 'present' }));
    /** One save, timed from the request to the whole answer read. */
    const timed = async (className: string, body: unknown, extra: Record<string, string>) => {
      const started = performance.now();
      const response = await fetch(`${base}/api/attendance/${className}/${date}`, { method: 'PUT', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
      await response.arrayBuffer();
      const ms = performance.now() - started;
      if (response.status !== 200) throw new Error(`a save of ${className} answered ${response.status}`);
      return { ms, etag: response.headers.get('etag') };
    };
    const savePlain = async (turn: number) => (await timed('CSE1', { records: recordsOf(plain.pins, turn) }, {})).ms;
    const saveSynced = async (turn: number) => {
      const body = { records: recordsOf(synced.pins, turn), markedAt: new Date().toISOString() };
      const answer = await timed('CSE2', body, { 'idempotency-key': randomUUID(), 'if-match': revision });
      if (!answer.etag) throw new Error('a synced save answered without an ETag');
      revision = answer.etag;
      return answer.ms;
    };

    let turn = 0;
    const measure = async (saves: number) => {
      const times = { plain: [] as number[], synced: [] as number[] };
      for (let index = 0; index < saves; index += 1) {
        turn += 1;
        // The order swapped every turn: neither kind always goes first after the other.
        if (turn % 2 === 0) {
          times.plain.push(await savePlain(turn));
          times.synced.push(await saveSynced(turn));
        } else {
          times.synced.push(await saveSynced(turn));
          times.plain.push(await savePlain(turn));
        }
      }
      return { plain: figures(times.plain), synced: figures(times.synced) };
    };

    const measures: { plain: Figures; synced: Figures }[] = [];
    for (let repeat = 0; repeat < REPEATS; repeat += 1) {
      await measure(WARM_UP);
      const result = await measure(SAVES);
      measures.push(result);
      console.log(
        `measure ${repeat + 1}: plain p50 ${result.plain.p50.toFixed(2)} ms p95 ${result.plain.p95.toFixed(2)} ms; ` +
          `with the sync headers p50 ${result.synced.p50.toFixed(2)} ms p95 ${result.synced.p95.toFixed(2)} ms`,
      );
    }
    const pick = (kind: 'plain' | 'synced', key: keyof Figures) => median(measures.map((result) => result[kind][key]));
    const ratio = (key: keyof Figures) => median(measures.map((result) => result.synced[key] / result.plain[key]));
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    const mark = (value: number) => (value <= TARGET_RATIO ? 'met' : '**not met**');
    const lines = [
      '| save of a 60-student register | p50 | p95 | p99 | mean |',
      '|---|---:|---:|---:|---:|',
      `| plain (no Idempotency-Key, If-Match or markedAt) | ${ms(pick('plain', 'p50'))} | ${ms(pick('plain', 'p95'))} | ${ms(pick('plain', 'p99'))} | ${ms(pick('plain', 'mean'))} |`,
      `| as the outbox sends it (Idempotency-Key, If-Match, markedAt) | ${ms(pick('synced', 'p50'))} | ${ms(pick('synced', 'p95'))} | ${ms(pick('synced', 'p99'))} | ${ms(pick('synced', 'mean'))} |`,
      `| ratio | ${ratio('p50').toFixed(2)}x | ${ratio('p95').toFixed(2)}x | ${ratio('p99').toFixed(2)}x | ${ratio('mean').toFixed(2)}x |`,
    ];
    const section = [
      '## A register save with the sync headers against a plain one',
      '',
      `\`npx tsx bench/register-sync.ts\` on ${runDate()}: the built server on ${scratch.describe} with the demo data, one save after the other ` +
        `from this process, the two kinds in turns; ${REPEATS === 1 ? 'one measure' : `the medians of ${REPEATS} measures`} of ${SAVES} saves of each kind ` +
        `(each after ${WARM_UP} of each to warm up), the ratios the medians of each measure's; ${machineLine()}.`,
      '',
      lines.join('\n'),
      '',
      `- with the sync headers against plain, target within ${TARGET_RATIO}x: p50 ${ratio('p50').toFixed(2)}x (${mark(ratio('p50'))}), ` +
        `p95 ${ratio('p95').toFixed(2)}x (${mark(ratio('p95'))})`,
    ].join('\n');
    console.log(`\n${section}`);
    if (WRITE) console.log(`\nwritten to ${path.relative(process.cwd(), writeResultsSection('register-sync', section))}`);
    if (ratio('p50') > TARGET_RATIO || ratio('p95') > TARGET_RATIO) process.exitCode = 1;
  } finally {
    await stopPortalProcess(portal);
    await scratch.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
