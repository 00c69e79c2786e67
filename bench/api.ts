/**
 * The API under load, against the portal's speed budgets (listed at the top of bench/RESULTS.md):
 * one table from one run.
 *
 *   npx tsx bench/api.ts                              every size on PGlite, and on PostgreSQL when
 *                                                     BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set:
 *                                                     a scratch database is created on that server and
 *                                                     dropped afterwards. Writes bench/RESULTS.md.
 *   npx tsx bench/api.ts --sizes demo,1m --engines pglite --duration 5     a part, printed only
 *   npx tsx bench/api.ts --repeats 1                  one measure per line instead of the median of three
 *   npx tsx bench/api.ts --sizes demo --write                             a part, written too
 *
 * Each scenario fills a new database (the demo data, or `portal demo-data --marks N`), starts
 * the portal on it in a child process as `npm start` does (the server's build), signs in as the
 * demo faculty and drives it with autocannon from this process: the bare route (a Fastify route
 * answering a constant, in its own process: the ceiling of this machine at that moment, measured
 * in each scenario and the base of its ratios), health, the dashboard,
 * students below 75%, a student's record (first page), each twice: as repeated reads that nothing
 * changed (answered from the report cache) and computed (a query parameter the route ignores makes
 * each request a cache miss, whose answer the cache does not keep); then saving a 60-student register again and again, one save at a
 * time. Each line is a 1 s warm-up and three 5 s measures, and its req/s, p50 and p99 are their
 * medians. Every request carries a browser's `Accept-Encoding` (BROWSER_HEADERS): the reports are
 * read by the web app, so answers of 1 KB or more are measured compressed, as browsers get them
 * (decision 26). Idle memory is the server's resident size once started and signed in, before any
 * load. The read targets, set at 10M marks, are judged on the 10M lines (PostgreSQL's); PGlite's
 * largest size is printed beside them for information, and judged against PostgreSQL (decision 26).
 * Not part of `npm test`: figures depend on the machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { ensureServerBuild } from '../scripts/build-server.mjs';
import { openDatabase, type Database } from '../src/server/db/client';
import { seedDemo, DEMO_FACULTY } from '../src/server/seed/demo';
import { seedSynthetic } from '../src/server/seed/synthetic';
import { todayIn } from '../src/shared/dates';
import { argument, option, positiveNumber } from './args';
import { scratchFolder, stopOnExit } from './children';
import { freePort } from '../src/server/test/free-port';
import { median } from './median';
import { scratchPostgres, startPortalProcess, stopPortalProcess } from './portal';
import { machineLine, runDate, writeResultsSection } from './results-file';

const TIME_ZONE = 'UTC';
const SIZES = { demo: 0, '1m': 1_000_000, '10m': 10_000_000 } as const;
type Size = keyof typeof SIZES;
type Engine = 'pg' | 'pglite';

/**
 * The portal's speed budgets: a report's p99 at most 20 ms at 10M marks and within 1.5x of its
 * demo-size figure; a cached read at least 25% of the bare route's throughput; a 60-student save's
 * p99 at most 30 ms; PGlite within 2x of PostgreSQL; an idle server at most 150 MB on PostgreSQL
 * and 300 MB on PGlite.
 */
const TARGETS = {
  readP99Ms: 20,
  readGrowth: 1.5,
  cachedShareOfBare: 0.25,
  saveP99Ms: 30,
  pgliteVsPg: 2,
  idleMbPg: 150,
  idleMbPglite: 300,
};

/** Seconds per measure (fractions allowed, for a quick look). */
const DURATION = positiveNumber('duration', 5);
/**
 * Each line is measured this many times in a row, and its figures are the medians (each figure's
 * own): on two cores shared with the load generator and the database, one 5 s measure's p99 moved
 * by half from run to run, more than the targets' margins (a p99 of 1 or 2 ms is read in whole ms).
 */
const REPEATS = option('repeats', 3);
/** The whole table (every size, every engine) is written to RESULTS.md; a partial one when asked. */
const WRITE = process.argv.includes('--write') || (argument('sizes') === undefined && argument('engines') === undefined);

/** The PostgreSQL server for the scratch databases. */
const POSTGRES_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

interface Row {
  scenario: string;
  engine: Engine;
  size: Size;
  marks: number;
  name: string;
  measure: Measure;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Load {
  url: string;
  method?: 'GET' | 'PUT';
  headers?: Record<string, string>;
  connections?: number;
  /** A new body or path per request. */
  setupRequest?: (request: autocannon.Request) => autocannon.Request;
}

/** What every browser sends: the answers come as the web app gets them (decision 26). */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };

async function load({ url, method = 'GET', headers = {}, connections = 10, setupRequest }: Load, seconds = DURATION): Promise<Measure> {
  const run = (duration: number) =>
    autocannon({
      url,
      method,
      headers: { ...BROWSER_HEADERS, ...headers },
      connections,
      duration,
      ...(setupRequest ? { requests: [{ setupRequest }] } : {}),
    });
  await run(1); // warm-up: plans, caches, JIT
  const results: autocannon.Result[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat += 1) results.push(await run(seconds));
  return {
    rps: median(results.map((result) => result.requests.average)),
    p50: median(results.map((result) => result.latency.p50)),
    p99: median(results.map((result) => result.latency.p99)),
    errors: results.reduce((sum, result) => sum + result.errors + result.timeouts + result.non2xx, 0),
  };
}

const BARE_ROUTE = 'bare Fastify route';

/**
 * A Fastify route answering a constant, in its own process: what this machine can do at most.
 * Measured in each scenario, just before its requests (the portal idle meanwhile), so that each
 * request is compared with the machine as it is at that moment: a long run drifts.
 */
async function startBareRoute(): Promise<{ measure: () => Promise<Measure>; stop: () => void }> {
  const port = await freePort();
  const code = `
    import Fastify from 'fastify';
    const app = Fastify();
    app.get('/', async () => ({ hello: 'world' }));
    await app.listen({ port: ${port}, host: '127.0.0.1' });
    console.log('ready');`;
  const child = stopOnExit(spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] }));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (exitCode) => reject(new Error(`the bare route exited (${exitCode})`)));
  });
  return { measure: () => load({ url: `http://127.0.0.1:${port}/` }), stop: () => child.kill() };
}

interface Scratch {
  database: Database;
  /** The server's environment for this database. */
  env: Record<string, string>;
  describe: string;
  drop(): Promise<void>;
}

async function scratchDatabase(engine: Engine): Promise<Scratch> {
  if (engine === 'pglite') {
    const folder = scratchFolder('portal-bench-');
    const dataDir = path.join(folder, 'data');
    const database = await openDatabase({ dataDir });
    return {
      database,
      env: { PORTAL_DATA_DIR: dataDir, DATABASE_URL: '' },
      describe: 'PGlite',
      async drop() {
        rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const scratch = await scratchPostgres(POSTGRES_URL!, 'portal_bench');
  const database = await openDatabase({ databaseUrl: scratch.url });
  return { database, env: { DATABASE_URL: scratch.url }, describe: 'PostgreSQL', drop: () => scratch.drop() };
}

/** Resident memory of a process, in MB (Linux). */
function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_FACULTY.email, password: DEMO_FACULTY.password, role: 'faculty', remember: false }),
  });
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('portal_session='));
  if (!response.ok || !cookie) throw new Error(`sign-in failed: ${response.status}`);
  return cookie.split(';')[0]!;
}

async function runScenario(engine: Engine, size: Size, entry: string, bare: () => Promise<Measure>, rows: Row[], memory: Map<string, number>): Promise<void> {
  const scratch = await scratchDatabase(engine);
  let server: ChildProcess | undefined;
  const scenario = `${scratch.describe}, ${size === 'demo' ? 'demo data' : `${size.toUpperCase()} marks`}`;
  try {
    const seedStart = performance.now();
    const { db } = scratch.database;
    if (size === 'demo') await seedDemo(db, TIME_ZONE);
    // The eight demo classes with a whole-day register a day, as far back as the marks go: the shape
    // this benchmark's figures have always been measured on (bench/rush.ts runs a university's term).
    else await seedSynthetic(db, { marks: SIZES[size], classes: 8, periods: 0, timeZone: TIME_ZONE });
    const rowsOf = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    const marks = Number((await rowsOf<{ n: number }>(sql`select count(*)::int as n from attendance_marks`))[0]!.n);
    const pin = String((await rowsOf<{ pin: string }>(sql`select pin from students where class_name = 'CSE3' order by pin limit 1`))[0]!.pin);
    const roster = (await rowsOf<{ pin: string }>(sql`select pin from students where class_name = 'CSE1' order by pin`)).map((row) => String(row.pin));
    // Vacuumed as well as analyzed: millions of rows written in one transaction would otherwise
    // bring the database's autovacuum (and the first readers' hint-bit writes) through them while
    // the first lines are measured, on the same two cores; a portal in use is past that.
    await db.execute(sql`vacuum analyze`);
    await scratch.database.close();
    console.log(`\n${scenario}: ${marks.toLocaleString('en')} marks, seeded in ${((performance.now() - seedStart) / 1000).toFixed(0)} s`);

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = await startPortalProcess(entry, { env: { ...scratch.env, PORTAL_DEMO: 'false' }, port, timeoutMs: 120_000 });
    const cookie = await signIn(base);
    await delay(2000);
    memory.set(scenario, residentMb(server.pid!));

    const add = (name: string, measure: Measure) => {
      rows.push({ scenario, engine, size, marks, name, measure });
      console.log(`  ${name.padEnd(34)} ${measure.rps.toFixed(0).padStart(7)} req/s  p50 ${measure.p50} ms  p99 ${measure.p99} ms${measure.errors ? `  ${measure.errors} ERRORS` : ''}`);
    };
    const headers = { cookie };
    add(BARE_ROUTE, await bare());
    add('health', await load({ url: `${base}/api/health` }));
    const reads = [
      ['dashboard', '/api/reports/dashboard'],
      ['below 75%', '/api/reports/students?below=75'],
      ['student record', `/api/students/${pin}`],
    ] as const;
    for (const [name, url] of reads) {
      add(`${name}, unchanged (cached)`, await load({ url: `${base}${url}`, headers }));
      let miss = 0;
      const separator = url.includes('?') ? '&' : '?';
      add(
        `${name}, computed`,
        await load({
          url: `${base}${url}`,
          headers,
          setupRequest: (request) => ({ ...request, path: `${url}${separator}bench=${(miss += 1)}` }),
        }),
      );
    }
    // Today's register of CSE1 (the synthetic history ends yesterday), saved again and again with
    // a new pattern each time: every save changes marks, counters and the data version.
    const date = todayIn(TIME_ZONE);
    let save = 0;
    add(
      'save a 60-student register',
      await load({
        url: `${base}/api/attendance/CSE1/${date}`,
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        connections: 1,
        setupRequest: (request) => {
          save += 1;
          const records = roster.map((studentPin, index) => ({ pin: studentPin, status: (index + save) % 7 === 0 ? 'absent' : 'present' }));
          return { ...request, body: JSON.stringify({ records }) };
        },
      }),
    );
  } finally {
    await stopPortalProcess(server);
    await scratch.drop();
  }
}

function machine(postgres: string | undefined): string {
  return [
    `- ${machineLine()}`,
    `- ${postgres ?? 'no PostgreSQL'}; PGlite in a data folder on the local disk`,
    `- autocannon on the same machine: 10 connections for reads, 1 for saves; ${DURATION} s per measure after a 1 s warm-up, ${REPEATS} measures per line and their medians`,
    `- every request asks as a browser does (\`Accept-Encoding: ${BROWSER_HEADERS['accept-encoding']}\`): answers of 1 KB or more come compressed (br)`,
  ].join('\n');
}

/** The scenario's own measure of the bare route. */
function bareOf(rows: Row[], scenario: string): Measure {
  const bare = rows.find((row) => row.scenario === scenario && row.name === BARE_ROUTE);
  if (!bare) throw new Error(`no bare route measured for ${scenario}`);
  return bare.measure;
}

function table(rows: Row[]): string {
  const lines = ['| scenario | request | req/s | p50 ms | p99 ms | of bare route |', '|---|---|---:|---:|---:|---:|'];
  for (const row of rows) {
    const share = `${((row.measure.rps / bareOf(rows, row.scenario).rps) * 100).toFixed(1)}%`;
    const errors = row.measure.errors ? ` (${row.measure.errors} errors)` : '';
    lines.push(`| ${row.scenario} | ${row.name}${errors} | ${row.measure.rps.toFixed(0)} | ${row.measure.p50} | ${row.measure.p99} | ${share} |`);
  }
  return lines.join('\n');
}

function verdicts(rows: Row[], memory: Map<string, number>): string[] {
  const find = (engine: Engine, size: Size, name: string) => rows.find((row) => row.engine === engine && row.size === size && row.name === name);
  const out: string[] = [];
  const mark = (ok: boolean) => (ok ? 'met' : '**not met**');
  const reads = ['dashboard', 'below 75%', 'student record'];
  const largest = (engine: Engine) => (['10m', '1m'] as const).find((size) => rows.some((row) => row.engine === engine && row.size === size));
  // The read targets are set at 10M marks, which only PostgreSQL is run at. A run without
  // any 10M line (a part) judges each engine's largest size instead, as a stand-in; in a run with
  // them, PGlite's largest size (1M) is printed for information and judged against PostgreSQL below.
  const judged = rows.some((row) => row.size === '10m');
  for (const engine of ['pg', 'pglite'] as const) {
    const size = largest(engine);
    if (!size) continue;
    const verdict = !judged || size === '10m';
    for (const read of reads) {
      for (const kind of ['unchanged (cached)', 'computed']) {
        const big = find(engine, size, `${read}, ${kind}`);
        const demo = find(engine, 'demo', `${read}, ${kind}`);
        if (!big) continue;
        const growth = demo ? big.measure.p99 / Math.max(1, demo.measure.p99) : Number.NaN;
        out.push(
          verdict
            ? `- ${big.scenario}, ${read}, ${kind}: p99 ${big.measure.p99} ms (target <= ${TARGETS.readP99Ms}: ${mark(big.measure.p99 <= TARGETS.readP99Ms)}), ` +
                `${growth.toFixed(2)}x the demo-size p99 (target <= ${TARGETS.readGrowth}x, p99 under 1 ms counted as 1 ms: ${mark(growth <= TARGETS.readGrowth)})` +
                (size === '10m' ? '' : ' (this run has no 10M lines: its largest size stands in)')
            : `- ${big.scenario}, ${read}, ${kind}: p99 ${big.measure.p99} ms, ${growth.toFixed(2)}x the demo-size p99 ` +
                `(for information: the target is ${TARGETS.readP99Ms} ms and ${TARGETS.readGrowth}x at 10M marks, run on PostgreSQL only)`,
        );
      }
    }
  }
  for (const row of rows.filter((r) => r.name.endsWith('(cached)'))) {
    const share = row.measure.rps / bareOf(rows, row.scenario).rps;
    out.push(`- ${row.scenario}, ${row.name}: ${(share * 100).toFixed(1)}% of the bare route measured in the same scenario (target >= 25%: ${mark(share >= TARGETS.cachedShareOfBare)})`);
  }
  for (const row of rows.filter((r) => r.name.startsWith('save'))) {
    out.push(`- ${row.scenario}, ${row.name}: p99 ${row.measure.p99} ms (target <= ${TARGETS.saveP99Ms}: ${mark(row.measure.p99 <= TARGETS.saveP99Ms)})`);
  }
  for (const size of ['demo', '1m'] as const) {
    for (const row of rows.filter((r) => r.engine === 'pglite' && r.size === size && r.name !== 'health' && r.name !== BARE_ROUTE)) {
      const postgres = find('pg', size, row.name);
      if (!postgres) continue;
      const ratio = row.measure.p99 / Math.max(1, postgres.measure.p99);
      out.push(`- ${row.scenario}, ${row.name}: p99 ${ratio.toFixed(2)}x PostgreSQL's (target <= ${TARGETS.pgliteVsPg}x: ${mark(ratio <= TARGETS.pgliteVsPg)})`);
    }
  }
  for (const [scenario, mb] of memory) {
    const limit = scenario.startsWith('PGlite') ? TARGETS.idleMbPglite : TARGETS.idleMbPg;
    out.push(`- ${scenario}: idle server memory ${mb.toFixed(0)} MB resident (target <= ${limit} MB: ${mark(mb <= limit)})`);
  }
  return out;
}

async function postgresVersion(): Promise<string | undefined> {
  const url = POSTGRES_URL;
  if (!url) return undefined;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ server_version: string }>('show server_version');
  await client.end();
  return `PostgreSQL ${rows[0]!.server_version} on the same machine`;
}

async function main(): Promise<void> {
  const sizes = (argument('sizes') ?? 'demo,1m,10m').split(',') as Size[];
  const engines = (argument('engines') ?? 'pg,pglite').split(',') as Engine[];
  for (const size of sizes) if (!(size in SIZES)) throw new Error(`--sizes takes demo, 1m and 10m, not ${size}`);
  const postgres = await postgresVersion();
  const scenarios: Array<[Engine, Size]> = [];
  for (const engine of engines) {
    if (engine === 'pg' && !postgres) {
      console.log('Neither BENCH_DATABASE_URL nor TEST_DATABASE_URL is set: the PostgreSQL scenarios are left out.');
      continue;
    }
    // PGlite stops at a million marks: ten million take it far beyond its purpose (one small server).
    for (const size of sizes) if (!(engine === 'pglite' && size === '10m')) scenarios.push([engine, size]);
  }

  const { entry } = await ensureServerBuild();
  console.log(`API benchmark, ${DURATION} s per measure after a 1 s warm-up, the medians of ${REPEATS} measures per line.`);
  const bare = await startBareRoute();
  const rows: Row[] = [];
  const memory = new Map<string, number>();
  try {
    for (const [engine, size] of scenarios) await runScenario(engine, size, entry, bare.measure, rows, memory);
  } finally {
    bare.stop();
  }

  const report = [
    `Machine:\n${machine(postgres)}`,
    table(rows),
    `Idle server memory (resident, after start and one sign-in):\n${[...memory].map(([scenario, mb]) => `- ${scenario}: ${mb.toFixed(0)} MB`).join('\n')}`,
    `Targets:\n${verdicts(rows, memory).join('\n')}`,
  ].join('\n\n');
  console.log(`\n${report}`);
  if (WRITE) {
    const section = [
      `## The API under load`,
      '',
      `\`npx tsx bench/api.ts\` on ${runDate()}. Reads "unchanged" repeat a request that the report cache answers; ` +
        '"computed" add a query parameter the route ignores, so that each request misses the cache and reads the counters (the cache keeps no answer to such a query).',
      '',
      report,
    ].join('\n');
    console.log(`\nwritten to ${path.relative(process.cwd(), writeResultsSection('api', section))}`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
