import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226): HMAC-SHA1, 30-second steps, six
 * digits, as every authenticator app reads them from an otpauth:// address (decision 17).
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** One step of clock drift is forgiven either way: the phone may be a little ahead or behind. */
export const TOTP_DRIFT_STEPS = 1;
/** 160 bits, the size of SHA-1's output (RFC 4226 asks for at least 128). */
const SECRET_BYTES = 20;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export function newTotpSecret(): string {
  return base32Encode(randomBytes(SECRET_BYTES));
}

/** The step a moment falls in. */
export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_STEP_SECONDS);
}

/** The code of one step (RFC 4226's HOTP with the step as counter). */
export function totpCode(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, '0');
}

/**
 * The step whose code this is, within the drift allowed around `now`, or null. Steps at or before
 * `lastUsedStep` never match: a code works once, and an older one cannot follow a newer one.
 */
export function matchTotp(secret: string, code: string, now: Date, lastUsedStep: number | null): number | null {
  const typed = Buffer.from(code.replace(/\s/g, ''));
  if (typed.length !== TOTP_DIGITS) return null;
  const current = totpStep(now);
  for (let step = current - TOTP_DRIFT_STEPS; step <= current + TOTP_DRIFT_STEPS; step += 1) {
    if (lastUsedStep !== null && step <= lastUsedStep) continue;
    if (timingSafeEqual(Buffer.from(totpCode(secret, step)), typed)) return step;
  }
  return null;
}

/** The address an authenticator app reads from the QR code: the portal's name and the account's e-mail label it. */
export function otpauthUrl(secret: string, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  // Spaces as %20, not '+': authenticator apps read the query that way.
  const query = Object.entries({ secret, issuer, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_STEP_SECONDS })
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');
  return `otpauth://totp/${label}?${query}`;
}

/** Ten recovery codes, each 10 characters of base32 in two groups (`ABCDE-FGHIJ`), about 50 bits apiece. */
export function newRecoveryCodes(count = 10): string[] {
  return Array.from({ length: count }, () => {
    const text = base32Encode(randomBytes(7)).slice(0, 10);
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
}

/** A recovery code as typed, made comparable: case, spaces and dashes do not matter. */
export function normaliseRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}
