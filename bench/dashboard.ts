/**
 * How long the faculty dashboard takes on a year of registers, and that its cost follows
 * classes x days rather than the number of marks (DESIGN.md section 4).
 *
 *   npx tsx bench/dashboard.ts                       8 classes x 60 students x 365 days, then x 240 students
 *   npx tsx bench/dashboard.ts --students 60 --days 365 --runs 50
 *   BENCH_DATABASE_URL=postgres://... npx tsx bench/dashboard.ts   on a scratch PostgreSQL database
 *
 * Each scenario seeds a fresh database with SQL (a register per class per day, each student
 * present with a fixed per-student likelihood), then times the dashboard service and the HTTP
 * route, and the students-below-75% list (which reads marks), and prints the median and the 95th
 * percentile. Not part of `npm test`: timings depend on the machine.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { openDatabase, type Database } from '../src/server/db/client';
import { users } from '../src/server/db/schema';
import { getDashboard, listStudentSummaries } from '../src/server/modules/reports/service';
import { addUser } from '../src/server/modules/accounts/service';
import { CLASS_NAMES } from '../src/shared/constants';
import { addDays, todayIn } from '../src/shared/dates';

const TIME_ZONE = 'UTC';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index === -1) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} takes a positive whole number`);
  return value;
}

interface Scenario {
  students: number;
  days: number;
}

async function openScratch(): Promise<{ database: Database; drop: () => Promise<void>; where: string }> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    const database = await openDatabase({});
    return { database, drop: async () => database.close(), where: 'PGlite (in memory)' };
  }
  const name = `portal_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: target.toString() });
  return {
    database,
    where: `PostgreSQL (${target.host})`,
    async drop() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** A roster, one register per class per day up to today, and marks whose counters match them. */
async function seed(database: Database, { students, days }: Scenario): Promise<{ registers: number; marks: number }> {
  const today = todayIn(TIME_ZONE);
  const first = addDays(today, -(days - 1));
  const { db } = database;
  await db.execute(sql`
    insert into students (pin, name, class_name)
    select c.name || '-' || lpad(n::text, 4, '0'), 'Student ' || c.name || ' ' || n, c.name
    from classes c cross join generate_series(1, ${students}) as n`);
  await db.execute(sql`
    insert into attendance_sessions (class_name, date)
    select c.name, d::date from classes c cross join generate_series(${first}::date, ${today}::date, interval '1 day') as d`);
  // Each student keeps one likelihood of attending (50% to 98%), so some fall below 75%.
  await db.execute(sql`
    insert into attendance_marks (session_id, pin, name, class_name, present)
    select s.id, st.pin, st.name, st.class_name,
           random() < 0.5 + 0.48 * (abs(hashtext(st.pin)) % 1000) / 1000.0
    from attendance_sessions s join students st on st.class_name = s.class_name`);
  await db.execute(sql`
    update attendance_sessions s set
      present_count = m.present, absent_count = m.absent
    from (select session_id, count(*) filter (where present)::int as present, count(*) filter (where not present)::int as absent
          from attendance_marks group by session_id) m
    where m.session_id = s.id`);
  await db.execute(sql`analyze`);
  const registers = CLASS_NAMES.length * days;
  return { registers, marks: registers * students };
}

interface Timing {
  median: number;
  p95: number;
}

async function time(runs: number, work: () => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < Math.min(3, runs); i += 1) await work(); // warm-up: plans, caches, JIT
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { median: at(0.5), p95: at(0.95) };
}

const ms = (t: Timing) => `median ${t.median.toFixed(2)} ms, p95 ${t.p95.toFixed(2)} ms`;

async function runScenario(scenario: Scenario, runs: number): Promise<void> {
  const { database, drop, where } = await openScratch();
  try {
    const seedStart = performance.now();
    const { registers, marks } = await seed(database, scenario);
    const seeded = ((performance.now() - seedStart) / 1000).toFixed(1);
    console.log(
      `\n${CLASS_NAMES.length} classes x ${scenario.students} students x ${scenario.days} days on ${where}: ` +
        `${registers.toLocaleString('en')} registers, ${marks.toLocaleString('en')} marks (seeded in ${seeded} s)`,
    );

    const dashboard = await getDashboard(database.db, { timeZone: TIME_ZONE });
    console.log(
      `  check: overall ${dashboard.overallAttendance.total.toLocaleString('en')} marks, ` +
        `${dashboard.weeklyReport.length} weekly and ${dashboard.monthlyReport.length} monthly rows`,
    );
    if (dashboard.overallAttendance.total !== marks) throw new Error('the dashboard does not count every mark');

    console.log(`  dashboard (service)        ${ms(await time(runs, () => getDashboard(database.db, { timeZone: TIME_ZONE })))}`);
    console.log(
      `  dashboard ?class=CSE3      ${ms(await time(runs, () => getDashboard(database.db, { timeZone: TIME_ZONE, className: 'CSE3' })))}`,
    );

    const app = await buildApp({
      database,
      config: { timeZone: TIME_ZONE, trustProxy: false, webDir: '/nonexistent', production: true },
    });
    await app.ready();
    await addUser(database.db, { email: 'bench@bench.edu', name: 'Bench', role: 'faculty', password: 'bench-password-1' });
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'bench@bench.edu', password: 'bench-password-1', role: 'faculty', remember: false },
    });
    const cookie = `portal_session=${login.cookies.find((c) => c.name === 'portal_session')?.value ?? ''}`;
    console.log(
      `  GET /api/reports/dashboard ${ms(await time(runs, () => app.inject({ method: 'GET', url: '/api/reports/dashboard', headers: { cookie } })))}`,
    );
    const studentRuns = Math.max(5, Math.floor(runs / 5));
    const below = await listStudentSummaries(database.db, { below: 75 });
    console.log(
      `  students below 75% (reads every mark; ${below.length} students) ${ms(await time(studentRuns, () => listStudentSummaries(database.db, { below: 75 })))}`,
    );
    console.log(
      `  students below 75% in CSE3 ${ms(await time(studentRuns, () => listStudentSummaries(database.db, { below: 75, className: 'CSE3' })))}`,
    );
    await app.close();
    await database.db.delete(users);
  } finally {
    await drop();
  }
}

async function main(): Promise<void> {
  const runs = option('runs', 30);
  const days = option('days', 365);
  const students = process.argv.includes('--students') ? [option('students', 60)] : [60, 240];
  console.log(`Dashboard benchmark: ${runs} timed runs each, after 3 warm-up runs.`);
  for (const count of students) await runScenario({ students: count, days }, runs);
  if (students.length > 1) {
    console.log('\nThe dashboard reads one counter row per class and day: its time should barely move with 4x the marks.');
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
