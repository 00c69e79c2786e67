import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { preparedOn } from '../../db/prepared-queries';
import { profilePhotos, profiles } from '../../db/schema';

export type ProfileRow = typeof profiles.$inferSelect;
export type NewProfileRow = typeof profiles.$inferInsert;
export type ProfileChanges = Partial<Omit<NewProfileRow, 'id' | 'createdAt' | 'updatedAt'>>;

export const PROFILE_PIN_KEY = 'profiles_pin_key';

export async function insertProfile(db: Executor, row: NewProfileRow): Promise<ProfileRow> {
  const [created] = await db.insert(profiles).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

/** Newest first; all of them, or those of one status. */
export function listProfiles(db: Executor, status?: ProfileRow['status']): Promise<ProfileRow[]> {
  return db
    .select()
    .from(profiles)
    .where(status === undefined ? undefined : eq(profiles.status, status))
    .orderBy(desc(profiles.createdAt), desc(profiles.id));
}

/** The profile on a PIN, whatever its status, or only an approved one. */
export function findProfileByPin(
  db: Executor,
  pin: string,
  status?: ProfileRow['status'],
): Promise<ProfileRow | undefined> {
  // Prepared once per executor and status (db/prepared-queries.ts); unnamed, so that the database layer decides whether it is kept.
  const query = preparedOn(db, `profiles.findProfileByPin.${status ?? 'any'}`, (on) =>
    on
      .select()
      .from(profiles)
      .where(and(eq(profiles.pin, sql.placeholder('pin')), status === undefined ? undefined : eq(profiles.status, status)))
      .limit(1)
      .prepare(''),
  );
  return query.execute({ pin }).then((rows) => rows[0]);
}

export async function findProfileById(db: Executor, id: string): Promise<ProfileRow | undefined> {
  const [row] = await db.select().from(profiles).where(eq(profiles.id, id)).limit(1);
  return row;
}

/** Applies the changes and stamps updated_at with the database's clock, like created_at. */
export async function updateProfile(db: Executor, id: string, changes: ProfileChanges): Promise<ProfileRow | undefined> {
  const [updated] = await db
    .update(profiles)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(profiles.id, id))
    .returning();
  return updated;
}

/** True when a profile was removed. */
export async function deleteProfile(db: Executor, id: string): Promise<boolean> {
  const removed = await db.delete(profiles).where(eq(profiles.id, id)).returning({ id: profiles.id });
  return removed.length > 0;
}

export async function setStatusOfPins(db: Executor, pins: string[], status: ProfileRow['status']): Promise<void> {
  if (pins.length === 0) return;
  await db.update(profiles).set({ status, updatedAt: sql`now()` }).where(inArray(profiles.pin, pins));
}

export type PhotoRow = typeof profilePhotos.$inferSelect;

/**
 * Stores, replaces or (with null) removes a profile's photo, and keeps the profile's photo_version
 * in step: the one place that writes either. Returns the profile as it now is.
 */
export async function setPhoto(
  db: Executor,
  profileId: string,
  photo: { contentType: string; data: Buffer; version: string } | null,
): Promise<ProfileRow | undefined> {
  if (photo) {
    await db
      .insert(profilePhotos)
      .values({ profileId, contentType: photo.contentType, data: photo.data })
      .onConflictDoUpdate({ target: profilePhotos.profileId, set: { contentType: photo.contentType, data: photo.data, createdAt: sql`now()` } });
  } else {
    await db.delete(profilePhotos).where(eq(profilePhotos.profileId, profileId));
  }
  return updateProfile(db, profileId, { photoVersion: photo?.version ?? null });
}

export async function findPhoto(db: Executor, profileId: string): Promise<PhotoRow | undefined> {
  const [row] = await db.select().from(profilePhotos).where(eq(profilePhotos.profileId, profileId)).limit(1);
  return row;
}
