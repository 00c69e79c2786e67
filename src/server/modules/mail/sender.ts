import type { Transporter } from 'nodemailer';
import type { SmtpSettings } from '../../config';
import type { Database } from '../../db/client';
import * as repo from './repository';
import type { MailRow } from './repository';
import { MAIL_CHANNEL } from './service';
import { WakeLoop, recordDelivery } from '../../db/wake-loop';

export const DEFAULT_SENDER_TIMING = {
  /** How often to look for due messages when nothing nudges the sender. */
  pollIntervalMs: 5_000,
  /** First retry after a failure; doubles with every further failure, up to a day. */
  retryBaseMs: 30_000,
  retryMaxMs: 24 * 60 * 60 * 1000,
  /** Messages sent side by side in one round. */
  batchSize: 5,
  /** Sent, given-up and cancelled messages are kept this long (the admin's page shows the last one). */
  keepFinishedMs: 90 * 24 * 60 * 60 * 1000,
} as const;

/** Each SMTP step has this long at most, so that a send always ends well within its lease. */
const SMTP_TIMEOUT_MS = 20_000;
const ERROR_MAX = 300;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** The few logger methods the sender uses; Fastify's (pino) logger has them. */
export interface SenderLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What the sender hands a message to: nodemailer's SMTP transport, made from PORTAL_SMTP_URL. */
type MailTransport = Pick<Transporter, 'sendMail'>;

export interface MailSenderOptions {
  database: Pick<Database, 'db' | 'listen'>;
  smtp: SmtpSettings;
  log: SenderLog;
  pollIntervalMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** How long a claimed message is hidden from other senders; well over a send's longest time. */
  leaseMs?: number;
  batchSize?: number;
}

/** The wait before the next try, after `failures` failed tries (1, 2, ...): doubling, at most `maxMs`. */
export function retryDelay(failures: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(failures - 1, 30)));
}

type Outcome = { ok: true } | { ok: false; error: string; permanent: boolean };

interface SmtpError {
  code?: unknown;
  responseCode?: unknown;
  response?: unknown;
  message?: unknown;
}

/** The SMTP server's or the network's reason, in a line an admin can act on, without the SMTP password. */
function describeFailure(error: unknown, smtpUrl: string): Outcome & { ok: false } {
  const { code, responseCode, response, message } = (typeof error === 'object' && error !== null ? error : {}) as SmtpError;
  const status = typeof responseCode === 'number' ? responseCode : undefined;
  let text: string;
  if (status !== undefined && typeof response === 'string') text = `The mail server answered ${response}`;
  else if (code === 'EAUTH') text = 'The mail server refused the sign-in of PORTAL_SMTP_URL';
  else if (code === 'ETIMEDOUT') text = 'The mail server did not answer in time';
  else text = `Could not reach the mail server${typeof message === 'string' ? `: ${message}` : ''}`;
  let password = '';
  try {
    password = decodeURIComponent(new URL(smtpUrl).password);
  } catch {
    // Checked at start: a URL.
  }
  if (password) text = text.split(password).join('***');
  // A 5xx answer about the recipient will not change with time; anything else may.
  const permanent = code === 'EENVELOPE' && status !== undefined && status >= 500;
  return { ok: false, error: text.slice(0, ERROR_MAX), permanent };
}

/**
 * Sends the outbox's messages through SMTP in the background: claims due ones (safely beside other
 * senders on the same database), retries a failure later and later (up to a day apart) until the
 * message expires, and records each outcome. A message the SMTP server took is never sent again
 * by any sender.
 */
export class MailSender {
  private readonly pollIntervalMs: number;
  private readonly loop: WakeLoop;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly leaseMs: number;
  private readonly batchSize: number;
  private transport: Promise<MailTransport> | undefined;
  private prunedAt = 0;

  constructor(private readonly options: MailSenderOptions) {
    const d = DEFAULT_SENDER_TIMING;
    this.pollIntervalMs = options.pollIntervalMs ?? d.pollIntervalMs;
    this.retryBaseMs = options.retryBaseMs ?? d.retryBaseMs;
    this.retryMaxMs = options.retryMaxMs ?? d.retryMaxMs;
    // Every SMTP step is bounded: a lease that ran out mid-send would let a second sender send it too.
    this.leaseMs = options.leaseMs ?? 15 * SMTP_TIMEOUT_MS;
    this.batchSize = options.batchSize ?? d.batchSize;
    this.loop = new WakeLoop({
      database: options.database,
      channel: MAIL_CHANNEL,
      pollIntervalMs: this.pollIntervalMs,
      round: () => this.round(),
      onListenError: (error) => options.log.warn({ code: (error as SmtpError | undefined)?.code }, 'mail: cannot listen for new messages'),
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
    const transport = this.transport;
    this.transport = undefined;
    await transport?.then((t) => (t as Partial<Transporter>).close?.()).catch(() => undefined);
  }

  /** Sends what is due now, in this process, until nothing is left; returns how many it tried. */
  async sendDue(): Promise<number> {
    const { db } = this.options.database;
    const expired = await repo.failExpired(db);
    if (expired > 0) this.options.log.warn({ messages: expired }, 'mail: messages not sent before they expired were given up');
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await repo.deleteFinishedBefore(db, new Date(Date.now() - DEFAULT_SENDER_TIMING.keepFinishedMs));
    }
    let tried = 0;
    for (;;) {
      const rows = await repo.claimDue(db, { limit: this.batchSize, leaseMs: this.leaseMs });
      if (rows.length === 0) return tried;
      await Promise.all(rows.map((row) => this.sendOne(row)));
      tried += rows.length;
      if (rows.length < this.batchSize || this.loop.stopped) return tried;
    }
  }

  private async round(): Promise<void> {
    try {
      await this.sendDue();
    } catch (error) {
      // The database's own error text may quote SQL; the code is enough to diagnose it.
      this.options.log.error({ code: (error as SmtpError | undefined)?.code }, 'mail: database error, will try again');
    }
  }

  private async sendOne(row: MailRow): Promise<void> {
    const outcome = await this.send(row);
    const { db } = this.options.database;
    if (outcome.ok) {
      await recordDelivery(() => repo.markSent(db, row.id));
      this.options.log.info({ mailId: row.id }, 'mail sent');
      return;
    }
    const failures = row.attempts + 1;
    const retryInMs = outcome.permanent ? null : retryDelay(failures, this.retryBaseMs, this.retryMaxMs);
    await repo.markFailed(db, row.id, outcome.error, retryInMs);
    this.options.log.warn(
      { mailId: row.id, attempts: failures, retryInMs, error: outcome.error },
      outcome.permanent ? 'mail refused for good, giving up' : 'mail not sent, will retry',
    );
  }

  private async send(row: MailRow): Promise<Outcome> {
    try {
      const transport = await this.transportFor();
      await transport.sendMail({
        from: this.options.smtp.from,
        to: row.recipient,
        subject: row.subject,
        text: row.body ?? '',
        headers: row.headers,
      });
      return { ok: true };
    } catch (error) {
      return describeFailure(error, this.options.smtp.url);
    }
  }

  /** Nodemailer is loaded with the first e-mail, not at start. */
  private transportFor(): Promise<MailTransport> {
    this.transport ??= import('nodemailer')
      .then(({ default: nodemailer }) =>
        nodemailer.createTransport({
          url: this.options.smtp.url,
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
        }),
      )
      .catch((err: unknown) => {
        this.transport = undefined; // Tried again with the next e-mail.
        throw err;
      });
    return this.transport;
  }
}
