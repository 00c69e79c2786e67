/**
 * The morning rush: three portal processes behind nginx (the shipped proxy rules) on one
 * PostgreSQL database, at demo size and on a large university's term, in one run.
 *
 *   npx tsx bench/rush.ts                          demo data, then `portal demo-data --marks 36000000`
 *                                                  (some 50,000 students, 8 lectures a day, 90 days);
 *                                                  writes bench/RESULTS.md
 *   npx tsx bench/rush.ts --rush-marks 1000000     a smaller term for a quick run (printed only,
 *                                                  unless --write)
 *   --rush-seconds 60   the rush's length; --rush-idle-seconds 20   reads alone, saves alone, and flat out;
 *   --rush-savers 6   faculty saving at once; --rush-saves 17   the rush's saves a second (ten times
 *                     the busiest need of 50,000 students)
 *   --rush-dashboard-reads 10, --rush-student-reads 40   the reads a second
 *   --rush-template NAME   the large size copied from database NAME on that server (made earlier with
 *                          `portal demo-data`, then `portal alerts evaluate`, and used by nothing else
 *                          meanwhile) instead of written
 *
 * Needs nginx and a PostgreSQL server at BENCH_DATABASE_URL (or TEST_DATABASE_URL): each size gets
 * a scratch database there, dropped afterwards. Without either the benchmark says so and does nothing.
 *
 * Each size: the data is written, its term's alerts evaluated (as its saves would have opened them,
 * so that a save in the rush opens only what it changes) and vacuumed, the three processes start (the server's build, as
 * `npm start` runs it) and nginx in front of them, faculty and students sign in through the proxy.
 * Then, everything through the proxy:
 *
 * 1. reads with no saves running: students reading their own records and staff reading the
 *    dashboard, each at a fixed rate (the same rates as in 3);
 * 2. one faculty member saving 60-student registers one after the other: a save's own figure;
 * 3. the rush: the same reads, and faculty saving registers continuously, several at once, at a
 *    steady rate of ten times what a 50,000-student university needs at its busiest (17 a second);
 * 4. flat out: the same reads, and the same faculty each saving the next register as soon as the
 *    last is answered: the saves a second the three processes sustain (the reads are printed, not
 *    judged: on a machine whose cores the saves fill, every read waits for a core).
 *
 * The saves are lecture registers, class after class, period after period: today's, then those of
 * the term's earlier days that have none (new registers, at both sizes); once every one is taken,
 * they are taken again with every mark turned over. Afterwards every acknowledged save is checked mark for mark in the
 * database, and `portal verify` recomputes every counter from the marks.
 *
 * For the rush, the reads slower than 25 ms are counted at each step of their way: as timed here;
 * as nginx held them (from reading the request to sending the answer's last byte, its log); from
 * nginx passing them on to the processes' answer; and as the portal timed them (its `/metrics`,
 * open on loopback: from when a process took the request up). Beside them, the processes' and this
 * generator's event loop delay. A read slow here and not in nginx waited in this process or the
 * kernel; slow in nginx and not from nginx on, in nginx; slow from nginx on and not in the portal,
 * in a connection or a process before it took the request up.
 *
 * Targets, judged in the run: no error and no acknowledged save lost; each read's p99 in the rush
 * at most 3x its p99 with no saves running, as the proxy times them (nginx's $request_time, to the
 * millisecond; p99 under 1 ms counted as 1 ms), the load generator's own figures printed beside
 * them, not judged: it shares the two cores with the server, as a campus's browsers do not
 * (decision 58); a 60-student save's
 * p99 at the large size at most 1.5x its p99 at demo size. The saves a second the three processes
 * sustain flat out are printed beside what a university of that size needs at its busiest: about
 * 1,000 registers in the ten minutes after a bell (some 1.7 a second).
 * Not part of `npm test`: figures depend on the machine.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { ensureServerBuild } from '../scripts/build-server.mjs';
import { openDatabase, queryRows, type Db } from '../src/server/db/client';
import { addUser } from '../src/server/modules/accounts/service';
import { alertContextOf, evaluateTerm } from '../src/server/modules/alerts/service';
import { CLI } from '../src/server/modules/audit/service';
import { listTerms } from '../src/server/modules/terms/service';
import { createSubject } from '../src/server/modules/subjects/service';
import { seedDemo, DEMO_FACULTY } from '../src/server/seed/demo';
import { seedSynthetic, syntheticSubjectCode, syntheticSubjectIndex } from '../src/server/seed/synthetic';
import { findNginx, startProxy, type Proxy } from '../src/server/test/nginx';
import { todayIn } from '../src/shared/dates';
import { argument, option } from './args';
import { freePort } from '../src/server/test/free-port';
import { scratchPostgres, startPortalProcess, stopPortalProcess } from './portal';
import { machineLine, runDate, writeResultsSection } from './results-file';

const TIME_ZONE = 'UTC';
const LARGE_MARKS = option('rush-marks', 36_000_000);
const RUSH_SECONDS = option('rush-seconds', 60);
/** The reads alone and the saves alone: long enough for a p99 of some thousands of reads and some hundreds of saves. */
const IDLE_SECONDS = option('rush-idle-seconds', 20);
const SAVERS = option('rush-savers', 6);
/** What a university of 50,000 students needs at its busiest: ~1,000 registers in the ten minutes after a bell. */
const NEEDED_SAVES_PER_SECOND = 1000 / 600;
/** The rush's saves a second: ten times that need, steady, whether or not the earlier saves have been answered. */
const RUSH_SAVES_PER_SECOND = option('rush-saves', Math.round(10 * NEEDED_SAVES_PER_SECOND));
/** Requests a second, in both phases: students reading their own records, staff reading the dashboard. */
const STUDENT_READS_PER_SECOND = option('rush-student-reads', 40);
const DASHBOARD_READS_PER_SECOND = option('rush-dashboard-reads', 10);
/** Students who sign in and read their records (each in turn). */
const STUDENT_ACCOUNTS = 30;
const LECTURES = 8;
const WRITE = process.argv.includes('--write') || (argument('rush-marks') === undefined && argument('rush-template') === undefined);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;
const TEMPLATE = argument('rush-template');
if (TEMPLATE !== undefined && !/^[a-z_][a-z0-9_]*$/.test(TEMPLATE)) throw new Error('--rush-template takes the name of a database, such as rush_36m');
const STUDENT_PASSWORD = 'rush-hour-student-2026';

const TARGETS = { readGrowth: 3, saveGrowth: 1.5 };
/** The server's settings that README's "Running in production" sets for the portal, printed with the figures. */
const TUNED_SETTINGS = ['shared_buffers', 'wal_compression', 'max_wal_size', 'checkpoint_timeout'];

/** The reads whose time the portal's own figures are compared with: their routes' patterns in `/metrics`. */
const READ_ROUTES = { 'student record': '/api/students/:pin', dashboard: '/api/reports/dashboard' } as const;
type Read = keyof typeof READ_ROUTES;
/** A read is slow past this (ms): where the portal's histogram has a bucket's edge. */
const SLOW_READ_MS = 25;
/** How often the load generator's event loop monitor runs its timer (ms). */
const GENERATOR_LOOP_RESOLUTION_MS = 5;

/**
 * How many answers of each read the three processes timed within SLOW_READ_MS, in all (their
 * `/metrics`, open on loopback: from when a process took a request up to its answer).
 */
async function readsTimedByThePortal(
  ports: readonly number[],
): Promise<{ counts: Record<Read, { within: number; all: number }>; loopLate: { p99: number; max: number } }> {
  const counts = { 'student record': { within: 0, all: 0 }, dashboard: { within: 0, all: 0 } };
  // Each process's event loop lateness since its previous scrape (ms): the worst process's.
  const loopLate = { p99: 0, max: 0 };
  const edge = String(SLOW_READ_MS / 1000);
  for (const port of ports) {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    if (!response.ok) throw new Error(`the portal on port ${port} answered ${response.status} for its /metrics`);
    const text = await response.text();
    if (!text.includes(`le="${edge}"`)) throw new Error(`the portal's request times have no bucket at ${SLOW_READ_MS} ms`);
    for (const line of text.split('\n')) {
      const late = /^portal_event_loop_delay_seconds\{quantile="(0\.99|1)"\} (\S+)$/.exec(line);
      if (late) {
        const key = late[1] === '1' ? 'max' : 'p99';
        loopLate[key] = Math.max(loopLate[key], Number(late[2]) * 1000);
      }
      const bucket = /^portal_http_request_duration_seconds_bucket\{(.*)\} (\d+)$/.exec(line);
      if (!bucket) continue;
      const labels = Object.fromEntries([...bucket[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]));
      const read = (Object.keys(READ_ROUTES) as Read[]).find((name) => READ_ROUTES[name] === labels.route);
      if (!read || labels.method !== 'GET') continue;
      if (labels.le === edge) counts[read].within += Number(bucket[2]);
      if (labels.le === '+Inf') counts[read].all += Number(bucket[2]);
    }
  }
  return { counts, loopLate };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Figures {
  count: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/** Latencies of one kind of request in one phase. */
class Recorder {
  private readonly times: number[] = [];
  errors = 0;
  readonly errorSamples: string[] = [];
  private started = performance.now();
  private ended: number | undefined;

  start(): void {
    this.started = performance.now();
  }

  stop(): void {
    this.ended = performance.now();
  }

  add(ms: number): void {
    this.times.push(ms);
  }

  /** How many took longer than `ms`. */
  over(ms: number): number {
    return this.times.filter((time) => time > ms).length;
  }

  fail(what: string): void {
    this.errors += 1;
    if (this.errorSamples.length < 5) this.errorSamples.push(what);
  }

  figures(): Figures {
    return figuresOf(this.times, ((this.ended ?? performance.now()) - this.started) / 1000, this.errors);
  }
}

function figuresOf(times: readonly number[], seconds: number, errors = 0): Figures {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (share: number) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!);
  return { count: sorted.length, errors, perSecond: sorted.length / seconds, p50: at(0.5), p99: at(0.99) };
}

interface Session {
  cookie: string;
  pin?: string;
}

async function signIn(address: string, email: string, password: string, role: 'faculty' | 'student'): Promise<string> {
  const response = await fetch(`${address}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: address },
    body: JSON.stringify({ email, password, role, remember: false }),
  });
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('portal_session='));
  if (!response.ok || !cookie) throw new Error(`sign-in of ${email} failed: ${response.status} ${await response.text()}`);
  return cookie.split(';')[0]!;
}

/** GETs `url` and records its time, or an error for anything but 200 (and 304). */
async function timedGet(url: string, cookie: string, into: Recorder): Promise<void> {
  const started = performance.now();
  try {
    const response = await fetch(url, { headers: { cookie, 'accept-encoding': 'gzip, deflate, br' } });
    await response.arrayBuffer();
    if (response.status !== 200 && response.status !== 304) into.fail(`${response.status} ${url}`);
    else into.add(performance.now() - started);
  } catch (err) {
    into.fail(`${url}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Requests at a fixed rate for `seconds`, whether or not the earlier ones have been answered (the
 * readers do not slow down when the portal does), with at most 200 under way.
 */
async function paced(perSecond: number, seconds: number, request: (index: number) => Promise<void>): Promise<number> {
  const interval = 1000 / perSecond;
  const started = performance.now();
  const pending = new Set<Promise<void>>();
  let skipped = 0;
  for (let index = 0; ; index += 1) {
    const due = started + index * interval;
    if (due - started >= seconds * 1000) break;
    const wait = due - performance.now();
    if (wait > 0) await delay(wait);
    if (pending.size >= 200) {
      skipped += 1;
      continue;
    }
    const promise = request(index).finally(() => pending.delete(promise));
    pending.add(promise);
  }
  await Promise.all(pending);
  return skipped;
}

/** A register save: which, and the statuses it sent (one per roster PIN, in roster order). */
interface Save {
  className: string;
  date: string;
  period: number;
  /** How many times this register had been saved before in this run. */
  round: number;
}

/** The statuses of a save: a pattern per register and round, every mark turned over from one round to the next. */
function statusesOf(save: Save, roster: readonly string[]): { pin: string; status: 'present' | 'absent' }[] {
  return roster.map((pin, index) => {
    const absent = (index + save.period) % 7 === 0;
    return { pin, status: absent !== (save.round % 2 === 1) ? 'absent' : 'present' };
  });
}

interface Scenario {
  name: string;
  marks: number;
  students: number;
  /** The saves, by kind of load. */
  saveAlone: Figures;
  rush: Record<'save' | 'student record' | 'dashboard', Figures>;
  /** The same faculty saving flat out, with the same reads. */
  flatOut: Record<'save' | 'student record' | 'dashboard', Figures>;
  idle: Record<'student record' | 'dashboard', Figures>;
  /**
   * Where the rush's slow reads were slow: those over SLOW_READ_MS here, and those the portal
   * itself took longer than that over (its own figures); the load generator's event loop delay.
   */
  rushSlowReads: Record<Read, { here: number; inNginx: number; fromNginx: number; inThePortal: number; all: number }>;
  /** The reads alone and in the rush as nginx timed them (its $request_time), beside this generator's. */
  atTheProxy: Record<'idle' | 'rush', Record<Read, Figures>>;
  /** The slowest process's event loop lateness over the rush (ms). */
  portalLoop: { p99: number; max: number };
  generatorLoop: { p99: number; max: number };
  /** Saves taken again (every mark turned over) rather than new registers, in the rush and by the saver alone. */
  replaced: number;
  replacedAlone: number;
  skippedReads: number;
  /** Saves of the rush not sent because 200 were under way. */
  skippedSaves: number;
  lost: string[];
  verify: { ok: boolean; output: string; seconds: number };
  seedSeconds: number;
  /** Copied from --rush-template rather than written. */
  copied: boolean;
  errorSamples: string[];
}

/**
 * The registers to save, in order: today's lectures, class after class, period after period, then
 * those of the term's earlier days with no register yet, newest first (new registers at every size,
 * as the demo data has eight classes); once all are taken, taken again with every mark turned over.
 */
class RegisterQueue {
  private next = 0;
  private readonly rounds = new Map<string, number>();
  private readonly busy = new Set<string>();
  /** The last acknowledged save of each register. */
  readonly acknowledged = new Map<string, Save>();
  replaced = 0;

  constructor(
    private readonly classes: readonly string[],
    private readonly dates: readonly string[],
  ) {}

  take(): Save {
    const perDate = this.classes.length * LECTURES;
    for (;;) {
      const slot = this.next % (perDate * this.dates.length);
      this.next += 1;
      const date = this.dates[Math.floor(slot / perDate)]!;
      const className = this.classes[slot % this.classes.length]!;
      const period = 1 + Math.floor((slot % perDate) / this.classes.length);
      const key = registerKey({ className, date, period });
      if (this.busy.has(key)) continue;
      this.busy.add(key);
      const round = this.rounds.get(key) ?? 0;
      this.rounds.set(key, round + 1);
      if (round > 0) this.replaced += 1;
      return { className, date, period, round };
    }
  }

  done(save: Save, ok: boolean): void {
    const key = registerKey(save);
    this.busy.delete(key);
    // Saves of one register never overlap (busy), so the last acknowledged is the one stored.
    if (ok) this.acknowledged.set(key, save);
  }
}

const registerKey = (register: { className: string; date: string; period: number }) => `${register.className} ${register.date} ${register.period}`;

interface Portal {
  proxy: Proxy;
  processes: ChildProcess[];
  ports: number[];
  /** nginx's line per answer through the balancing address (startProxy's `timingLog`). */
  timingLog: string;
}

/**
 * The reads nginx finished between `from` and `to` (epoch seconds), as nginx timed them: how long
 * it held each ($request_time: from reading the request to sending the answer's last byte, in ms),
 * how many it held longer than SLOW_READ_MS, and how many the processes took longer than that to
 * answer ($upstream_response_time: from passing the request on to the answer's last byte).
 */
function readsTimedByNginx(file: string, from: number, to: number): Record<Read, { times: number[]; inNginx: number; fromNginx: number }> {
  const reads = { 'student record': { times: [] as number[], inNginx: 0, fromNginx: 0 }, dashboard: { times: [] as number[], inNginx: 0, fromNginx: 0 } };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    // $upstream_response_time holds one time per process tried: `0.004, 0.002` (or `0.004 : 0.002`).
    const [at, method, uri, status, held, ...tried] = line.split(' ');
    const upstream = tried.join(' ');
    if (method !== 'GET' || (status !== '200' && status !== '304') || Number(at) < from || Number(at) > to) continue;
    const read: Read | undefined = uri === '/api/reports/dashboard' ? 'dashboard' : uri?.startsWith('/api/students/') ? 'student record' : undefined;
    if (!read) continue;
    reads[read].times.push(Number(held) * 1000);
    if (Number(held) * 1000 > SLOW_READ_MS) reads[read].inNginx += 1;
    // Several processes tried: their times, comma-separated.
    const answered = upstream.split(/\s*[,:]\s*/).reduce((sum, part) => sum + (Number(part) || 0), 0);
    if (answered * 1000 > SLOW_READ_MS) reads[read].fromNginx += 1;
  }
  return reads;
}

async function startPortal(entry: string, databaseUrl: string, nginx: string): Promise<Portal> {
  const secret = randomBytes(32).toString('hex');
  const env = {
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORTAL_SECRET: secret,
    PORTAL_TRUST_PROXY: '127.0.0.1',
    PORTAL_TIMEZONE: TIME_ZONE,
    PORTAL_DEMO: 'false',
  };
  const ports = [await freePort(), await freePort(), await freePort()];
  // Started together, as a deploy starts them: they migrate the database once between them.
  const processes = await Promise.all(ports.map((port) => startPortalProcess(entry, { env, port, ready: '/api/ready', timeoutMs: 600_000 })));
  const timingLog = path.join(mkdtempSync(path.join(tmpdir(), 'portal-rush-')), 'timing.log');
  const proxy = await startProxy(nginx, ports, { timingLog });
  return { proxy, processes, ports, timingLog };
}

async function stopPortal(portal: Portal): Promise<void> {
  await Promise.all(portal.processes.map((child) => stopPortalProcess(child)));
  await portal.proxy.stop();
  rmSync(path.dirname(portal.timingLog), { recursive: true, force: true });
}

/** Adds the subjects of the synthetic timetable where they are missing (the demo data has none). */
async function ensureSubjects(db: Db): Promise<void> {
  const present = new Set((await queryRows<{ code: string }>(db, sql`select code from subjects`)).map((row) => row.code));
  for (let index = 0; index < LECTURES; index += 1) {
    const code = syntheticSubjectCode(index);
    if (!present.has(code)) await createSubject(db, CLI, { code, name: `Subject ${index + 1}` });
  }
}

async function runScenario(name: string, marks: number | 'demo', entry: string, nginx: string): Promise<Scenario> {
  const copied = marks !== 'demo' && TEMPLATE !== undefined;
  const scratch = await scratchPostgres(POSTGRES_URL!, 'portal_rush', copied ? TEMPLATE : undefined);
  const databaseUrl = scratch.url;
  let portal: Portal | undefined;
  try {
    // The data, and the accounts that sign in.
    const seedStart = performance.now();
    const database = await openDatabase({ databaseUrl });
    const { db } = database;
    if (marks === 'demo') await seedDemo(db, TIME_ZONE);
    else if (!copied) await seedSynthetic(db, { marks, periods: LECTURES, timeZone: TIME_ZONE });
    if (!copied) {
      const term = (await listTerms(db, TIME_ZONE)).find((t) => t.current);
      await evaluateTerm(database, await alertContextOf(db, { timeZone: TIME_ZONE })(), term?.id ?? null);
    }
    await ensureSubjects(db);
    // The classes with students (a new database has eight, which a small synthetic term may not fill).
    const classes = (
      await queryRows<{ name: string }>(
        db,
        sql`select c.name from classes c where c.archived_at is null and exists (select 1 from students s where s.class_name = c.name and s.withdrawn_at is null) order by c.position`,
      )
    ).map((row) => row.name);
    const rosters = new Map<string, string[]>(classes.map((className) => [className, []]));
    for (const row of await queryRows<{ pin: string; class_name: string }>(
      db,
      sql`select pin, class_name from students where withdrawn_at is null order by pin collate "C"`,
    )) {
      rosters.get(row.class_name)?.push(row.pin);
    }
    const readerPins = (
      await queryRows<{ pin: string }>(db, sql`select pin from students where pin not in (select pin from users where pin is not null) order by md5(pin) limit ${STUDENT_ACCOUNTS}`)
    ).map((row) => row.pin);
    for (const pin of readerPins) {
      await addUser(db, { email: `${pin.toLowerCase()}@rush.university.edu`, name: `Student ${pin}`, role: 'student', pin, password: STUDENT_PASSWORD });
    }
    const [counts] = await queryRows<{ marks: number; students: number }>(
      db,
      sql`select (select count(*)::int from attendance_marks) as marks, (select count(*)::int from students) as students`,
    );
    // The term's days before today with no register: more new registers to take than today's.
    const today = todayIn(TIME_ZONE);
    const earlierDays = (
      await queryRows<{ date: string }>(
        db,
        sql`select d::date::text as date
              from terms t, generate_series(t.starts_on, ${today}::date - 1, interval '1 day') d
             where t.starts_on <= ${today}::date and t.ends_on >= ${today}::date
               and not exists (select 1 from attendance_sessions s where s.date = d::date)
             order by d desc`,
      )
    ).map((row) => row.date);
    await db.execute(sql`vacuum analyze`);
    await database.close();
    // Everything written so far on disk before anything is measured: a checkpoint (where the
    // benchmark's role may), then the system's own write-back.
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query('checkpoint').catch(() => undefined);
    await admin.end();
    spawnSync('sync');
    const seedSeconds = (performance.now() - seedStart) / 1000;
    console.log(`\n${name}: ${counts!.marks.toLocaleString('en')} marks, ${counts!.students.toLocaleString('en')} students, ${copied ? `copied from ${TEMPLATE}` : 'written'} and vacuumed in ${seedSeconds.toFixed(0)} s`);

    portal = await startPortal(entry, databaseUrl, nginx);
    const base = portal.proxy.balanced;
    const faculty: Session[] = [];
    for (let index = 0; index < SAVERS; index += 1) faculty.push({ cookie: await signIn(base, DEMO_FACULTY.email, DEMO_FACULTY.password, 'faculty') });
    const students: Session[] = [];
    for (const pin of readerPins) students.push({ pin, cookie: await signIn(base, `${pin.toLowerCase()}@rush.university.edu`, STUDENT_PASSWORD, 'student') });
    const staff = faculty[0]!;

    const classIndex = new Map(classes.map((className, index) => [className, index]));
    const queue = new RegisterQueue(classes, [today, ...earlierDays]);
    const errorSamples: string[] = [];
    const save = async (session: Session, into: Recorder) => {
      const next = queue.take();
      const roster = rosters.get(next.className)!;
      // The lecture's subject as the synthetic timetable has it (named: the day may be a weekend).
      const weekday = ((new Date(`${next.date}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;
      const subject = syntheticSubjectCode(syntheticSubjectIndex(classIndex.get(next.className)!, weekday, next.period, LECTURES));
      const started = performance.now();
      let ok = false;
      try {
        const response = await fetch(`${base}/api/attendance/${next.className}/${next.date}?period=${next.period}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', cookie: session.cookie, origin: base },
          body: JSON.stringify({ records: statusesOf(next, roster), subject }),
        });
        const text = await response.text();
        ok = response.status === 200;
        if (ok) into.add(performance.now() - started);
        else into.fail(`${response.status} ${registerKey(next)}: ${text.slice(0, 200)}`);
      } catch (err) {
        into.fail(`${registerKey(next)}: ${err instanceof Error ? err.message : String(err)}`);
      }
      queue.done(next, ok);
    };
    const reads = (recorders: { record: Recorder; dashboard: Recorder }, seconds: number) =>
      Promise.all([
        paced(STUDENT_READS_PER_SECOND, seconds, (index) => {
          const student = students[index % students.length]!;
          return timedGet(`${base}/api/students/${student.pin}`, student.cookie, recorders.record);
        }),
        paced(DASHBOARD_READS_PER_SECOND, seconds, () => timedGet(`${base}/api/reports/dashboard`, staff.cookie, recorders.dashboard)),
      ]);
    const savers = async (sessions: Session[], seconds: number, into: Recorder) => {
      const until = performance.now() + seconds * 1000;
      await Promise.all(sessions.map(async (session) => {
        while (performance.now() < until) await save(session, into);
      }));
    };
    const phase = <T extends Record<string, Recorder>>(recorders: T) => ({
      start: () => Object.values(recorders).forEach((recorder) => recorder.start()),
      stop: () => Object.values(recorders).forEach((recorder) => recorder.stop()),
    });

    // Warm-up: plans, caches and JIT of every process, then a pause.
    const warm = { record: new Recorder(), dashboard: new Recorder() };
    const warmSaves = new Recorder();
    await Promise.all([reads(warm, 3), savers(faculty.slice(0, 2), 3, warmSaves)]);
    await delay(2000);

    // 1. The reads alone.
    const idle = { record: new Recorder(), dashboard: new Recorder() };
    const idleFrom = Date.now() / 1000;
    phase(idle).start();
    const skippedIdle = (await reads(idle, IDLE_SECONDS)).reduce((a, b) => a + b, 0);
    phase(idle).stop();
    const idleByNginx = readsTimedByNginx(portal.timingLog, idleFrom, Date.now() / 1000);
    console.log(`  reads alone: ${describe(idle.record.figures())} (student record), ${describe(idle.dashboard.figures())} (dashboard)`);

    // 2. One faculty member saving, one register after another.
    const alone = new Recorder();
    const replacedBeforeAlone = queue.replaced;
    alone.start();
    await savers([faculty[0]!], IDLE_SECONDS, alone);
    alone.stop();
    const replacedAlone = queue.replaced - replacedBeforeAlone;
    console.log(`  saves alone: ${describe(alone.figures())}, ${replacedAlone} of them registers taken again`);
    await delay(2000);

    // 3. The rush: the faculty taking turns, at a steady rate.
    const rush = { save: new Recorder(), record: new Recorder(), dashboard: new Recorder() };
    const replacedBefore = queue.replaced;
    // This scrape also starts each process's event loop figures afresh, so the next covers the rush.
    const { counts: timedBefore } = await readsTimedByThePortal(portal.ports);
    const generatorLoop = monitorEventLoopDelay({ resolution: GENERATOR_LOOP_RESOLUTION_MS });
    generatorLoop.enable();
    const rushFrom = Date.now() / 1000;
    phase(rush).start();
    const [skippedRush, skippedSaves] = await Promise.all([
      reads(rush, RUSH_SECONDS).then((skipped) => skipped.reduce((a, b) => a + b, 0)),
      paced(RUSH_SAVES_PER_SECOND, RUSH_SECONDS, (index) => save(faculty[index % faculty.length]!, rush.save)),
    ]);
    phase(rush).stop();
    generatorLoop.disable();
    const { counts: timedAfter, loopLate: portalLoop } = await readsTimedByThePortal(portal.ports);
    const byNginx = readsTimedByNginx(portal.timingLog, rushFrom, Date.now() / 1000);
    const slowIn = (read: Read, recorder: Recorder) => {
      const all = timedAfter[read].all - timedBefore[read].all;
      const { inNginx, fromNginx } = byNginx[read];
      return { here: recorder.over(SLOW_READ_MS), inNginx, fromNginx, inThePortal: all - (timedAfter[read].within - timedBefore[read].within), all };
    };
    const atTheProxy = {
      idle: { 'student record': figuresOf(idleByNginx['student record'].times, IDLE_SECONDS), dashboard: figuresOf(idleByNginx.dashboard.times, IDLE_SECONDS) },
      rush: { 'student record': figuresOf(byNginx['student record'].times, RUSH_SECONDS), dashboard: figuresOf(byNginx.dashboard.times, RUSH_SECONDS) },
    };
    const rushSlowReads = { 'student record': slowIn('student record', rush.record), dashboard: slowIn('dashboard', rush.dashboard) };
    const replaced = queue.replaced - replacedBefore;
    console.log(`  rush: saves ${describe(rush.save.figures())}, student record ${describe(rush.record.figures())}, dashboard ${describe(rush.dashboard.figures())}`);
    console.log(
      `  the rush's reads over ${SLOW_READ_MS} ms, here / in nginx / from nginx to the answer / in the portal: ` +
        (['student record', 'dashboard'] as const)
          .map((read) => `${read} ${[rushSlowReads[read].here, rushSlowReads[read].inNginx, rushSlowReads[read].fromNginx, rushSlowReads[read].inThePortal].join(' / ')}`)
          .join(', ') +
        `; the processes' event loops late by ${ms(portalLoop.p99)} ms at p99, ${ms(portalLoop.max)} ms at most`,
    );
    console.log(
      `  at the proxy (nginx's times): reads alone ${describe(atTheProxy.idle['student record'])} (student record), ${describe(atTheProxy.idle.dashboard)} (dashboard); ` +
        `rush ${describe(atTheProxy.rush['student record'])} (student record), ${describe(atTheProxy.rush.dashboard)} (dashboard)`,
    );
    await delay(2000);

    // 4. Flat out: each faculty member saving the next register as soon as the last is answered.
    const flat = { save: new Recorder(), record: new Recorder(), dashboard: new Recorder() };
    phase(flat).start();
    const [skippedFlat] = await Promise.all([
      reads(flat, IDLE_SECONDS).then((skipped) => skipped.reduce((a, b) => a + b, 0)),
      savers(faculty, IDLE_SECONDS, flat.save),
    ]);
    phase(flat).stop();
    console.log(`  flat out: saves ${describe(flat.save.figures())}, student record ${describe(flat.record.figures())}, dashboard ${describe(flat.dashboard.figures())}`);
    for (const recorder of [warm.record, warm.dashboard, warmSaves, idle.record, idle.dashboard, alone, rush.save, rush.record, rush.dashboard, flat.save, flat.record, flat.dashboard]) {
      errorSamples.push(...recorder.errorSamples);
    }

    await stopPortal(portal);
    portal = undefined;

    // Every acknowledged save, mark for mark; no register without every student's mark.
    const lost: string[] = [];
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const stored = await client.query<{ class_name: string; date: string; period: number; pin: string; status: string }>(
        'select s.class_name, s.date::text as date, s.period, m.pin, m.status from attendance_sessions s join attendance_marks m on m.session_id = s.id where s.date = any($1::date[])',
        [[...new Set([...queue.acknowledged.values()].map((saved) => saved.date))]],
      );
      const byRegister = new Map<string, Map<string, string>>();
      for (const row of stored.rows) {
        const key = registerKey({ className: row.class_name, date: row.date, period: row.period });
        if (!byRegister.has(key)) byRegister.set(key, new Map());
        byRegister.get(key)!.set(row.pin, row.status);
      }
      for (const [key, saved] of queue.acknowledged) {
        const marksThere = byRegister.get(key);
        const expected = statusesOf(saved, rosters.get(saved.className)!);
        const wrong = expected.filter((mark) => marksThere?.get(mark.pin) !== mark.status).length;
        if (!marksThere || wrong > 0 || marksThere.size !== expected.length) lost.push(`${key}: ${marksThere ? `${wrong} marks differ` : 'missing'}`);
      }
    } finally {
      await client.end();
    }

    const verifyStart = performance.now();
    const verify = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli/portal.ts', 'verify'], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    const verifySeconds = (performance.now() - verifyStart) / 1000;
    const verifyOutput = `${verify.stdout}${verify.stderr}`.trim();
    console.log(`  ${queue.acknowledged.size} registers saved, ${lost.length} lost; portal verify: exit ${verify.status} in ${verifySeconds.toFixed(0)} s`);

    return {
      name,
      marks: counts!.marks,
      students: counts!.students,
      saveAlone: alone.figures(),
      rush: { save: rush.save.figures(), 'student record': rush.record.figures(), dashboard: rush.dashboard.figures() },
      flatOut: { save: flat.save.figures(), 'student record': flat.record.figures(), dashboard: flat.dashboard.figures() },
      idle: { 'student record': idle.record.figures(), dashboard: idle.dashboard.figures() },
      rushSlowReads,
      atTheProxy,
      // The monitor times the whole interval between its timer's runs: late is what exceeds it.
      portalLoop,
      generatorLoop: { p99: generatorLoop.percentile(99) / 1e6 - GENERATOR_LOOP_RESOLUTION_MS, max: generatorLoop.max / 1e6 - GENERATOR_LOOP_RESOLUTION_MS },
      replaced,
      replacedAlone,
      skippedReads: skippedIdle + skippedRush + skippedFlat,
      skippedSaves,
      lost,
      verify: { ok: verify.status === 0, output: verifyOutput, seconds: verifySeconds },
      seedSeconds,
      copied,
      errorSamples,
    };
  } finally {
    if (portal) await stopPortal(portal);
    await scratch.drop();
  }
}

function describe(figures: Figures): string {
  const errors = figures.errors ? `, ${figures.errors} ERRORS` : '';
  return `${figures.perSecond.toFixed(1)}/s p50 ${figures.p50.toFixed(1)} ms p99 ${figures.p99.toFixed(1)} ms${errors}`;
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(1) : value.toFixed(0));

function report(scenarios: Scenario[], postgres: string): string {
  const lines = [
    `- ${machineLine()}`,
    `- ${postgres} on the same machine; nginx (one worker) with the shipped proxy rules; three portal processes (the server's build); the load generator in one more process; all on the same cores`,
    `- reads at fixed rates in every phase: students their own records (${STUDENT_ACCOUNTS} students signed in, ${STUDENT_READS_PER_SECOND}/s), staff the dashboard (${DASHBOARD_READS_PER_SECOND}/s); ` +
      `${IDLE_SECONDS} s of reads alone, ${IDLE_SECONDS} s of one faculty member saving alone, ${RUSH_SECONDS} s of rush with ${SAVERS} faculty taking turns to save ${RUSH_SAVES_PER_SECOND} registers a second ` +
      `(ten times the busiest need of 50,000 students), then ${IDLE_SECONDS} s of the same faculty saving flat out; requests ask for compression as browsers do`,
    `- the saves are lecture registers of 60 students, class after class and period after period, today's then the term's earlier days' with none (new registers); once all are taken, taken again with every mark turned over`,
    '',
    '| scenario | phase | request | done | per second | p50 ms | p99 ms | errors |',
    '|---|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const scenario of scenarios) {
    const row = (phase: string, request: string, figures: Figures) =>
      lines.push(`| ${scenario.name} | ${phase} | ${request} | ${figures.count} | ${figures.perSecond.toFixed(1)} | ${ms(figures.p50)} | ${ms(figures.p99)} | ${figures.errors} |`);
    row('reads alone', 'student record', scenario.idle['student record']);
    row('reads alone', 'dashboard', scenario.idle.dashboard);
    row('one saver alone', 'save a 60-student register', scenario.saveAlone);
    row('rush', 'save a 60-student register', scenario.rush.save);
    row('rush', 'student record', scenario.rush['student record']);
    row('rush', 'dashboard', scenario.rush.dashboard);
    row('reads alone', 'student record, as the proxy timed it', scenario.atTheProxy.idle['student record']);
    row('reads alone', 'dashboard, as the proxy timed it', scenario.atTheProxy.idle.dashboard);
    row('rush', 'student record, as the proxy timed it', scenario.atTheProxy.rush['student record']);
    row('rush', 'dashboard, as the proxy timed it', scenario.atTheProxy.rush.dashboard);
    row('flat out', 'save a 60-student register', scenario.flatOut.save);
    row('flat out', 'student record', scenario.flatOut['student record']);
    row('flat out', 'dashboard', scenario.flatOut.dashboard);
  }
  lines.push('');
  for (const scenario of scenarios) {
    lines.push(
      `- ${scenario.name}: ${scenario.marks.toLocaleString('en')} marks, ${scenario.students.toLocaleString('en')} students (${scenario.copied ? `copied from ${TEMPLATE}` : 'written'} in ${scenario.seedSeconds.toFixed(0)} s); ` +
        `${scenario.saveAlone.count} saves alone and ${scenario.rush.save.count} in the rush, ${scenario.replacedAlone} and ${scenario.replaced} of them registers taken again; ${scenario.skippedReads} reads and ${scenario.skippedSaves} saves not sent (200 under way); ` +
        `portal verify ${scenario.verify.seconds.toFixed(0)} s`,
    );
    const slow = (read: Read) => {
      const { here, inNginx, fromNginx, inThePortal, all } = scenario.rushSlowReads[read];
      return `${read} ${here} of ${scenario.rush[read].count} here, ${inNginx} in nginx, ${fromNginx} from nginx to the answer, ${inThePortal} of ${all} in the portal`;
    };
    lines.push(
      `- ${scenario.name}, the rush's reads over ${SLOW_READ_MS} ms, as timed here, by nginx (from reading the request to sending the answer, and from passing it on to the answer) and by the portal itself (its \`/metrics\`: from when a process took the request up to its answer): ` +
        `${slow('student record')}; ${slow('dashboard')}; the slowest process's event loop ran late by ${ms(scenario.portalLoop.p99)} ms at p99, ${ms(scenario.portalLoop.max)} ms at most; ` +
        `this load generator's own by ${ms(scenario.generatorLoop.p99)} ms at p99, ${ms(scenario.generatorLoop.max)} ms at most`,
    );
  }
  lines.push('', 'Targets:');
  const mark = (ok: boolean) => (ok ? 'met' : '**not met**');
  for (const scenario of scenarios) {
    const errors = [scenario.saveAlone, ...Object.values(scenario.idle), ...Object.values(scenario.rush), ...Object.values(scenario.flatOut)].reduce(
      (sum, figures) => sum + figures.errors,
      0,
    );
    lines.push(`- ${scenario.name}: ${errors} errors (target 0: ${mark(errors === 0)})`);
    lines.push(`- ${scenario.name}: ${scenario.lost.length} acknowledged saves not stored as sent (target 0: ${mark(scenario.lost.length === 0)})${scenario.lost.length ? `: ${scenario.lost.slice(0, 5).join('; ')}` : ''}`);
    lines.push(`- ${scenario.name}: portal verify ${scenario.verify.ok ? 'finds nothing' : `finds differences or fails: ${scenario.verify.output.split('\n').slice(0, 3).join(' / ')}`} (${mark(scenario.verify.ok)})`);
    for (const read of ['student record', 'dashboard'] as const) {
      const proxy = scenario.atTheProxy;
      const ratio = proxy.rush[read].p99 / Math.max(1, proxy.idle[read].p99);
      const here = scenario.rush[read].p99 / Math.max(1, scenario.idle[read].p99);
      lines.push(
        `- ${scenario.name}, ${read}, as the proxy timed it: p99 ${ms(proxy.rush[read].p99)} ms in the rush, ${ratio.toFixed(2)}x its ${ms(proxy.idle[read].p99)} ms with no saves running ` +
          `(target <= ${TARGETS.readGrowth}x, p99 under 1 ms counted as 1 ms: ${mark(ratio <= TARGETS.readGrowth)}); as this load generator timed it (not judged): ` +
          `${ms(scenario.rush[read].p99)} against ${ms(scenario.idle[read].p99)} ms, ${here.toFixed(2)}x`,
      );
    }
    lines.push(
      `- ${scenario.name}: the three processes sustained ${scenario.flatOut.save.perSecond.toFixed(1)} saves a second with ${SAVERS} faculty saving flat out ` +
        `(a university of ${scenario.students.toLocaleString('en')} students needs about ${((NEEDED_SAVES_PER_SECOND * scenario.students) / 50_000).toFixed(2)} at its busiest, ` +
        `${Math.round((1000 * scenario.students) / 50_000)} registers in the ten minutes after a bell; 50,000 students: ${NEEDED_SAVES_PER_SECOND.toFixed(1)}/s)`,
    );
  }
  const demo = scenarios.find((scenario) => scenario.name === 'demo data');
  const large = scenarios.find((scenario) => scenario.name !== 'demo data');
  if (demo && large) {
    const ratio = large.saveAlone.p99 / Math.max(1, demo.saveAlone.p99);
    lines.push(
      `- a 60-student save, one at a time: p99 ${ms(large.saveAlone.p99)} ms at ${large.name} against ${ms(demo.saveAlone.p99)} ms on the demo data, ${ratio.toFixed(2)}x ` +
        `(target <= ${TARGETS.saveGrowth}x: ${mark(ratio <= TARGETS.saveGrowth)}); p50 ${ms(large.saveAlone.p50)} against ${ms(demo.saveAlone.p50)} ms`,
    );
  }
  const samples = scenarios.flatMap((scenario) => scenario.errorSamples.map((sample) => `${scenario.name}: ${sample}`));
  if (samples.length > 0) lines.push('', 'Errors seen (first few):', ...samples.slice(0, 10).map((sample) => `- ${sample}`));
  return lines.join('\n');
}

async function main(): Promise<void> {
  const nginx = findNginx();
  if (!POSTGRES_URL || !nginx) {
    console.log(`The morning rush needs ${!nginx ? 'nginx (Debian: apt-get install nginx-light)' : ''}${!nginx && !POSTGRES_URL ? ' and ' : ''}${!POSTGRES_URL ? 'a PostgreSQL server at BENCH_DATABASE_URL or TEST_DATABASE_URL' : ''}: left out.`);
    return;
  }
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  const { rows } = await client.query<{ name: string; setting: string }>(
    `select name, current_setting(name) as setting from pg_settings where name in ('server_version', ${TUNED_SETTINGS.map((name) => `'${name}'`).join(', ')}) order by name = 'server_version' desc, name`,
  );
  await client.end();
  const [version, ...settings] = rows;
  const postgres = `PostgreSQL ${version!.setting} (${settings.map((row) => `${row.name} ${row.setting}`).join(', ')})`;

  const { entry } = await ensureServerBuild();
  const large = `${LARGE_MARKS >= 1_000_000 ? `${+(LARGE_MARKS / 1_000_000).toFixed(1)}M` : LARGE_MARKS.toLocaleString('en')} marks`;
  console.log(`The morning rush on ${postgres}: demo data, then ${large}; ${RUSH_SECONDS} s of rush, ${RUSH_SAVES_PER_SECOND} saves a second by ${SAVERS} faculty.`);
  const scenarios = [await runScenario('demo data', 'demo', entry, nginx), await runScenario(large, LARGE_MARKS, entry, nginx)];
  const text = report(scenarios, postgres);
  console.log(`\n${text}`);
  if (WRITE) {
    const section = [`## The morning rush`, '', `\`npx tsx bench/rush.ts${argument('rush-marks') ? ` --rush-marks ${LARGE_MARKS}` : ''}\` on ${runDate()}.`, '', text].join('\n');
    console.log(`\nwritten to ${path.relative(process.cwd(), writeResultsSection('rush', section))}`);
  }
  const failed = scenarios.some((scenario) => scenario.lost.length > 0 || !scenario.verify.ok);
  if (failed) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
