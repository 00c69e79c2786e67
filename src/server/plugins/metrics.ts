import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client';

/** Every family's name starts with this. */
export const METRICS_PREFIX = 'portal_';

/** A value read when the metrics are asked for: a number, or one per set of label values. */
export type Reading = number | Array<{ labels: Record<string, string>; value: number }>;

/**
 * The process's metrics, in Prometheus text (prom-client). One per app, so that the apps a test
 * builds side by side do not share counters. A part of the portal adds its own families here:
 * a gauge read on each scrape (`addGauge`), or a counter or histogram it updates itself. Names are
 * given without the `portal_` prefix.
 */
export class Metrics {
  readonly registry = new Registry();

  /**
   * A gauge whose value is read when the metrics are asked for. A reading that fails (the database
   * is down) gives NaN, and the other families are still answered.
   */
  addGauge(options: { name: string; help: string; labelNames?: string[]; read: () => Reading | Promise<Reading> }): void {
    const { read } = options;
    new Gauge({
      name: `${METRICS_PREFIX}${options.name}`,
      help: options.help,
      labelNames: options.labelNames ?? [],
      registers: [this.registry],
      async collect() {
        let reading: Reading;
        try {
          reading = await read();
        } catch {
          reading = Number.NaN;
        }
        this.reset();
        if (typeof reading === 'number') this.set(reading);
        else for (const { labels, value } of reading) this.set(labels, value);
      },
    });
  }

  addCounter<Label extends string>(options: { name: string; help: string; labelNames?: Label[] }): Counter<Label> {
    return new Counter({ ...options, name: `${METRICS_PREFIX}${options.name}`, labelNames: options.labelNames ?? [], registers: [this.registry] });
  }

  addHistogram<Label extends string>(options: { name: string; help: string; labelNames?: Label[]; buckets: number[] }): Histogram<Label> {
    return new Histogram({ ...options, name: `${METRICS_PREFIX}${options.name}`, labelNames: options.labelNames ?? [], registers: [this.registry] });
  }

  /** The text a Prometheus server reads. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** Request durations' buckets, in seconds: from a cached read to the request timeout. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The label of a request that matched no route (a page of the web app, a wrong address). */
const NO_ROUTE = 'none';

/**
 * Times every answered request by its route's pattern (`/api/students/:pin`, never the address
 * itself, so that the families stay few), method and status.
 */
export const httpMetricsPlugin = fp<{ metrics: Metrics }>(async (app: FastifyInstance, { metrics }) => {
  const durations = metrics.addHistogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to its answer, by route pattern, method and status',
    labelNames: ['route', 'method', 'status_code'],
    buckets: DURATION_BUCKETS,
  });
  app.addHook('onResponse', async (request, reply) => {
    durations.observe(
      { route: request.routeOptions.url ?? NO_ROUTE, method: request.method, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
});

/**
 * The event loop's delay: one monitor for the process, however many apps it builds, read by each
 * app's metrics. The percentiles cover the time since the previous scrape (at least 10 ms of
 * samples are kept).
 */
let eventLoop: IntervalHistogram | undefined;
/** How often the monitor's timer runs (ms). */
const EVENT_LOOP_RESOLUTION_MS = 10;

export function addEventLoopMetrics(metrics: Metrics): void {
  if (!eventLoop) {
    eventLoop = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
    eventLoop.enable();
  }
  const monitor = eventLoop;
  metrics.addGauge({
    name: 'event_loop_delay_seconds',
    help: 'How late the event loop ran its timers since the previous scrape: the 50th and 99th percentiles and the longest',
    labelNames: ['quantile'],
    read() {
      // Nanoseconds between the monitor's timer runs, its interval included: the lateness is what
      // exceeds the interval. Without a sample since the last reset, every figure reads as 0.
      const sampled = monitor.count > 0;
      const seconds = (ns: number) => (sampled && Number.isFinite(ns) ? Math.max(0, ns - EVENT_LOOP_RESOLUTION_MS * 1e6) / 1e9 : 0);
      const reading = [
        { labels: { quantile: '0.5' }, value: seconds(monitor.percentile(50)) },
        { labels: { quantile: '0.99' }, value: seconds(monitor.percentile(99)) },
        { labels: { quantile: '1' }, value: seconds(monitor.max) },
      ];
      if (monitor.count > 0) monitor.reset();
      return reading;
    },
  });
}

/** The database's connections: in use, waiting for one, and open (see `PoolUse`). */
export function addDatabaseMetrics(metrics: Metrics, database: Pick<Database, 'poolUse'>): void {
  metrics.addGauge({ name: 'db_pool_in_use', help: 'Database connections running a query or a transaction', read: () => database.poolUse().inUse });
  metrics.addGauge({ name: 'db_pool_waiting', help: 'Queries waiting for a database connection', read: () => database.poolUse().waiting });
  metrics.addGauge({ name: 'db_pool_size', help: 'Database connections open (the embedded database has one session)', read: () => database.poolUse().size });
}

/**
 * An outbox's two families: `<name>_depth` (items waiting) and `<name>_oldest_age_seconds` (how
 * long the oldest has waited; 0 when none waits). One reading, at most a second old, serves both.
 */
export function addOutboxGauges(
  metrics: Metrics,
  options: { name: string; items: string; read: () => Promise<{ depth: number; oldestAgeSeconds: number | null }> },
): void {
  let reading: { at: number; state: Promise<{ depth: number; oldestAgeSeconds: number | null }> } | undefined;
  const state = () => {
    const now = Date.now();
    if (!reading || now - reading.at > 1000) reading = { at: now, state: options.read() };
    return reading.state;
  };
  metrics.addGauge({
    name: `${options.name}_depth`,
    help: `${options.items} waiting to be sent`,
    read: async () => (await state()).depth,
  });
  metrics.addGauge({
    name: `${options.name}_oldest_age_seconds`,
    help: `How long the oldest of the ${options.items.toLowerCase()} waiting to be sent has waited (0 when none waits)`,
    read: async () => (await state()).oldestAgeSeconds ?? 0,
  });
}
