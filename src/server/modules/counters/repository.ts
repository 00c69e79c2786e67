import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor, type Tx } from '../../db/client';
import { preparedStatement } from '../../db/prepared-queries';

/** Marks of each status. */
export interface StatusCounts {
  present: number;
  late: number;
  absent: number;
  excused: number;
}

/** One student's change of counts in one (subject, term) bucket. */
export interface CounterDelta extends StatusCounts {
  pin: string;
}

/**
 * Adds the deltas to the student counters of one (subject, term) bucket, creating rows as needed.
 * The rows are written in PIN order (byte order), so two saves touching the same students lock
 * their rows in the same order and cannot deadlock. The deltas go as one array per column, so the
 * statement's text is the same whatever their number, and is kept prepared (decision 20).
 */
export async function addToCounters(tx: Tx, subjectCode: string, termId: string | null, deltas: CounterDelta[]): Promise<void> {
  const rows = deltas
    .filter((d) => d.present !== 0 || d.late !== 0 || d.absent !== 0 || d.excused !== 0)
    .sort((a, b) => (a.pin < b.pin ? -1 : a.pin > b.pin ? 1 : 0));
  if (rows.length === 0) return;
  const column = (pick: (row: CounterDelta) => string | number) => sql.param(rows.map(pick));
  await tx.execute(sql`
    insert into student_counters as c (pin, subject_code, term_id, present, late, absent, excused)
    select d.pin, ${subjectCode}::text, ${termId}::uuid, d.present, d.late, d.absent, d.excused
    from unnest(
      ${column((d) => d.pin)}::text[], ${column((d) => d.present)}::int[], ${column((d) => d.late)}::int[],
      ${column((d) => d.absent)}::int[], ${column((d) => d.excused)}::int[]
    ) with ordinality as d(pin, present, late, absent, excused, position)
    order by d.position
    on conflict on constraint student_counters_key do update set
      present = c.present + excluded.present,
      late = c.late + excluded.late,
      absent = c.absent + excluded.absent,
      excused = c.excused + excluded.excused`);
}

/**
 * The term that holds `date` (terms never overlap), or null. Read FOR SHARE: a term change takes
 * the terms table in EXCLUSIVE mode, so it waits for saves that have looked up their term, and
 * saves wait for it, and counters are never bucketed by a term that is moving.
 */
export async function termIdOn(tx: Tx, date: string): Promise<string | null> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`select id from terms where ${date}::date between starts_on and ends_on for share`,
  );
  return row?.id ?? null;
}

/**
 * Moves registers (and their marks' counts) to the term that now holds their date, after terms
 * changed. Costs the registers, plus the marks of the registers that moved. Returns how many moved.
 */
export async function rebucketRegisters(tx: Tx): Promise<number> {
  await tx.execute(sql`
    create temporary table moved_registers on commit drop as
    select s.id, coalesce(s.subject_code, '') as subject_code, s.term_id as old_term, t.id as new_term
    from attendance_sessions s
    left join terms t on s.date between t.starts_on and t.ends_on
    where s.term_id is distinct from t.id`);
  const [count] = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from moved_registers`);
  const moved = Number(count?.n ?? 0);
  if (moved > 0) {
    const perBucket = (term: SQL) => sql`
      select m.pin, r.subject_code, ${term} as term_id,
        count(*) filter (where m.status = 'present')::int as present,
        count(*) filter (where m.status = 'late')::int as late,
        count(*) filter (where m.status = 'absent')::int as absent,
        count(*) filter (where m.status = 'excused')::int as excused
      from attendance_marks m join moved_registers r on r.id = m.session_id
      group by m.pin, r.subject_code, ${term}
      order by m.pin collate "C"`;
    await tx.execute(sql`
      update student_counters c set
        present = c.present - d.present, late = c.late - d.late,
        absent = c.absent - d.absent, excused = c.excused - d.excused
      from (${perBucket(sql.raw('r.old_term'))}) d
      where c.pin = d.pin and c.subject_code = d.subject_code and c.term_id is not distinct from d.term_id`);
    await tx.execute(sql`
      insert into student_counters as c (pin, subject_code, term_id, present, late, absent, excused)
      ${perBucket(sql.raw('r.new_term'))}
      on conflict on constraint student_counters_key do update set
        present = c.present + excluded.present, late = c.late + excluded.late,
        absent = c.absent + excluded.absent, excused = c.excused + excluded.excused`);
    await tx.execute(sql`
      delete from student_counters where present = 0 and late = 0 and absent = 0 and excused = 0`);
    await tx.execute(sql`
      update attendance_sessions s set term_id = r.new_term from moved_registers r where r.id = s.id`);
  }
  await tx.execute(sql`drop table moved_registers`);
  return moved;
}

/** Recomputes every counter from the marks: after bulk writes (demo data) or a repair. */
export async function rebuildAll(tx: Tx): Promise<void> {
  await tx.execute(sql`
    update attendance_sessions s set term_id = t.id
    from attendance_sessions s2 left join terms t on s2.date between t.starts_on and t.ends_on
    where s2.id = s.id and s.term_id is distinct from t.id`);
  await tx.execute(sql`
    update attendance_sessions s set
      present_count = coalesce(c.present, 0), late_count = coalesce(c.late, 0),
      absent_count = coalesce(c.absent, 0), excused_count = coalesce(c.excused, 0)
    from attendance_sessions s2 left join (${registerRecount}) c on c.session_id = s2.id
    where s2.id = s.id`);
  await tx.execute(sql`delete from student_counters`);
  // In the order saves make them: a class's counters of one subject and term side by side (its
  // PINs follow each other), so that a save updates a few pages of them, not one per student.
  await tx.execute(sql`
    insert into student_counters (pin, subject_code, term_id, present, late, absent, excused)
    select pin, subject_code, term_id, present, late, absent, excused from (${studentRecount}) c
    order by term_id, subject_code, pin collate "C"`);
  // The class totals followed the updates above through their triggers; recomputed whole all the
  // same, so that a rebuild also repairs them.
  await tx.execute(sql`delete from class_term_totals`);
  await tx.execute(sql`delete from class_day_totals`);
  await tx.execute(sql`
    insert into class_term_totals (term_id, class_name, registers, present, late, absent, excused)
    select term_id, class_name, registers, present, late, absent, excused from (${classTermRecount}) r
    order by term_id, class_name`);
  await tx.execute(sql`
    insert into class_day_totals (date, class_name, registers, present, late, absent, excused)
    select date, class_name, registers, present, late, absent, excused from (${classDayRecount}) r
    order by date, class_name`);
}

/** The registers' counts summed per class and one more key (`term_id` or `date`): what the class totals hold. */
const classRecount = (key: 'term_id' | 'date') => sql`
  select ${sql.raw(key)}, class_name, count(*)::int as registers,
    sum(present_count)::int as present, sum(late_count)::int as late,
    sum(absent_count)::int as absent, sum(excused_count)::int as excused
  from attendance_sessions group by ${sql.raw(key)}, class_name`;
const classTermRecount = classRecount('term_id');
const classDayRecount = classRecount('date');

const registerRecount = sql`
  select session_id,
    count(*) filter (where status = 'present')::int as present,
    count(*) filter (where status = 'late')::int as late,
    count(*) filter (where status = 'absent')::int as absent,
    count(*) filter (where status = 'excused')::int as excused
  from attendance_marks group by session_id`;

const studentRecount = sql`
  select m.pin, coalesce(s.subject_code, '') as subject_code, s.term_id,
    count(*) filter (where m.status = 'present')::int as present,
    count(*) filter (where m.status = 'late')::int as late,
    count(*) filter (where m.status = 'absent')::int as absent,
    count(*) filter (where m.status = 'excused')::int as excused
  from attendance_marks m join attendance_sessions s on s.id = m.session_id
  group by m.pin, coalesce(s.subject_code, ''), s.term_id`;

export interface CounterDifference {
  kind: 'student' | 'register' | 'term' | 'mark' | 'class term' | 'class day';
  /** What disagrees: a PIN with its subject and term, a register, a mark, or a class with its term or date. */
  key: string;
  stored: string;
  recomputed: string;
}

const counts = (alias: string) =>
  sql.raw(`coalesce(${alias}.present, 0) || '/' || coalesce(${alias}.late, 0) || '/' || coalesce(${alias}.absent, 0) || '/' || coalesce(${alias}.excused, 0)`);

/** A class total as verify shows it: its counts, then how many registers it sums. */
const classCounts = (alias: string) => sql`${counts(alias)} || ' in ' || coalesce(${sql.raw(alias)}.registers, 0) || ' registers'`;

/**
 * Every counter that disagrees with a recomputation from the marks (present/late/absent/excused),
 * every register filed under the wrong term, every mark whose date or period is not its
 * register's, and every class total (per term, per date) that disagrees with the sums of the
 * registers' counters. Empty when all is well. Reads the whole tables: for `portal verify` and tests.
 */
export async function findDifferences(db: Executor, limit = 100): Promise<CounterDifference[]> {
  return queryRows<CounterDifference>(
    db,
    sql`
    (select 'student' as kind,
       coalesce(c.pin, r.pin) || ' ' || coalesce(nullif(coalesce(c.subject_code, r.subject_code), ''), '(whole day)') || ' ' || coalesce(coalesce(c.term_id, r.term_id)::text, '(no term)') as key,
       ${counts('c')} as stored, ${counts('r')} as recomputed
     from (select * from student_counters where present + late + absent + excused > 0) c
     full join (${studentRecount}) r
       on r.pin = c.pin and r.subject_code = c.subject_code and r.term_id is not distinct from c.term_id
     where c.pin is null or r.pin is null
       or (c.present, c.late, c.absent, c.excused) is distinct from (r.present, r.late, r.absent, r.excused)
     limit ${limit})
    union all
    (select 'register', s.class_name || ' ' || s.date || ' period ' || s.period,
       s.present_count || '/' || s.late_count || '/' || s.absent_count || '/' || s.excused_count, ${counts('r')}
     from attendance_sessions s left join (${registerRecount}) r on r.session_id = s.id
     where (s.present_count, s.late_count, s.absent_count, s.excused_count)
       is distinct from (coalesce(r.present, 0), coalesce(r.late, 0), coalesce(r.absent, 0), coalesce(r.excused, 0))
     limit ${limit})
    union all
    (select 'term', s.class_name || ' ' || s.date || ' period ' || s.period,
       coalesce(s.term_id::text, '(no term)'), coalesce(t.id::text, '(no term)')
     from attendance_sessions s left join terms t on s.date between t.starts_on and t.ends_on
     where s.term_id is distinct from t.id
     limit ${limit})
    union all
    (select 'mark', m.pin || ' in ' || s.class_name || ' ' || s.date || ' period ' || s.period,
       m.date || ' period ' || m.period, s.date || ' period ' || s.period
     from attendance_marks m join attendance_sessions s on s.id = m.session_id
     where m.date <> s.date or m.period <> s.period
     limit ${limit})
    union all
    (select 'class term', coalesce(c.class_name, r.class_name) || ' ' || coalesce(coalesce(c.term_id, r.term_id)::text, '(no term)'),
       ${classCounts('c')}, ${classCounts('r')}
     from class_term_totals c
     full join (${classTermRecount}) r on r.class_name = c.class_name and r.term_id is not distinct from c.term_id
     where c.class_name is null or r.class_name is null
       or (c.registers, c.present, c.late, c.absent, c.excused) is distinct from (r.registers, r.present, r.late, r.absent, r.excused)
     limit ${limit})
    union all
    (select 'class day', coalesce(c.class_name, r.class_name) || ' ' || coalesce(c.date, r.date),
       ${classCounts('c')}, ${classCounts('r')}
     from class_day_totals c
     full join (${classDayRecount}) r on r.class_name = c.class_name and r.date = c.date
     where c.class_name is null or r.class_name is null
       or (c.registers, c.present, c.late, c.absent, c.excused) is distinct from (r.registers, r.present, r.late, r.absent, r.excused)
     limit ${limit})`,
  );
}

/** Which counters a read covers: a term's (or every term, `undefined`), and a subject's ('' the whole-day registers; `undefined` all). */
export interface CounterScope {
  termId?: string | null | undefined;
  subjectCode?: string | undefined;
}

/**
 * The conditions of a scope, with placeholders `termId` and `subjectCode` for its values: the reads
 * below are built once per executor and shape (db/prepared-queries.ts) and given the values each time.
 */
function scopeConditions(scope: CounterScope): SQL[] {
  const conditions: SQL[] = [];
  // `=` and `is null` rather than `is not distinct from`, which no index serves: a term's read
  // then reads that term's counters only, however many terms the portal has kept.
  if (scope.termId === null) conditions.push(sql`c.term_id is null`);
  else if (scope.termId !== undefined) conditions.push(sql`c.term_id = ${sql.placeholder('termId')}::uuid`);
  if (scope.subjectCode !== undefined) conditions.push(sql`c.subject_code = ${sql.placeholder('subjectCode')}`);
  return conditions;
}

/** The shape of a scope's conditions, for the key of a statement built once. */
function scopeShape(scope: CounterScope): string {
  const term = scope.termId === null ? 'none' : scope.termId === undefined ? 'all' : 'term';
  return `${term}.${scope.subjectCode === undefined ? '-' : 'subject'}`;
}

function where(conditions: SQL[]): SQL {
  return conditions.length === 0 ? sql`` : sql`where ${sql.join(conditions, sql` and `)}`;
}

/** One student's counts per subject ('' for the whole-day registers) in the scope. */
export function countsOfStudent(db: Executor, pin: string, scope: CounterScope): Promise<(StatusCounts & { subjectCode: string })[]> {
  const statement = preparedStatement<StatusCounts & { subjectCode: string }>(
    db,
    `counters.countsOfStudent.${scopeShape(scope)}`,
    () => sql`select c.subject_code as "subjectCode",
          sum(c.present)::int as present, sum(c.late)::int as late,
          sum(c.absent)::int as absent, sum(c.excused)::int as excused
        from student_counters c
        ${where([sql`c.pin = ${sql.placeholder('pin')}`, ...scopeConditions(scope)])}
        group by c.subject_code
        order by c.subject_code`,
  );
  return statement.run({ pin, termId: scope.termId, subjectCode: scope.subjectCode });
}

export interface StudentTotalsRow {
  pin: string;
  name: string;
  className: string;
  /** Present and late marks. */
  attended: number;
  /** Absent marks. */
  absent: number;
}

/**
 * Every student with a held class in the scope, lowest percentage first (then by PIN), from the
 * counters: the cost follows the students listed, never the marks. A student's name and class are
 * the roster's; for someone no longer on the roster, those of their latest mark. A withdrawn
 * student is not listed (their record keeps their figures). With a class, the students whose class
 * that is; `below` keeps only percentages strictly under it.
 *
 * The database leaves the order to this function (byPercentage): sorting the list was a fifth of
 * the statement's time on the embedded database, whose one thread serves every request, and costs
 * next to nothing here. The latest mark is looked up only for a student who is not on the roster
 * (a subquery in `coalesce`, which the database evaluates only when the roster has no value; a
 * lateral join was set up for every row listed).
 */
export async function studentTotals(
  db: Executor,
  options: CounterScope & { className?: string | undefined; below?: number | undefined },
): Promise<StudentTotalsRow[]> {
  const { className, below } = options;
  // A whole threshold (the usual 75) is compared in integers, which cost far less than numeric ones; another in numeric.
  const threshold = below === undefined ? '-' : Number.isInteger(below) ? 'int' : 'numeric';
  const shape = `${scopeShape(options)}.${className === undefined ? '-' : 'class'}.${threshold}`;
  const statement = preparedStatement<StudentTotalsRow>(db, `counters.studentTotals.${shape}`, () => {
    const conditions = scopeConditions(options);
    const inClass = sql`${sql.placeholder('className')}`;
    if (className !== undefined) {
      // The class's roster, and those no longer on any roster (their latest mark's class decides, below).
      conditions.push(sql`(c.pin in (select r.pin from students r where r.class_name = ${inClass})
        or not exists (select 1 from students r where r.pin = c.pin))`);
    }
    const having: SQL[] = [sql`sum(c.present + c.late + c.absent) > 0`];
    // Compared exactly, without dividing: 3 of 4 is exactly 75 and is not below 75.
    if (threshold !== '-') {
      having.push(sql`sum(c.present + c.late) * 100 < ${sql.placeholder('below')}::${sql.raw(threshold)} * sum(c.present + c.late + c.absent)`);
    }
    return sql`with totals as (
          select c.pin, sum(c.present + c.late)::int as attended, sum(c.absent)::int as absent
          from student_counters c
          ${where(conditions)}
          group by c.pin
          having ${sql.join(having, sql` and `)}
        )
        select t.pin, coalesce(s.name, ${latestMark('name')}) as name, coalesce(s.class_name, ${latestMark('class_name')}) as "className",
          t.attended, t.absent
        from totals t
        left join students s on s.pin = t.pin
        where s.withdrawn_at is null
          ${className === undefined ? sql`` : sql`and coalesce(s.class_name, ${latestMark('class_name')}) = ${inClass}`}`;
  });
  const rows = await statement.run({ termId: options.termId, subjectCode: options.subjectCode, className, below });
  return rows.sort(byPercentage);
}

/**
 * A column of the latest mark of the student `t.pin` (latest register first, by the history's
 * order, whose index it reads: one entry). The class breaks a tie of date and period (a student
 * moved between classes that day), so that the name and the class come from the same mark.
 */
const latestMark = (column: 'name' | 'class_name') => sql`(
  select m.${sql.raw(column)} from attendance_marks m
  where m.pin = t.pin
  order by m.date desc nulls last, m.period desc nulls last, m.class_name limit 1)`;

/**
 * Lowest percentage first, then by PIN in byte order (PINs are ASCII). The fractions are compared
 * exactly, by cross-multiplying whole numbers: every row has held marks (the statement's `having`),
 * and the products are exact doubles while every student holds fewer than 94 million marks in the
 * scope (each product under 2^53).
 */
function byPercentage(a: StudentTotalsRow, b: StudentTotalsRow): number {
  const difference = a.attended * (b.attended + b.absent) - b.attended * (a.attended + a.absent);
  if (difference !== 0) return difference;
  return a.pin < b.pin ? -1 : a.pin > b.pin ? 1 : 0;
}
