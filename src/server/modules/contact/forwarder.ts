import type { FormService } from '../../config';
import type { Database } from '../../db/client';
import * as repo from './repository';
import type { ContactMessageRow } from './repository';
import { WakeLoop, recordDelivery } from '../../db/wake-loop';

/** Notified after a message is stored, so that a worker in any server process starts at once. */
export const CONTACT_CHANNEL = 'contact_messages';

export const DEFAULT_FORWARDER_TIMING = {
  /** How often to look for due messages when nothing nudges the worker. */
  pollIntervalMs: 2_000,
  requestTimeoutMs: 10_000,
  /** First retry after a failure; doubles with every further failure up to retryMaxMs. */
  retryBaseMs: 5_000,
  retryMaxMs: 60 * 60 * 1000,
  /** After this many failed tries the message stays in the inbox, marked failed. */
  maxAttempts: 10,
  /** Messages sent side by side in one round; all of them finish within one request timeout. */
  batchSize: 5,
} as const;

const ERROR_MAX = 300;

/** The few logger methods the worker uses; Fastify's (pino) logger has them. */
export interface ForwarderLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ForwarderOptions {
  database: Pick<Database, 'db' | 'listen'>;
  service: FormService;
  log: ForwarderLog;
  pollIntervalMs?: number;
  requestTimeoutMs?: number;
  /** How long a claimed message is hidden from other workers; defaults to well over a request timeout. */
  leaseMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  maxAttempts?: number;
  batchSize?: number;
  fetch?: typeof fetch;
}

/** The wait before the next try, after `failures` failed tries (1, 2, ...). */
export function retryDelay(failures: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(failures - 1, 30)));
}

/** The JSON body the original app posted: the access key plus name, email, phone, subject, message. */
export function forwardBody(row: ContactMessageRow, accessKey: string) {
  return {
    access_key: accessKey,
    name: row.name,
    email: row.email,
    phone: row.phone ?? '',
    subject: row.subject,
    message: row.message,
  };
}

type Outcome = { ok: true } | { ok: false; error: string };

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') return code;
    current = cause;
  }
  return undefined;
}

/**
 * Sends stored contact messages to the form-submission service in the background (decision 5):
 * retries with back-off, records the outcome on the row, and never sends a message again once the
 * service has accepted it.
 */
export class ContactForwarder {
  private readonly pollIntervalMs: number;
  private readonly loop: WakeLoop;
  private readonly requestTimeoutMs: number;
  private readonly leaseMs: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly maxAttempts: number;
  private readonly batchSize: number;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ForwarderOptions) {
    const d = DEFAULT_FORWARDER_TIMING;
    this.pollIntervalMs = options.pollIntervalMs ?? d.pollIntervalMs;
    this.requestTimeoutMs = options.requestTimeoutMs ?? d.requestTimeoutMs;
    // A lease that ran out while the request was still open would let a second worker send it too.
    this.leaseMs = options.leaseMs ?? Math.max(60_000, 3 * this.requestTimeoutMs);
    this.retryBaseMs = options.retryBaseMs ?? d.retryBaseMs;
    this.retryMaxMs = options.retryMaxMs ?? d.retryMaxMs;
    this.maxAttempts = options.maxAttempts ?? d.maxAttempts;
    this.batchSize = options.batchSize ?? d.batchSize;
    this.fetch = options.fetch ?? fetch;
    this.loop = new WakeLoop({
      database: options.database,
      channel: CONTACT_CHANNEL,
      pollIntervalMs: this.pollIntervalMs,
      round: () => this.round(),
      onListenError: (error) => options.log.warn({ code: errorCode(error) }, 'contact forwarding: cannot listen for new messages'),
    });
  }

  /** Starts polling, and listens for new messages so that they go out without waiting for the poll. */
  async start(): Promise<void> {
    await this.loop.start();
  }

  /** Looks for due messages now (or right after the round in progress). */
  nudge(): void {
    this.loop.nudge();
  }

  /** Stops taking messages and waits for the sends in progress to be recorded. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One pass: claims and sends due messages until none are left. */
  private async round(): Promise<void> {
    try {
      while (!this.loop.stopped) {
        const rows = await repo.claimDue(this.options.database.db, {
          limit: this.batchSize,
          leaseMs: this.leaseMs,
          maxAttempts: this.maxAttempts,
        });
        if (rows.length === 0) return;
        await Promise.all(rows.map((row) => this.forwardOne(row)));
        if (rows.length < this.batchSize) return;
      }
    } catch (error) {
      // The database's own error text may quote SQL; the code is enough to diagnose it.
      this.options.log.error({ code: errorCode(error) }, 'contact forwarding: database error, will try again');
    }
  }

  private async forwardOne(row: ContactMessageRow): Promise<void> {
    const outcome = await this.send(row);
    const { db } = this.options.database;
    if (outcome.ok) {
      await recordDelivery(() => repo.markForwarded(db, row.id));
      this.options.log.info({ contactMessageId: row.id }, 'contact message forwarded');
      return;
    }
    const failures = row.forwardAttempts + 1;
    const giveUp = failures >= this.maxAttempts;
    const retryInMs = giveUp ? null : retryDelay(failures, this.retryBaseMs, this.retryMaxMs);
    await repo.markFailed(db, row.id, outcome.error, retryInMs);
    this.options.log.warn(
      { contactMessageId: row.id, attempts: failures, retryInMs, error: outcome.error },
      giveUp ? 'contact message forwarding failed, giving up' : 'contact message forwarding failed, will retry',
    );
  }

  private async send(row: ContactMessageRow): Promise<Outcome> {
    const { endpoint, accessKey } = this.options.service;
    // The service's own words may end up in the inbox and the log: never with the key in them.
    const fail = (error: string): Outcome => ({
      ok: false,
      error: error.split(accessKey).join('***').slice(0, ERROR_MAX),
    });
    try {
      const response = await this.fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(forwardBody(row, accessKey)),
        signal: AbortSignal.timeout(this.requestTimeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        return fail(`The form service answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
      }
      // The status already says it arrived; an answer cut short must not make us send it again.
      const text = await response.text().catch(() => '');
      // Form services commonly answer 200 with { success: false, message } when they refuse a message.
      const refusal = refusalOf(text);
      if (refusal !== undefined) {
        return fail(`The form service refused the message${refusal ? `: ${refusal}` : ''}`);
      }
      return { ok: true };
    } catch (error) {
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
        return fail(`The form service did not answer within ${Math.round(this.requestTimeoutMs / 100) / 10} s`);
      }
      const code = errorCode(error);
      return fail(`Could not reach the form service${code ? ` (${code})` : ''}`);
    }
  }
}

/** The service's reason when its answer says success: false; undefined when it accepted the message. */
function refusalOf(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || (body as { success?: unknown }).success !== false) return undefined;
  const message = (body as { message?: unknown }).message;
  return typeof message === 'string' ? message : '';
}
