import { sql } from 'drizzle-orm';
import type { Db } from './client';

/** One PIN as the migration will store it, and the spellings that were merged into it. */
export interface MergedPin {
  pin: string;
  spellings: string[];
}

const normal = (column: string) => sql.raw(`upper(btrim(${column}))`);

/**
 * Merges the rows that differ only in the case or spaces of their PIN, which the old
 * case-sensitive rule allowed and the PIN migration refuses to merge silently. It runs on the
 * schema before that migration, in one transaction:
 *
 * - roster: the row already spelt in the normal form is kept (else the first by PIN); accounts
 *   of the others move to it;
 * - profiles: the first registered is kept;
 * - marks: in each register, the kept spelling's mark stays, and the register's counters are
 *   counted again.
 *
 * The migration then writes every PIN in its normal form.
 */
export async function mergeDuplicatePins(db: Db): Promise<MergedPin[]> {
  return db.transaction(async (tx) => {
    const { rows } = (await tx.execute(sql`
      select normalised, array_agg(distinct pin order by pin) as spellings from (
        select pin, ${normal('pin')} as normalised from students
        union all select pin, ${normal('pin')} from profiles
        union all select pin, ${normal('pin')} from attendance_marks
      ) every_pin
      group by normalised
      having count(distinct pin) > 1
      order by normalised`)) as unknown as { rows: { normalised: string; spellings: string[] }[] };

    await tx.execute(sql`
      with keep as (
        select distinct on (${normal('pin')}) ${normal('pin')} as normalised, pin as keep_pin
        from students order by ${normal('pin')}, (pin = ${normal('pin')}) desc, pin
      )
      update users u set pin = keep.keep_pin from keep
      where ${normal('u.pin')} = keep.normalised and u.pin <> keep.keep_pin`);
    await tx.execute(sql`
      with keep as (
        select distinct on (${normal('pin')}) ${normal('pin')} as normalised, pin as keep_pin
        from students order by ${normal('pin')}, (pin = ${normal('pin')}) desc, pin
      )
      delete from students s using keep
      where ${normal('s.pin')} = keep.normalised and s.pin <> keep.keep_pin`);
    await tx.execute(sql`
      with keep as (
        select distinct on (${normal('pin')}) ${normal('pin')} as normalised, id
        from profiles order by ${normal('pin')}, created_at, id
      )
      delete from profiles p using keep
      where ${normal('p.pin')} = keep.normalised and p.id <> keep.id`);
    const { rows: touched } = (await tx.execute(sql`
      with keep as (
        select distinct on (session_id, ${normal('pin')}) session_id, ${normal('pin')} as normalised, pin as keep_pin
        from attendance_marks order by session_id, ${normal('pin')}, (pin = ${normal('pin')}) desc, pin
      )
      delete from attendance_marks m using keep
      where m.session_id = keep.session_id and ${normal('m.pin')} = keep.normalised and m.pin <> keep.keep_pin
      returning m.session_id`)) as unknown as { rows: { session_id: string }[] };
    const registers = [...new Set(touched.map((row) => row.session_id))];
    for (const id of registers) {
      await tx.execute(sql`
        update attendance_sessions set
          present_count = (select count(*) from attendance_marks m where m.session_id = ${id} and m.present),
          absent_count = (select count(*) from attendance_marks m where m.session_id = ${id} and not m.present)
        where id = ${id}`);
    }
    return rows.map((row) => ({ pin: row.normalised, spellings: row.spellings }));
  });
}
