import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { createHmac, createPublicKey, timingSafeEqual, verify, type KeyObject } from 'node:crypto';

/**
 * The check-in's codes (decision 45). Time is cut into slots of 10 seconds since the epoch; the
 * code of a slot is HMAC-SHA256 of `<check-in id>.<slot>` under the check-in's random secret, so
 * that nothing is stored per code and every server process makes and checks the same ones:
 *
 * - the QR's token is `<id>.<slot>.<mac>`, mac the digest's first 12 bytes (96 bits) in base64url;
 * - the typed code is six base32 letters (30 bits) from the digest's bytes 12 to 15.
 *
 * A code is accepted from the start of its slot until 22 seconds later: its slot, the next (the
 * screen may not have redrawn yet), and 2 seconds for the phone's request to arrive.
 */
export const SLOT_MS = 10_000;
export const CODE_LIFETIME_MS = 22_000;
const MAC_BYTES = 12;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const TYPED_CODE_LENGTH = 6;

export function slotAt(time: number): number {
  return Math.floor(time / SLOT_MS);
}

export function slotStart(slot: number): number {
  return slot * SLOT_MS;
}

function digestOf(secret: Buffer, id: string, slot: number): Buffer {
  return createHmac('sha256', secret).update(`${id}.${slot}`).digest();
}

/** The QR's token of a slot. */
export function tokenFor(secret: Buffer, id: string, slot: number): string {
  return `${id}.${slot}.${digestOf(secret, id, slot).subarray(0, MAC_BYTES).toString('base64url')}`;
}

/** The six letters a student can type instead of scanning. */
export function typedCodeFor(secret: Buffer, id: string, slot: number): string {
  // The top 30 bits of bytes 12 to 15: six letters of 5 bits.
  const bits = digestOf(secret, id, slot).readUInt32BE(MAC_BYTES) >>> 2;
  let code = '';
  for (let i = TYPED_CODE_LENGTH - 1; i >= 0; i -= 1) code += BASE32[(bits >>> (5 * i)) & 31];
  return code;
}

/** A typed code as the student may type it: any case, with spaces or a dash. */
export function normaliseTypedCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '');
}

const TOKEN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d{1,13})\.([A-Za-z0-9_-]{16})$/;

export interface ParsedToken {
  id: string;
  slot: number;
  mac: string;
}

/** The parts of a token, or null when it is not one. */
export function parseToken(token: string): ParsedToken | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  return { id: match[1]!, slot: Number(match[2]), mac: match[3]! };
}

/** Whether the token's mac is the one the secret makes for its id and slot (compared in constant time). */
export function macMatches(secret: Buffer, token: ParsedToken): boolean {
  const expected = digestOf(secret, token.id, token.slot).subarray(0, MAC_BYTES);
  const given = Buffer.from(token.mac, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Whether a code of `slot` is accepted at `time`. */
export function slotAccepted(slot: number, time: number): boolean {
  const start = slotStart(slot);
  return time >= start && time < start + CODE_LIFETIME_MS;
}

/** The slots whose codes are accepted at `time`: the current one, and the one before while it lasts. */
export function acceptedSlots(time: number): number[] {
  const current = slotAt(time);
  return [current, current - 1, current - 2].filter((slot) => slotAccepted(slot, time));
}

/**
 * The device's signature (decision 45). The browser keeps a non-extractable WebCrypto ECDSA P-256
 * key pair; each scan sends the public key (`raw` export: 65 bytes, 0x04 x y, in base64url), the
 * time it signed (`signedAt`, milliseconds since the epoch) and the signature, WebCrypto's raw r||s
 * (64 bytes, base64url) with SHA-256, of the UTF-8 text
 *
 *   portal-checkin\n<subject>\n<signedAt>
 *
 * where subject is the token scanned, the code typed (as typed), or `pending` for the scan kept
 * while the student signed in.
 */
export function signedMessage(subject: string, signedAt: number): string {
  return `portal-checkin\n${subject}\n${signedAt}`;
}

/** A signature this far from the server's clock (either way) is not believed. */
export const SIGNATURE_WINDOW_MS = 5 * 60_000;

const RAW_P256_KEY_BYTES = 65;

/** The public key of a device, or null when `deviceKey` is not an uncompressed P-256 point. */
export function parseDeviceKey(deviceKey: string): KeyObject | null {
  if (!/^[A-Za-z0-9_-]+$/.test(deviceKey)) return null;
  const raw = Buffer.from(deviceKey, 'base64url');
  if (raw.length !== RAW_P256_KEY_BYTES || raw[0] !== 0x04) return null;
  try {
    return createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
      format: 'jwk',
    });
  } catch {
    // Not a point of the curve.
    return null;
  }
}

/** Whether `signature` (raw r||s, base64url) is the key's signature of the message. */
export function signatureValid(key: KeyObject, message: string, signature: string): boolean {
  const bytes = Buffer.from(signature, 'base64url');
  if (bytes.length !== 64) return false;
  try {
    return verify('sha256', Buffer.from(message, 'utf8'), { key, dsaEncoding: 'ieee-p1363' }, bytes);
  } catch {
    return false;
  }
}

/** Whether an address is on one of the campus's networks (CIDRs as config.ts writes them). */
export function campusMatcher(networks: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const network of networks) {
    const [address = '', prefix = ''] = network.split('/');
    list.addSubnet(address, Number(prefix), isIPv4(address) ? 'ipv4' : 'ipv6');
  }
  return (address) => {
    // An IPv4 client on a dual-stack socket arrives as ::ffff:a.b.c.d.
    const plain = address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
    if (isIPv4(plain)) return list.check(plain, 'ipv4');
    if (isIPv6(plain)) return list.check(plain, 'ipv6');
    return false;
  };
}
