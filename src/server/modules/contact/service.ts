import {
  CONTACT_MESSAGE_NOT_FOUND,
  HONEYPOT_FIELD,
  type ContactInput,
  type ContactMessage,
  type ForwardStatus,
} from '../../../shared/schemas/contact';
import type { Database, Executor } from '../../db/client';
import { notFound } from '../../http-error';
import { addOutboxGauges, type Metrics } from '../../plugins/metrics';
import { CONTACT_CHANNEL } from './forwarder';
import * as repo from './repository';
import type { ContactMessageRow } from './repository';

/** The inbox shows this many of the newest messages. */
export const INBOX_LIMIT = 500;

const MAX_SERIAL = 2_147_483_647;

export function forwardStatusOf(row: ContactMessageRow, forwarding: boolean): ForwardStatus {
  if (row.forwardedAt) return 'forwarded';
  if (!forwarding) return 'off';
  // The worker clears next_attempt_at only when it gives up after an error.
  if (row.forwardError !== null && row.nextAttemptAt === null) return 'failed';
  return 'pending';
}

export function toContactMessageResponse(row: ContactMessageRow, forwarding: boolean): ContactMessage {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    subject: row.subject,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
    forwardStatus: forwardStatusOf(row, forwarding),
    forwardedAt: row.forwardedAt?.toISOString() ?? null,
    forwardError: row.forwardError,
    forwardAttempts: row.forwardAttempts,
  };
}

export interface SubmitResult {
  stored: boolean;
}

/**
 * Stores the message before anything else (decision 5) and wakes the forwarding
 * workers. A filled honeypot means a robot: nothing is stored, but the caller answers as usual.
 */
export async function submitMessage(
  database: Pick<Database, 'db' | 'notify'>,
  input: ContactInput,
  log: { warn(obj: object, msg: string): void },
): Promise<SubmitResult> {
  if (input[HONEYPOT_FIELD]) return { stored: false };
  const row = await repo.insertMessage(database.db, {
    name: input.name,
    email: input.email,
    phone: input.phone,
    subject: input.subject,
    message: input.message,
  });
  try {
    await database.notify(CONTACT_CHANNEL, String(row.id));
  } catch {
    // The message is stored; the workers' regular poll picks it up a moment later.
    log.warn({ contactMessageId: row.id }, 'could not notify the contact forwarding workers');
  }
  return { stored: true };
}

export async function listInbox(db: Executor, forwarding: boolean): Promise<ContactMessage[]> {
  return (await repo.listMessages(db, INBOX_LIMIT)).map((row) => toContactMessageResponse(row, forwarding));
}

/** Ids are positive integers; anything else cannot name a message. */
function parseId(id: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(id)) return undefined;
  const value = Number(id);
  return value <= MAX_SERIAL ? value : undefined;
}

export async function setMessageRead(db: Executor, id: string, read: boolean, forwarding: boolean): Promise<ContactMessage> {
  const numeric = parseId(id);
  const row = numeric === undefined ? undefined : await repo.setRead(db, numeric, read);
  if (!row) throw notFound(CONTACT_MESSAGE_NOT_FOUND);
  return toContactMessageResponse(row, forwarding);
}

/** The contact forwarder's outbox in the metrics: messages waiting to be forwarded, and the oldest's wait. */
export function addOutboxMetrics(metrics: Metrics, db: Executor): void {
  addOutboxGauges(metrics, { name: 'contact_outbox', items: 'Contact messages', read: () => repo.outboxState(db) });
}
