import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, queryRows, type Database } from '../db/client';
import { onPostgres } from '../test/postgres';
import { createPostgresCopy, createTestDatabase, type TestDatabase } from '../test/test-db';
import { createJobRunner, GraphileJobRunner, type InProcessJobRunner, type JobRunner, type JobRunnerOptions, type Task } from './runner';
import { claimSlot } from './slots';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** What a test's tasks wrote, and what the runner logged. */
interface Trace {
  warnings: string[];
  log: JobRunnerOptions['log'];
}

function trace(): Trace {
  const warnings: string[] = [];
  return { warnings, log: { info: () => undefined, warn: (_: object, message: string) => warnings.push(message) } };
}

async function makeRunsTable(database: Database): Promise<void> {
  await database.db.execute(sql`create table if not exists test_job_runs (task text not null, slot text, payload text, at timestamptz not null default now())`);
}

async function runs(database: Database, task?: string): Promise<{ task: string; slot: string | null; payload: string | null }[]> {
  return queryRows(
    database.db,
    task === undefined
      ? sql`select task, slot, payload from test_job_runs order by slot, at`
      : sql`select task, slot, payload from test_job_runs where task = ${task} order by slot, at`,
  );
}

/** A scheduled task as tasks should be written: its slot claimed in the transaction of its writes. */
function claimingTask(database: Database, task: string, { pauseMs = 0 }: { pauseMs?: number } = {}): Task {
  return async (payload) => {
    const slot = new Date(String(payload.slot));
    await database.db.transaction(async (tx) => {
      if (!(await claimSlot(tx, task, slot))) return;
      await tx.execute(sql`insert into test_job_runs (task, slot) values (${task}, ${slot.toISOString()})`);
      // Held a moment, so that a tick of another process meets the claim in flight.
      if (pauseMs > 0) await tx.execute(sql`select pg_sleep(${pauseMs / 1000})`);
    });
  };
}

describe.skipIf(onPostgres)('the in-process runner (embedded database)', () => {
  let database: TestDatabase;
  let now = new Date('2027-03-10T02:01:00Z'); // 07:31 in Kolkata
  const clock = () => now;

  beforeAll(async () => {
    database = await createTestDatabase();
    await makeRunsTable(database);
  }, 60_000);
  afterAll(async () => database?.destroy());

  const runner = (tasks: Record<string, Task>, schedules: JobRunnerOptions['schedules'], log = trace().log) =>
    createJobRunner({ database, timeZone: 'Asia/Kolkata', tasks, schedules, clock, log }) as InProcessJobRunner;

  it('runs a daily slot once, not again after a restart, and catches up the missed runs of the last 24 hours only', async () => {
    const tasks = { 'digest-daily': claimingTask(database, 'digest-daily') };
    const schedules = [{ task: 'digest-daily', at: { hour: 7, minute: 30 } }];
    const first = runner(tasks, schedules);
    await first.tick();
    await first.tick();
    expect(await runs(database, 'digest-daily')).toEqual([{ task: 'digest-daily', slot: '2027-03-10T02:00:00.000Z', payload: null }]);
    await first.stop();

    // A restart: a new runner on the same database.
    const second = runner(tasks, schedules);
    now = new Date('2027-03-10T09:00:00Z');
    await second.tick();
    expect(await runs(database, 'digest-daily')).toHaveLength(1);
    await second.stop();

    // Stopped for some three days: 03-11's run is older than 24 hours, 03-12's is not.
    now = new Date('2027-03-13T01:00:00Z'); // 06:30 on 03-13 in Kolkata
    const third = runner(tasks, schedules);
    await third.tick();
    expect((await runs(database, 'digest-daily')).map((r) => r.slot)).toEqual(['2027-03-10T02:00:00.000Z', '2027-03-12T02:00:00.000Z']);
    now = new Date('2027-03-13T02:00:00Z');
    await third.tick();
    now = new Date('2027-03-13T02:30:00Z');
    await third.tick();
    expect((await runs(database, 'digest-daily')).map((r) => r.slot)).toEqual([
      '2027-03-10T02:00:00.000Z',
      '2027-03-12T02:00:00.000Z',
      '2027-03-13T02:00:00.000Z',
    ]);
    await third.stop();
  });

  it('catches several missed slots up oldest first, and runs every N minutes at its latest step only', async () => {
    now = new Date('2027-03-14T00:00:00Z');
    const order: string[] = [];
    const tasks: Record<string, Task> = {
      twice: async (payload) => void order.push(`twice ${String(payload.slot)}`),
      minutes: async (payload) => void order.push(`minutes ${String(payload.slot)}`),
    };
    const each = runner(tasks, [
      { task: 'twice', at: { hour: 6, minute: 0 } },
      { task: 'twice', at: { hour: 18, minute: 0 } },
      { task: 'minutes', everyMinutes: 5 },
    ]);
    await each.tick();
    // 06:00 and 18:00 in Kolkata on 03-13: 00:30 and 12:30 UTC.
    expect(order).toEqual(['twice 2027-03-13T00:30:00.000Z', 'twice 2027-03-13T12:30:00.000Z', 'minutes 2027-03-14T00:00:00.000Z']);
    // Tasks that do not claim their slots are claimed by the runner.
    now = new Date('2027-03-14T00:04:00Z');
    await each.tick();
    expect(order).toHaveLength(3);
    now = new Date('2027-03-14T00:12:00Z');
    await each.tick();
    expect(order.slice(3)).toEqual(['minutes 2027-03-14T00:10:00.000Z']);
    await each.stop();
  });

  it('leaves a failed slot to the next tick, not marked done', async () => {
    now = new Date('2027-03-15T05:00:00Z');
    let failing = true;
    const log = trace();
    const claiming = claimingTask(database, 'flaky');
    const flaky: Task = async (payload, context) => {
      if (failing) throw new Error('the mail server is down');
      await claiming(payload, context);
    };
    const schedule = [{ task: 'flaky', at: { hour: 10, minute: 0 } }];
    const first = runner({ flaky }, schedule, log.log);
    await first.tick();
    expect(log.warnings).toEqual(['the job flaky failed']);
    expect(await queryRows(database.db, sql`select slot from job_slots where task = 'flaky'`)).toEqual([]);
    failing = false;
    now = new Date('2027-03-15T05:01:00Z');
    await first.tick();
    expect((await runs(database, 'flaky')).map((r) => r.slot)).toEqual(['2027-03-15T04:30:00.000Z']);
    await first.stop();
  });

  it('runs a queued job once per key, when it is due, and retries a failed one later', async () => {
    now = new Date('2027-03-16T05:00:00Z');
    let attempts = 0;
    const tasks: Record<string, Task> = {
      evaluate: async (payload) => {
        await database.db.execute(sql`insert into test_job_runs (task, payload) values ('evaluate', ${JSON.stringify(payload)})`);
      },
      fragile: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('not yet');
        await database.db.execute(sql`insert into test_job_runs (task) values ('fragile')`);
      },
    };
    const queue = runner(tasks, []);
    await queue.add('evaluate', { register: 1 }, { jobKey: 'class:CSE1' });
    await queue.add('evaluate', { register: 2 }, { jobKey: 'class:CSE1' });
    await queue.add('evaluate', { register: 3 }, { runAt: new Date(now.getTime() + HOUR) });
    await queue.add('fragile');
    await expect(queue.add('unknown')).rejects.toThrow('No task "unknown" is registered');
    await queue.runDue();
    expect((await runs(database, 'evaluate')).map((r) => r.payload)).toEqual(['{"register":2}']);
    expect(attempts).toBe(1);
    // Retried after its back-off (e seconds), the later job at its time.
    now = new Date(now.getTime() + 3000);
    await queue.runDue();
    expect(attempts).toBe(2);
    expect(await runs(database, 'fragile')).toHaveLength(1);
    now = new Date(now.getTime() + HOUR);
    await queue.runDue();
    expect((await runs(database, 'evaluate')).map((r) => r.payload)).toEqual(['{"register":2}', '{"register":3}']);
    await queue.stop();
  });

  it('started, runs a queued job by itself; stopped, waits for the job running', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const ran: string[] = [];
    const queue = runner(
      {
        slow: async () => {
          ran.push('started');
          await released;
          ran.push('finished');
        },
      },
      [],
    );
    await queue.start();
    await queue.add('slow');
    await vi.waitUntil(() => ran.length > 0, { timeout: 10_000 });
    const stopped = queue.stop().then(() => ran.push('stopped'));
    release();
    await stopped;
    expect(ran).toEqual(['started', 'finished', 'stopped']);
  });

  it('refuses a schedule it cannot keep, or one of a task not registered', () => {
    expect(() => runner({}, [{ task: 'missing', everyMinutes: 1 }])).toThrow('A schedule names the task "missing", which is not registered');
    expect(() => runner({ x: async () => undefined }, [{ task: 'x', at: { hour: 7, minute: 75 } }])).toThrow('the minute must be 0 to 59');
  });
});

describe.skipIf(!onPostgres)('graphile-worker (PostgreSQL, several processes)', { timeout: 120_000 }, () => {
  let copy: { url: string; drop(): Promise<void> };
  const databases: Database[] = [];
  const runners: JobRunner[] = [];

  beforeAll(async () => {
    copy = await createPostgresCopy(process.env.TEST_DATABASE_URL!);
    for (let i = 0; i < 2; i += 1) databases.push(await openDatabase({ databaseUrl: copy.url }));
    await makeRunsTable(databases[0]!);
  }, 60_000);
  afterAll(async () => {
    for (const runner of runners) await runner.stop();
    for (const database of databases) await database.close();
    await copy?.drop();
  });

  let now = new Date('2027-03-10T02:01:00Z');
  const clock = () => now;

  function graphileRunner(database: Database, tasks: Record<string, Task>, schedules: JobRunnerOptions['schedules'] = []): GraphileJobRunner {
    const runner = createJobRunner({ database, connectionString: copy.url, timeZone: 'Asia/Kolkata', tasks, schedules, clock, log: trace().log, pollMs: 200 });
    runners.push(runner);
    expect(runner).toBeInstanceOf(GraphileJobRunner);
    return runner as GraphileJobRunner;
  }

  /** The jobs graphile-worker still holds of a task: none once it has run. */
  async function pending(task: string): Promise<number> {
    const rows = await queryRows<{ count: number }>(
      databases[0]!.db,
      sql`select count(*)::int as count from graphile_worker.jobs where task_identifier = ${task}`,
    );
    return rows[0]!.count;
  }

  it('runs a job added twice with one key once, in one of the processes', async () => {
    const evaluate = (database: Database): Task => async (payload) => {
      await database.db.execute(sql`insert into test_job_runs (task, payload) values ('evaluate', ${JSON.stringify(payload)})`);
    };
    const [one, two] = [graphileRunner(databases[0]!, { evaluate: evaluate(databases[0]!) }), graphileRunner(databases[1]!, { evaluate: evaluate(databases[1]!) })];
    // Added before the workers start, so that neither takes the first before the second replaces it.
    await one.add('evaluate', { register: 1 }, { jobKey: 'class:CSE1' });
    await two.add('evaluate', { register: 2 }, { jobKey: 'class:CSE1' });
    await one.add('evaluate', { register: 3 });
    await Promise.all([one.start(), two.start()]);
    await vi.waitUntil(async () => (await pending('evaluate')) === 0, { timeout: 60_000, interval: 200 });
    expect((await runs(databases[0]!, 'evaluate')).map((r) => r.payload).sort()).toEqual(['{"register":2}', '{"register":3}']);
    // Every process has the same tasks: those of the next test start their own.
    await Promise.all([one.stop(), two.stop()]);
  });

  it('runs a scheduled slot once across two processes ticking at once, and the cron task ticks', async () => {
    const schedules = [{ task: 'digest-daily', at: { hour: 7, minute: 30 } }];
    const [one, two] = databases.map((database) => graphileRunner(database, { 'digest-daily': claimingTask(database, 'digest-daily', { pauseMs: 300 }) }, schedules));
    await Promise.all([one!.tick(), two!.tick(), one!.tick()]);
    expect(await runs(databases[0]!, 'digest-daily')).toEqual([{ task: 'digest-daily', slot: '2027-03-10T02:00:00.000Z', payload: null }]);
    expect(await queryRows(databases[0]!.db, sql`select count(*)::int as count from job_slots where task = 'digest-daily'`)).toEqual([{ count: 1 }]);

    // The minute's tick, as graphile-worker's cron queues it, runs in a started worker.
    now = new Date('2027-03-11T02:01:00Z');
    await one!.start();
    const { quickAddJob } = await import('graphile-worker');
    await quickAddJob({ connectionString: copy.url }, 'portal:tick', {});
    await vi.waitUntil(async () => (await runs(databases[0]!, 'digest-daily')).length === 2, { timeout: 60_000, interval: 200 });
    expect((await runs(databases[0]!, 'digest-daily')).map((r) => r.slot)).toEqual(['2027-03-10T02:00:00.000Z', '2027-03-11T02:00:00.000Z']);
  });
});
