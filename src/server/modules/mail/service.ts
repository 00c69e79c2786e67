/**
 * The mail outbox (decision 37): every e-mail the portal sends is queued here, in the transaction
 * of what it is about, and the sender (sender.ts) delivers it through SMTP with retries. Other
 * modules queue, cancel and read the state of their messages through this file.
 */
import type { Executor } from '../../db/client';
import { addOutboxGauges, type Metrics } from '../../plugins/metrics';
import * as repo from './repository';

/** Notified when a message is queued (at commit), so that a sender in any process starts at once. */
export const MAIL_CHANNEL = 'mail_outbox';

/** A message not sent within this long is given up, unless it says otherwise. */
export const DEFAULT_MAIL_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** What it is about: a newer message on the topic cancels this one if it is not sent yet. */
  topic?: string | undefined;
  /** Extra headers, such as List-Unsubscribe. */
  headers?: Record<string, string> | undefined;
  /** Not sent by then: given up (a link in it stops working then). */
  expiresAt?: Date | undefined;
}

/** Where a message is: waiting (perhaps after failures), taken by the SMTP server, or given up. */
export interface MailState {
  state: 'queued' | 'failing' | 'sent' | 'failed';
  queuedAt: Date;
  sentAt: Date | null;
  attempts: number;
  lastError: string | null;
  /** When the next try is due, while it waits. */
  nextAttemptAt: Date | null;
}

/**
 * Queues an e-mail. Call it with the transaction of what the e-mail is about: the message is stored
 * with it or not at all, and senders hear of it when the transaction commits.
 */
export async function queueMail(db: Executor, mail: OutgoingMail, now = new Date()): Promise<number> {
  const row = await repo.insertMail(db, {
    topic: mail.topic ?? null,
    recipient: mail.to,
    subject: mail.subject,
    body: mail.text,
    headers: mail.headers ?? {},
    expiresAt: mail.expiresAt ?? new Date(now.getTime() + DEFAULT_MAIL_LIFETIME_MS),
  });
  if (mail.topic !== undefined) await repo.cancelQueued(db, mail.topic, row.id);
  await repo.notify(db, MAIL_CHANNEL);
  return row.id;
}

/** Cancels the topic's messages that are not sent yet (what they said no longer holds). */
export function cancelMail(db: Executor, topic: string): Promise<void> {
  return repo.cancelQueued(db, topic);
}

function toState(row: repo.MailRow): MailState {
  const state = row.status === 'sent' ? 'sent' : row.status === 'failed' ? 'failed' : row.lastError ? 'failing' : 'queued';
  return {
    state,
    queuedAt: row.createdAt,
    sentAt: row.sentAt,
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: row.status === 'queued' ? row.nextAttemptAt : null,
  };
}

/** The state of the newest message (not cancelled) of each topic that has one. */
export async function latestMailOf(db: Executor, topics: string[]): Promise<Map<string, MailState>> {
  const rows = await repo.latestOfTopics(db, [...new Set(topics)]);
  return new Map(rows.map((row) => [row.topic ?? '', toState(row)]));
}

/** The outbox at a glance, for monitoring: messages waiting to be sent, and the oldest one's age. */
export interface OutboxStats {
  depth: number;
  /** Seconds since the oldest waiting message was queued; null when none waits. */
  oldestAgeSeconds: number | null;
}

export async function outboxStats(db: Executor): Promise<OutboxStats> {
  const { depth, oldestAgeMs } = await repo.queuedStats(db);
  return { depth, oldestAgeSeconds: oldestAgeMs === null ? null : Math.max(0, oldestAgeMs / 1000) };
}

/** The mail outbox in the metrics: e-mails waiting to be sent, and how long the oldest has waited. */
export function addMailOutboxMetrics(metrics: Metrics, db: Executor): void {
  addOutboxGauges(metrics, { name: 'mail_outbox', items: 'E-mails', read: () => outboxStats(db) });
}
