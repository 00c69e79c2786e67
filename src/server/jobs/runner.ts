/**
 * The portal's background jobs (docs/decisions/0042-job-runner.md): tasks queued to run once, and
 * schedules kept in the portal's zone. On PostgreSQL the queue is graphile-worker's, shared by
 * every server process; on the embedded database (one process) it is this process's own.
 *
 * Scheduled runs do not use a cron of local times: a tick every minute (graphile-worker's cron on
 * PostgreSQL, which makes each minute's tick one job whatever the number of processes; a timer on
 * the embedded database) looks, for each schedule, which of its due times ("slots") of the last
 * 24 hours are not done in `job_slots`, and runs its task for each, oldest first, with
 * `{ slot: <ISO time> }`. A task claims its slot (`claimSlot`) in the transaction of its own
 * writes, so that a slot is done once even when two ticks overlap or a process dies half-way; the
 * runner claims it after a task that did not. A restart runs no slot twice, and the slots missed
 * while no process ran catch up, those of the last 24 hours.
 */
import type { Logger, Runner, TaskList, WorkerUtils } from 'graphile-worker';
import type { Pool } from 'pg';
import type { Database } from '../db/client';
import { claimSlot, doneSlots, dueSlots, forgetSlotsBefore, scheduleProblem, type Schedule } from './slots';

export type { Schedule } from './slots';

export interface JobLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface JobContext {
  now: Date;
  log: JobLog;
}

export type Task = (payload: Record<string, unknown>, context: JobContext) => Promise<void>;

export interface JobRunner {
  /** Queues a task to run once, now or at runAt; with jobKey, at most one queued job per key (adding again replaces it). */
  add(task: string, payload?: Record<string, unknown>, options?: { jobKey?: string; runAt?: Date }): Promise<void>;
  start(): Promise<void>;
  /** Waits for the jobs running, then runs none: graceful shutdown calls it before the database closes. */
  stop(): Promise<void>;
  /** Runs the schedules' due slots now, as the minute's tick does (tests, and a start that should not wait). */
  tick(): Promise<void>;
}

/** How a run of a task ended, for the metrics. */
export type RunOutcome = 'done' | 'failed';

export interface JobRunnerOptions {
  database: Database;
  /** PostgreSQL: the portal's connection string, for graphile-worker's own connections. */
  connectionString?: string | undefined;
  timeZone: string;
  tasks: Record<string, Task>;
  schedules: Schedule[];
  clock?: () => Date;
  log: JobLog;
  /** How often queued jobs are looked for (ms): the embedded runner's poll, graphile-worker's pollInterval. */
  pollMs?: number;
  /** Called after each run of a task (queued or scheduled). */
  onRun?: (task: string, outcome: RunOutcome, seconds: number) => void;
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  for (const schedule of options.schedules) {
    const problem = scheduleProblem(schedule);
    if (problem) throw new Error(`A schedule cannot be kept: ${problem}`);
    if (!options.tasks[schedule.task]) throw new Error(`A schedule names the task "${schedule.task}", which is not registered`);
  }
  if (options.database.kind === 'pglite') return new InProcessJobRunner(options);
  if (!options.connectionString) throw new Error('The job runner on PostgreSQL needs the connection string');
  return new GraphileJobRunner(options, options.connectionString);
}

/** Jobs run at once per process on PostgreSQL, and how many it takes from the queue at a time. */
const WORKERS = 2;
const LOCAL_QUEUE_SIZE = WORKERS + 1;
/**
 * After finding no job, a process only counts the jobs announced for half to one and a half times
 * this (ms); a job announced then is taken at the next announcement, a worker's end or the poll.
 */
const REFETCH_DELAY_MS = 100;

/** How far back a tick looks for slots not done: a restart within a day misses none. */
export const CATCH_UP_MS = 24 * 3600_000;
/** Slots older than this are forgotten: they can no longer be due. */
const FORGET_AFTER_MS = 7 * 24 * 3600_000;
const MINUTE_MS = 60_000;

/** What both runners share: running a task, and a tick over the schedules. */
abstract class BaseRunner implements JobRunner {
  protected readonly clock: () => Date;
  /** Schedules whose tick runs in this process now: a slow one is not started again beside itself. */
  private readonly ticking = new Set<string>();
  private forgottenAt = 0;

  constructor(protected readonly options: JobRunnerOptions) {
    this.clock = options.clock ?? (() => new Date());
  }

  abstract add(task: string, payload?: Record<string, unknown>, options?: { jobKey?: string; runAt?: Date }): Promise<void>;
  abstract start(): Promise<void>;
  abstract stop(): Promise<void>;
  abstract tick(): Promise<void>;

  protected checkTask(task: string): Task {
    const run = this.options.tasks[task];
    if (!run) throw new Error(`No task "${task}" is registered`);
    return run;
  }

  /** Runs a task once; its failure is logged, counted and thrown. */
  protected async runTask(task: string, payload: Record<string, unknown>): Promise<void> {
    const run = this.checkTask(task);
    const started = performance.now();
    try {
      await run(payload, { now: this.clock(), log: this.options.log });
    } catch (err) {
      this.options.onRun?.(task, 'failed', (performance.now() - started) / 1000);
      this.options.log.warn({ err, task, payload }, `the job ${task} failed`);
      throw err;
    }
    this.options.onRun?.(task, 'done', (performance.now() - started) / 1000);
  }

  /**
   * Runs each schedule's slots not done yet, oldest first: those of the last 24 hours for a time of
   * day, the latest for every N minutes. A failed slot stops its schedule until the next tick,
   * which tries it again; the other schedules go on.
   */
  protected async runSchedules(): Promise<void> {
    const now = this.clock();
    const { database, timeZone, schedules } = this.options;
    if (now.getTime() - this.forgottenAt >= 3600_000) {
      await forgetSlotsBefore(database.db, new Date(now.getTime() - FORGET_AFTER_MS));
      this.forgottenAt = now.getTime();
    }
    for (const schedule of schedules) {
      const key = JSON.stringify(schedule);
      if (this.ticking.has(key)) continue;
      this.ticking.add(key);
      try {
        const from = new Date(now.getTime() - ('everyMinutes' in schedule ? schedule.everyMinutes * MINUTE_MS : CATCH_UP_MS));
        const done = await doneSlots(database.db, schedule.task, from, now);
        for (const slot of dueSlots(schedule, timeZone, from, now).filter((s) => !done.has(s.getTime()))) {
          try {
            await this.runTask(schedule.task, { slot: slot.toISOString() });
          } catch {
            break;
          }
          // Claimed already by a task that claims its own; otherwise done now.
          await claimSlot(database.db, schedule.task, slot);
        }
      } finally {
        this.ticking.delete(key);
      }
    }
  }
}

/** Attempts of a queued job before it is given up (graphile-worker's default). */
const MAX_ATTEMPTS = 25;

interface QueuedJob {
  task: string;
  payload: Record<string, unknown>;
  runAt: number;
  jobKey: string | undefined;
  attempts: number;
}

/**
 * The embedded database's runner: one process, one job at a time (the database has one session).
 * Queued jobs are held in memory, so a job queued but not yet run when the process stops is lost:
 * work that must survive a stop belongs in a schedule, whose slots are in the database.
 */
export class InProcessJobRunner extends BaseRunner {
  private readonly queue: QueuedJob[] = [];
  /** Every run goes through this chain, one at a time. */
  private lane: Promise<void> = Promise.resolve();
  private pollTimer: NodeJS.Timeout | undefined;
  private minuteTimer: NodeJS.Timeout | undefined;
  private started = false;
  private stopped = false;

  async add(task: string, payload: Record<string, unknown> = {}, options: { jobKey?: string; runAt?: Date } = {}): Promise<void> {
    this.checkTask(task);
    if (options.jobKey !== undefined) {
      const index = this.queue.findIndex((job) => job.jobKey === options.jobKey);
      if (index >= 0) this.queue.splice(index, 1);
    }
    this.queue.push({ task, payload, runAt: (options.runAt ?? this.clock()).getTime(), jobKey: options.jobKey, attempts: 0 });
    if (this.started && !this.stopped) setImmediate(() => void this.runDue().catch(() => undefined));
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.pollTimer = setInterval(() => void this.runDue().catch(() => undefined), this.options.pollMs ?? 1000);
    this.pollTimer.unref();
    // Ticks on the minute, as cron's would; not in the first half-minute after the start, so that
    // the first requests are not queued behind scheduled work.
    const startedAt = Date.now();
    const onMinute = () => {
      const wait = MINUTE_MS - (Date.now() % MINUTE_MS) + 100;
      this.minuteTimer = setTimeout(() => {
        if (this.stopped) return;
        if (Date.now() - startedAt >= 30_000) {
          this.tick().catch((err: unknown) => this.options.log.warn({ err }, 'the scheduled jobs could not be looked at'));
        }
        onMinute();
      }, wait);
      this.minuteTimer.unref();
    };
    onMinute();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    clearTimeout(this.minuteTimer);
    await this.lane;
    if (this.queue.length > 0) this.options.log.warn({ jobs: this.queue.map((job) => job.task) }, 'queued jobs not run before the stop');
  }

  tick(): Promise<void> {
    return this.inLane(() => this.runSchedules());
  }

  /** Runs the queued jobs that are due, one at a time, earliest first. */
  runDue(): Promise<void> {
    return this.inLane(async () => {
      for (;;) {
        if (this.stopped) return;
        const now = this.clock().getTime();
        const due = this.queue.filter((job) => job.runAt <= now).sort((a, b) => a.runAt - b.runAt)[0];
        if (!due) return;
        this.queue.splice(this.queue.indexOf(due), 1);
        try {
          await this.runTask(due.task, due.payload);
        } catch {
          due.attempts += 1;
          // graphile-worker's back-off: e^attempts seconds, at most e^10 (some 6 hours).
          if (due.attempts < MAX_ATTEMPTS) this.queue.push({ ...due, runAt: now + Math.exp(Math.min(due.attempts, 10)) * 1000 });
          else this.options.log.warn({ task: due.task }, `the job ${due.task} failed ${MAX_ATTEMPTS} times: given up`);
        }
      }
    });
  }

  private inLane(run: () => Promise<void>): Promise<void> {
    const next = this.lane.then(run);
    this.lane = next.catch(() => undefined);
    return next;
  }
}

/** graphile-worker's task for the minute's tick. */
const TICK_TASK = 'portal:tick';

type Graphile = typeof import('graphile-worker'); // eslint-disable-line @typescript-eslint/consistent-type-imports -- the module, loaded on use

/**
 * PostgreSQL's runner: graphile-worker, in its own schema (`graphile_worker`, which it migrates
 * itself) on connections of its own. Queued jobs are rows, taken by the processes into local queues;
 * the minute's tick is a cron job, one per minute whatever the number of processes.
 */
export class GraphileJobRunner extends BaseRunner {
  private graphile: Promise<Graphile> | undefined;
  private pool: Pool | undefined;
  private runner: Runner | undefined;
  private utils: Promise<WorkerUtils> | undefined;
  /** Set by stop: the runner is not started again. */
  private stopped = false;
  /** Restarts since the runner last started cleanly, for the wait before the next. */
  private failures = 0;

  constructor(
    options: JobRunnerOptions,
    private readonly connectionString: string,
  ) {
    super(options);
  }

  /** graphile-worker and its pool, loaded on first use (a portal on the embedded database never loads them). */
  private async load(): Promise<{ graphile: Graphile; pool: Pool }> {
    this.graphile ??= import('graphile-worker');
    const graphile = await this.graphile;
    if (!this.pool) {
      const { default: pg } = await import('pg');
      // The worker's connections: one listens, the others take and finish jobs and run the ticks.
      this.pool = new pg.Pool({ connectionString: this.connectionString, max: 4 });
      // A connection lost (a database restart) must not end the process: its query fails, and
      // graphile-worker connects again.
      this.pool.on('error', () => undefined);
      this.pool.on('connect', (client) => client.on('error', () => undefined));
    }
    return { graphile, pool: this.pool };
  }

  private logger(graphile: Graphile): Logger {
    const { log } = this.options;
    return new graphile.Logger((scope) => (level, message, meta) => {
      // A job's own failure is logged by the runner, with the task's error.
      if (scope.jobId !== undefined) return;
      if (level === 'error' || level === 'warning') log.warn({ ...meta, graphileWorker: scope.label }, message);
    });
  }

  private workerUtils(): Promise<WorkerUtils> {
    this.utils ??= this.load().then(async ({ graphile, pool }) => {
      const utils = await graphile.makeWorkerUtils({ pgPool: pool, logger: this.logger(graphile) });
      await utils.migrate();
      return utils;
    });
    return this.utils;
  }

  async add(task: string, payload: Record<string, unknown> = {}, options: { jobKey?: string; runAt?: Date } = {}): Promise<void> {
    this.checkTask(task);
    const utils = await this.workerUtils();
    await utils.addJob(task, payload, {
      ...(options.jobKey === undefined ? {} : { jobKey: options.jobKey, jobKeyMode: 'replace' as const }),
      ...(options.runAt === undefined ? {} : { runAt: options.runAt }),
    });
  }

  async start(): Promise<void> {
    if (this.runner) return;
    this.stopped = false;
    await this.launch();
  }

  /**
   * Starts graphile-worker, and starts it again should it stop by itself: when the database goes
   * away for long enough, recording a job's end fails for good and the worker pool shuts down
   * rather than guess the queue's state. Each restart waits a little longer, up to a minute.
   */
  private async launch(): Promise<void> {
    const { graphile, pool } = await this.load();
    const taskList: TaskList = {
      [TICK_TASK]: async () => {
        await this.runSchedules().catch((err: unknown) => {
          this.options.log.warn({ err }, 'the scheduled jobs could not be looked at');
        });
      },
    };
    for (const name of Object.keys(this.options.tasks)) {
      taskList[name] = async (payload) => {
        const object = payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : {};
        await this.runTask(name, object);
      };
    }
    const pollInterval = this.options.pollMs ?? 2000;
    const runner = await graphile.run({
      pgPool: pool,
      preset: {
        worker: {
          // Jobs' ends are recorded in batches, whose failure (the database gone) stops the worker
          // pool in order; recorded one at a time, such a failure escaped as an unhandled rejection.
          completeJobBatchDelay: 0,
          failJobBatchDelay: 0,
          // The process asks for jobs, not each of its workers, and a process that found none lets
          // a little time pass before an announcement makes it ask again: every queued job is
          // announced to every process, and without this each idle worker of each asked for it
          // (some four queries per save). Decision 42 says what a job may wait.
          localQueue: { size: LOCAL_QUEUE_SIZE, refetchDelay: { durationMs: Math.min(REFETCH_DELAY_MS, pollInterval) } },
        },
      },
      concurrency: WORKERS,
      noHandleSignals: true,
      pollInterval,
      logger: this.logger(graphile),
      taskList,
      // The minute's tick, once per minute across processes; a tick missed (no process ran) is not
      // made up by graphile-worker: the next one catches the slots up from job_slots. Not retried:
      // the next minute's is its retry.
      parsedCronItems: graphile.parseCronItems([
        { task: TICK_TASK, match: '* * * * *', identifier: TICK_TASK, options: { backfillPeriod: 0, maxAttempts: 1 } },
      ]),
    });
    this.runner = runner;
    this.failures = 0;
    const relaunch = (reason: unknown) => {
      if (this.stopped || this.runner !== runner) return;
      this.runner = undefined;
      this.launchLater(reason);
    };
    runner.promise.then(
      () => relaunch(new Error('the worker pool ended')),
      (err: unknown) => relaunch(err),
    );
  }

  /** Starts graphile-worker again after a wait that grows with each failure in a row. */
  private launchLater(reason: unknown): void {
    if (this.stopped) return;
    this.failures += 1;
    const delayMs = Math.min(60_000, 1000 * 2 ** Math.min(this.failures, 6));
    this.options.log.warn({ err: reason, retryInMs: delayMs }, 'the job runner stopped by itself: starting it again');
    const timer = setTimeout(() => {
      if (this.stopped || this.runner) return;
      this.launch().catch((err: unknown) => this.launchLater(err));
    }, delayMs);
    timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const runner = this.runner;
    this.runner = undefined;
    // Waits for the jobs running (graphile-worker's graceful shutdown).
    await runner?.stop();
    const utils = this.utils;
    this.utils = undefined;
    await (await utils?.catch(() => undefined))?.release();
    const pool = this.pool;
    this.pool = undefined;
    await pool?.end();
  }

  tick(): Promise<void> {
    return this.runSchedules();
  }
}
