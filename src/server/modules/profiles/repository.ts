import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { profiles } from '../../db/schema';

export type ProfileRow = typeof profiles.$inferSelect;
export type NewProfileRow = typeof profiles.$inferInsert;
export type ProfileChanges = Partial<Omit<NewProfileRow, 'id' | 'createdAt' | 'updatedAt'>>;

export const PROFILE_PIN_KEY = 'profiles_pin_key';

export async function insertProfile(db: Executor, row: NewProfileRow): Promise<ProfileRow> {
  const [created] = await db.insert(profiles).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

export function listProfiles(db: Executor): Promise<ProfileRow[]> {
  return db.select().from(profiles).orderBy(desc(profiles.createdAt), desc(profiles.id));
}

export function findProfileByPin(db: Executor, pin: string): Promise<ProfileRow | undefined> {
  return db
    .select()
    .from(profiles)
    .where(eq(profiles.pin, pin))
    .limit(1)
    .then((rows) => rows[0]);
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
