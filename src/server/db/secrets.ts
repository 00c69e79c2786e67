import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { portalSecrets } from './schema';

/**
 * A secret every server process on the database shares (the key that signs cookies): created
 * at the first start, then read by every process, so that a cookie signed by one is accepted by
 * the others. A configured value (PORTAL_SECRET) wins and is never stored.
 */
export async function sharedSecret(db: Db, name: string, configured?: string): Promise<string> {
  if (configured) return configured;
  const stored = async () =>
    (await db.select({ value: portalSecrets.value }).from(portalSecrets).where(eq(portalSecrets.name, name)))[0]?.value;
  // Read first: every start but the first finds it, and writes nothing.
  const found = await stored();
  if (found !== undefined) return found;
  // Two processes starting at once both insert; the first wins and both read the same row.
  await db
    .insert(portalSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing({ target: portalSecrets.name });
  const value = await stored();
  if (value === undefined) throw new Error(`secret ${name} missing after insert`);
  return value;
}

/**
 * The keys of a signer: the configured ones (PORTAL_SECRET, the first signs and all verify, so a
 * key can be rotated), else the one kept in the database under `name`.
 */
export async function signingKeys(db: Db, name: string, configured?: readonly string[]): Promise<string[]> {
  if (configured && configured.length > 0) return [...configured];
  return [await sharedSecret(db, name)];
}
