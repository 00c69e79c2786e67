import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { configWarnings, loadConfig, type Config } from './config';
import { beginOpening, type Opening } from './db/client';
import { isEmptyDatabase, seedDemo } from './seed/demo';
import { sweep } from './modules/auth/service';
import { deleteOldIdempotencyKeys } from './modules/attendance/service';
import { deleteStaleRateLimits } from './plugins/rate-limit-store';
import { ContactForwarder } from './modules/contact/forwarder';
import { MailSender } from './modules/mail/sender';
import { tidyEmbeddedTables } from './db/statistics';
import { noteScheduledBackups } from './db/backup-schedule';
import { backgroundJobs } from './background-jobs';
import { createJobRunner } from './jobs/runner';
import { Metrics } from './plugins/metrics';
import { EVALUATE_ALERTS_TASK, onRegisterSaved } from './modules/alerts/service';

const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** How long after its start the server looks for tables that grew while it was stopped. */
const UPKEEP_AFTER_START_MS = 3000;

export interface StartOptions {
  config?: Config;
  /** The database, when the caller started opening it already (npm start: start.ts). */
  database?: Promise<Opening>;
}

/** Opens the database and serves the portal until SIGINT or SIGTERM. */
export async function startServer(options: StartOptions = {}): Promise<void> {
  const config = options.config ?? loadConfig();
  const opening = await (options.database ??
    beginOpening({
      databaseUrl: config.databaseUrl,
      preparedStatements: config.preparedStatements,
      dataDir: config.dataDir,
      poolSize: config.databasePool,
      statementTimeoutMs: config.statementTimeoutMs,
      backupDir: config.backup.dir,
    }));
  // Asked as soon as the database is open, beside what the app reads then.
  const empty = opening.opened.then((database) => isEmptyDatabase(database.db));
  empty.catch(() => undefined);
  // The background jobs (background-jobs.ts), started once the database is open. The runner logs
  // through the app's logger, made by buildApp: it runs nothing before its start.
  const metrics = new Metrics();
  const jobRuns = metrics.addCounter({ name: 'job_runs_total', help: 'Runs of background jobs, by task and outcome (done, failed)', labelNames: ['task', 'outcome'] });
  const jobs = createJobRunner({
    database: opening.database,
    connectionString: config.databaseUrl,
    timeZone: config.timeZone,
    ...backgroundJobs({ database: opening.database, config }),
    log: { info: (obj, message) => app.log.info(obj, message), warn: (obj, message) => app.log.warn(obj, message) },
    onRun: (task, outcome) => jobRuns.inc({ task, outcome }),
  });
  // buildApp builds the app, its routes included, while the database opens.
  const app = await buildApp({
    database: opening,
    config,
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    },
    metrics,
    jobs,
  });

  for (const warning of configWarnings(config)) app.log.warn(warning);

  const database = await opening.opened;
  const where = database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
  const lines: string[] = [];
  if (await empty) {
    if (config.demo) {
      const demo = await seedDemo(database.db, config.timeZone);
      await tidyEmbeddedTables(database);
      lines.push(
        `Demo data: ${demo.students} students in 8 classes, ${demo.registers} past registers.`,
        `  Faculty sign-in: ${demo.faculty.email} / ${demo.faculty.password}`,
        `  Admin sign-in:   ${demo.admin.email} / ${demo.admin.password} (Faculty tab)`,
        `  Student sign-in: ${demo.student.email} / ${demo.student.password} (PIN ${demo.student.pin})`,
      );
    } else {
      lines.push(
        'The database has no accounts yet. Add the first one with:',
        '  npm run portal -- user add --email you@university.edu --name "Your Name" --role admin',
      );
    }
  }

  const timer = setInterval(() => {
    Promise.all([
      sweep(database.db),
      deleteOldIdempotencyKeys(database.db),
      deleteStaleRateLimits(database.db, new Date(Date.now() - 24 * 60 * 60 * 1000)),
      tidyEmbeddedTables(database, { everyTable: true }),
    ]).catch((err: unknown) => app.log.warn({ err }, "clean-up of old sessions, counters and idempotency keys (or the embedded database's upkeep) failed"));
  }, SWEEP_EVERY_MS);
  timer.unref();

  // Contact messages go to the form-submission service only when one is configured.
  const forwarder = config.formService
    ? new ContactForwarder({ database, service: config.formService, log: app.log })
    : undefined;
  // E-mails wait in the outbox until SMTP takes them: sent only when SMTP is configured.
  const mailSender = config.smtp ? new MailSender({ database, smtp: config.smtp, log: app.log }) : undefined;

  // The embedded database's statistics and vacuum, where tables grew while the portal was stopped
  // (or were never analyzed): a moment after the start, so that the first requests are not queued
  // behind its look at every table.
  const upkeep = setTimeout(() => {
    tidyEmbeddedTables(database).catch((err: unknown) => app.log.warn({ err }, "the embedded database's upkeep failed"));
  }, UPKEEP_AFTER_START_MS);
  upkeep.unref();

  // The newest scheduled backup's age, for the metrics, before the runner's first look at the folder.
  if (config.backup.dir !== undefined) noteScheduledBackups(config.backup.dir).catch(() => undefined);
  // Alerts: each saved register's students evaluated as a job, queued by the process that saved it
  // (its job key keeps one per register; the episodes' unique index fires a rule once in any case).
  const alerts = onRegisterSaved(
    database,
    (register) => jobs.add(EVALUATE_ALERTS_TASK, { ...register }, { jobKey: `evaluate:${register.className}/${register.date}/${register.period}` }),
    app.log,
  );

  // A stop (SIGTERM, SIGINT): readiness turns 503 and the live updates end with a hint to
  // reconnect (both in app.close's first step), no new connection is taken, and the requests in
  // flight finish, for at most the grace; then the database closes.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received, shutting down`);
    clearInterval(timer);
    clearTimeout(upkeep);
    const grace = setTimeout(() => {
      app.log.warn(`requests still open after ${config.shutdownGraceMs / 1000} s: closing their connections`);
      app.server.closeAllConnections();
    }, config.shutdownGraceMs);
    // Should closing itself hang, the process still ends.
    const last = setTimeout(() => process.exit(1), config.shutdownGraceMs + 10_000);
    last.unref();
    // Sends in progress are recorded before the database closes, so none is sent twice.
    await Promise.allSettled([app.close(), forwarder?.stop(), mailSender?.stop(), alerts.stop()]);
    clearTimeout(grace);
    // After the requests, which may queue jobs: the jobs running finish (a scheduled one cut by the
    // last timer rolls its claim back, and the next tick runs it again).
    await jobs.stop().catch((err: unknown) => app.log.warn({ err }, 'the background jobs did not stop cleanly'));
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  await forwarder?.start();
  await mailSender?.start();
  await jobs.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(
    [
      '',
      `Attendance portal running at http://localhost:${port} (${where})`,
      `API documentation at http://localhost:${port}/api/docs`,
      ...lines,
      '',
    ].join('\n'),
  );
}

function exitWithError(err: unknown): never {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}

/** Whether this file is the program (tsx src/server/main.ts) rather than imported by start.ts. */
function isProgram(): boolean {
  const program = process.argv[1];
  if (!program) return false;
  try {
    return realpathSync(program) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

// npm run dev and the browser tests run this file directly: the database open takes the lock.
if (isProgram()) startServer().catch(exitWithError);
