import { randomBytes } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether an id from a request can name a row of a table keyed by UUID. Anything else names no
 * row: look-ups answer "not found" without asking the database, which would refuse the query.
 */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/**
 * A new UUID whose first 48 bits are the time in milliseconds (version 7, RFC 9562), the rest
 * random. Rows keyed by such ids are added at the end of their indexes, in the pages written
 * last, instead of at a random place of the whole index: a register's marks, keyed by (register,
 * PIN), then cost a save no page of the marks' key read from disk however many marks there are.
 */
export function timeOrderedUuid(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
