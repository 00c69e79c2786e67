import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../db/client';
import { portalTables } from '../db/backup';
import { contactMessages, profilePhotos, profiles, students } from '../db/schema';

/**
 * Every table's rows as PostgreSQL writes them (timestamps in UTC), sorted, and every sequence's
 * value: what a backup and its restore must give back unchanged.
 */
export async function everyRow(database: Database): Promise<Record<string, string[]>> {
  return database.db.transaction(
    async (tx) => {
      await tx.execute(sql`set local timezone to 'UTC'`);
      const result: Record<string, string[]> = {};
      for (const name of await portalTables(tx)) {
        const rows = await queryRows<{ line: string }>(tx, sql.raw(`select row_to_json(t)::text as line from public."${name}" t`));
        result[name] = rows.map((r) => r.line).sort();
      }
      const sequences = await queryRows<{ line: string }>(
        tx,
        sql`select sequencename || '=' || coalesce(last_value::text, 'unset') as line from pg_sequences where schemaname = 'public'`,
      );
      result['(sequences)'] = sequences.map((r) => r.line).sort();
      return result;
    },
    { isolationLevel: 'repeatable read' },
  );
}

/**
 * Rows whose values are hard to carry between engines: binary data (every byte value), JSON with
 * nesting and unicode, timestamps with microseconds, nulls, text with tabs, newlines and quotes.
 */
export async function addAwkwardRows(database: Database): Promise<void> {
  const pin = 'BK-AWKWARD-1';
  await database.db.insert(students).values({ pin, name: 'Tab\there "quoted" \\ back\nslash ünïcødé 😀', className: 'CSE1' }).onConflictDoNothing();
  const [profile] = await database.db
    .insert(profiles)
    .values({ pin, name: 'Awkward', designation: 'Student', linkedin: null, status: 'approved', photoVersion: 'v1' })
    .returning({ id: profiles.id });
  await database.db.insert(profilePhotos).values({
    profileId: profile!.id,
    contentType: 'image/webp',
    data: Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256)),
  });
  // A number JavaScript cannot hold exactly, and microseconds: a backup must not pass them through JavaScript.
  await database.db.execute(sql`insert into audit_log (at, actor, action, target, detail) values
    ('2026-03-04 05:06:07.123456+00', 'cli', 'roster.import', 'backup test',
     '{"nested": {"list": [1, 2.5, null, "x"], "big": 123456789012345678901234567890, "text": "line\\nbreak"}, "empty": {}}')`);
  await database.db.insert(contactMessages).values({ name: 'Someone', email: 'someone@example.edu', subject: 'Hello', message: 'A message\r\nwith CRLF' });
}
