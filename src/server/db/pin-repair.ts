import { sql } from 'drizzle-orm';
import type { Db } from './client';

/** A PIN whose rows were merged, and what became of them. */
export interface MergedPin {
  /** The PIN as the migration stores it. */
  pin: string;
  spellings: string[];
  /** Roster rows and profiles that were removed, described for the operator. */
  removed: string[];
  /** Whether several profiles were merged: the survivor must be reviewed again. */
  profilesMerged: boolean;
}

/** The normal form the PIN migration writes; it trims the blanks the old rule let through. */
const normal = (column: string) => sql.raw(`upper(btrim(${column}, E' \\t\\r\\n'))`);

type Rows<T> = { rows: T[] };

/**
 * Merges the rows that differ only in the case or spaces of their PIN, which the old
 * case-sensitive rule allowed and the PIN migration refuses to merge silently. It works on the
 * schema as it was before that migration, in one transaction, and is a companion of that
 * migration rather than of any module (so it writes several modules' tables, once):
 *
 * - roster: the row already spelt in the normal form is kept (else the first by PIN); the
 *   accounts of the others move to it;
 * - profiles: the first registered is kept, and is to be reviewed again;
 * - marks: in each register one mark stays, present if any of them was, and the register's
 *   counters are counted again.
 *
 * A database that has no tables yet has nothing to merge.
 */
export async function mergeDuplicatePins(db: Db): Promise<MergedPin[]> {
  return db.transaction(async (tx) => {
    const { rows: tables } = (await tx.execute(sql`select to_regclass('students') is not null as ready`)) as unknown as Rows<{
      ready: boolean;
    }>;
    if (!tables[0]?.ready) return [];

    // The same clashes the migration refuses: two spellings in one table, or in one register.
    const { rows: clashes } = (await tx.execute(sql`
      select normalised, array_agg(distinct pin order by pin) as spellings from (
        select ${normal('s.pin')} as normalised, s.pin from students s
        where exists (select 1 from students o where o.pin <> s.pin and ${normal('o.pin')} = ${normal('s.pin')})
        union all
        select ${normal('p.pin')}, p.pin from profiles p
        where exists (select 1 from profiles o where o.pin <> p.pin and ${normal('o.pin')} = ${normal('p.pin')})
        union all
        select ${normal('m.pin')}, m.pin from attendance_marks m
        where exists (select 1 from attendance_marks o
                      where o.session_id = m.session_id and o.pin <> m.pin and ${normal('o.pin')} = ${normal('m.pin')})
      ) clash
      group by normalised order by normalised`)) as unknown as Rows<{ normalised: string; spellings: string[] }>;
    if (clashes.length === 0) return [];

    const keepStudent = sql`select distinct on (${normal('pin')}) ${normal('pin')} as normalised, pin as keep_pin
      from students order by ${normal('pin')}, (pin = ${normal('pin')}) desc, pin`;
    await tx.execute(sql`with keep as (${keepStudent})
      update users u set pin = keep.keep_pin from keep
      where ${normal('u.pin')} = keep.normalised and u.pin <> keep.keep_pin`);
    const { rows: droppedStudents } = (await tx.execute(sql`with keep as (${keepStudent})
      delete from students s using keep
      where ${normal('s.pin')} = keep.normalised and s.pin <> keep.keep_pin
      returning s.pin, s.name, s.class_name`)) as unknown as Rows<{ pin: string; name: string; class_name: string }>;
    const { rows: droppedProfiles } = (await tx.execute(sql`
      with keep as (
        select distinct on (${normal('pin')}) ${normal('pin')} as normalised, id
        from profiles order by ${normal('pin')}, created_at, id
      )
      delete from profiles p using keep
      where ${normal('p.pin')} = keep.normalised and p.id <> keep.id
      returning p.pin, p.name, p.designation`)) as unknown as Rows<{ pin: string; name: string; designation: string }>;
    const { rows: touched } = (await tx.execute(sql`
      with keep as (
        select distinct on (session_id, ${normal('pin')}) session_id, ${normal('pin')} as normalised, pin as keep_pin
        from attendance_marks order by session_id, ${normal('pin')}, present desc, (pin = ${normal('pin')}) desc, pin
      )
      delete from attendance_marks m using keep
      where m.session_id = keep.session_id and ${normal('m.pin')} = keep.normalised and m.pin <> keep.keep_pin
      returning m.session_id`)) as unknown as Rows<{ session_id: string }>;
    for (const id of new Set(touched.map((row) => row.session_id))) {
      await tx.execute(sql`
        update attendance_sessions set
          present_count = (select count(*) from attendance_marks m where m.session_id = ${id} and m.present),
          absent_count = (select count(*) from attendance_marks m where m.session_id = ${id} and not m.present)
        where id = ${id}`);
    }

    const normalise = (pin: string) => pin.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '').toUpperCase();
    return clashes.map(({ normalised, spellings }) => {
      const students = droppedStudents.filter((row) => normalise(row.pin) === normalised);
      const profiles = droppedProfiles.filter((row) => normalise(row.pin) === normalised);
      return {
        pin: normalised,
        spellings,
        removed: [
          ...students.map((row) => `roster row "${row.pin}" (${row.name}, ${row.class_name})`),
          ...profiles.map((row) => `profile "${row.pin}" (${row.name}, ${row.designation})`),
        ],
        profilesMerged: profiles.length > 0,
      };
    });
  });
}
