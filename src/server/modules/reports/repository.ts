import { and, asc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { preparedStatement } from '../../db/prepared-queries';
import { registers, classes, classDayTotals, classTermTotals, dataVersions, subjects } from '../../db/schema';

/**
 * Dashboard figures come from the class totals (decision 43): the registers' counters summed per
 * class and term and per class and date, kept by the database as registers change. A dashboard
 * reads a row per class and one per class and date of its series, whatever the number of
 * registers and marks.
 */

/** A class with the sums of its registers' counters: `present` counts present and late marks. */
export interface ClassCountsRow {
  className: string;
  present: number;
  absent: number;
}

/** Attended (present and late) and absent marks of one date, every class merged (or one class's). */
export interface DayCountsRow {
  date: string;
  present: number;
  absent: number;
}

export interface DashboardCounts {
  perClass: ClassCountsRow[];
  perDay: DayCountsRow[];
  /** The `marks` version of the same snapshot (0 before the first save). */
  marksVersion: number;
}

/**
 * The names of the versions the dashboard reads (decision 55): `marks`, which every save bumps, and
 * the prefix of a class's (the prefix, then the class's name), which carries the `marks` value of
 * the last save of the class's students.
 */
export interface MarksVersionNames {
  marks: string;
  classPrefix: string;
}

/**
 * The dashboard's figures in one statement: one round trip and one snapshot, so that the tiles,
 * the class table and the series' days asked agree even while a register is saved (the days
 * before yesterday are read apart and remembered: `seriesCounts`, decision 54). `perClass`: every class
 * (or one) in class order, with the sums of its registers' counters in the term (`termId`; every
 * register when undefined); an archived class only while it has registers there, so its history
 * stays. Roster sizes are not read here: the caller remembers them per reports version.
 * `perDay`: the sums per date of `dates` (the series' every date), every class merged (or one
 * class's), oldest first. Present and late marks attend (decision 13); excused ones count in neither.
 * `marksVersion`: the `marks` version of the same snapshot. With `savedSince` (and a term),
 * `perClass` holds only the classes saved since that `marks` value that have totals in the term,
 * in no order (decision 55).
 *
 * The term is asked by its id and the series by its dates one by one, not as ranges of dates: the
 * database then keeps one plan for the kept statement, where a range of unknown dates made it plan
 * the statement again at every request (decision 30).
 */
export async function dashboardCounts(
  db: Executor,
  options: {
    className?: string | undefined;
    termId: string | undefined;
    dates: readonly string[];
    names: MarksVersionNames;
    /**
     * A `marks` value: only the classes saved since that have totals in the term are listed, in no
     * order (not with `className`, and only with `termId`).
     */
    savedSince?: number | undefined;
  },
): Promise<DashboardCounts> {
  const { className, termId, dates, names, savedSince } = options;
  if (savedSince !== undefined && (termId === undefined || className !== undefined)) throw new Error('savedSince lists the classes of a term, not of one class or of every term');
  // Built once per executor and shape (db/prepared-queries.ts): with or without a class, a term and
  // the saved classes only, and the series' length.
  const shape = `${className === undefined ? '-' : 'class'}.${termId === undefined ? '-' : 'term'}.${savedSince === undefined ? '-' : 'since'}.${dates.length}`;
  const statement = preparedStatement<DashboardCounts>(db, `reports.dashboardCounts.${shape}`, () => {
    const classPlaceholder = sql`${sql.placeholder('className')}`;
    const inTerm: SQL[] = termId === undefined ? [] : [eq(classTermTotals.termId, sql.placeholder('termId'))];
    const inSeries: SQL[] = [inArray(classDayTotals.date, dates.map((_, index) => sql.placeholder(`date${index}`)))];
    const ofClasses: SQL[] = [];
    if (className !== undefined) {
      inTerm.push(eq(classTermTotals.className, classPlaceholder));
      inSeries.push(eq(classDayTotals.className, classPlaceholder));
      ofClasses.push(sql`${classes.name} = ${classPlaceholder}`);
    }
    if (savedSince !== undefined) {
      const prefix = sql.placeholder('classPrefix');
      const saved = sql`select substr(${dataVersions.name}, length(${prefix}::text) + 1) from ${dataVersions}
        where starts_with(${dataVersions.name}, ${prefix}::text) and ${dataVersions.version} > ${sql.placeholder('since')}`;
      return savedClassesStatement(sql`${and(...inTerm, sql`${classTermTotals.className} in (${saved})`)}`, inSeries);
    }
    return dashboardStatement(inTerm, inSeries, ofClasses);
  });
  const values: Record<string, unknown> = { className, termId, since: savedSince, ...names };
  dates.forEach((date, index) => (values[`date${index}`] = date));
  const [row] = await statement.run(values);
  return row ?? { perClass: [], perDay: [], marksVersion: 0 };
}

/**
 * The sums per date of some of the dashboard series' dates (every class merged, or one class's),
 * oldest first: the days before yesterday, which the dashboard remembers (decision 54).
 */
export async function seriesCounts(db: Executor, options: { className?: string | undefined; dates: readonly string[] }): Promise<DayCountsRow[]> {
  const { className, dates } = options;
  if (dates.length === 0) return [];
  const shape = `${className === undefined ? '-' : 'class'}.${dates.length}`;
  const statement = preparedStatement<DayCountsRow>(db, `reports.seriesCounts.${shape}`, () => {
    const inSeries: SQL[] = [inArray(classDayTotals.date, dates.map((_, index) => sql.placeholder(`date${index}`)))];
    if (className !== undefined) inSeries.push(eq(classDayTotals.className, sql.placeholder('className')));
    return sql`${daySums(inSeries, sql`${classDayTotals.date}::text`)} order by ${classDayTotals.date}`;
  });
  const values: Record<string, unknown> = { className };
  dates.forEach((date, index) => (values[`date${index}`] = date));
  return statement.run(values);
}

/** The series' sums per date (attended: present and late) of the class-day totals that meet `inSeries`. */
function daySums(inSeries: SQL[], date: SQL): SQL {
  return sql`select ${date} as date,
            sum(${classDayTotals.present} + ${classDayTotals.late})::int as present, sum(${classDayTotals.absent})::int as absent
          from ${classDayTotals} where ${and(...inSeries)}
          group by ${classDayTotals.date}`;
}

/**
 * The totals of the classes saved since a `marks` value, as `dashboardStatement` gives them, but
 * read from the term's totals alone: a class has one row there per term, found by its key. The
 * classes are not joined: the planner reckons the saved classes few (their versions lie above
 * what its statistics have seen), and with a join to the classes it re-read the totals once per
 * saved class, some 100 ms when all 833 of a large term's classes were saved since.
 */
function savedClassesStatement(inTerm: SQL, inSeries: SQL[]): SQL {
  return dashboardColumns(
    sql`select coalesce(json_agg(json_build_object(
              'className', ${classTermTotals.className},
              'present', (${classTermTotals.present} + ${classTermTotals.late})::int,
              'absent', ${classTermTotals.absent}
            )), '[]'::json)
            from ${classTermTotals} where ${inTerm}`,
    inSeries,
  );
}

/** The dashboard's statement for its conditions on the totals of the term and of the series, and on the classes listed. */
function dashboardStatement(inTerm: SQL[], inSeries: SQL[], ofClasses: SQL[]): SQL {
  return dashboardColumns(
    sql`select coalesce(json_agg(json_build_object(
              'className', ${classes.name},
              'present', coalesce(totals.present, 0)::int,
              'absent', coalesce(totals.absent, 0)::int
            ) order by ${classes.position}, ${classes.name}), '[]'::json)
            from ${classes}
            left join totals on totals.class_name = ${classes.name}
            where ${and(sql`(${classes.archivedAt} is null or totals.class_name is not null)`, ...ofClasses)}`,
    inSeries,
    sql`select ${classTermTotals.className} as class_name,
            sum(${classTermTotals.present} + ${classTermTotals.late}) as present, sum(${classTermTotals.absent}) as absent
          from ${classTermTotals} ${inTerm.length > 0 ? sql`where ${and(...inTerm)}` : sql``}
          group by ${classTermTotals.className}`,
  );
}

/**
 * A dashboard statement's row: `perClass` (a select of the class rows as JSON, which may read a
 * `totals` made of the given select), the series' sums of `inSeries` per date, and the `marks`
 * version, all of one snapshot.
 */
function dashboardColumns(perClass: SQL, inSeries: SQL[], totals?: SQL): SQL {
  return sql`with ${totals ? sql`totals as (${totals}), ` : sql``}days as (${daySums(inSeries, sql`${classDayTotals.date}`)})
        select
          (${perClass}) as "perClass",
          (select coalesce(json_agg(json_build_object('date', days.date, 'present', days.present, 'absent', days.absent) order by days.date), '[]'::json)
            from days) as "perDay",
          coalesce((select ${dataVersions.version} from ${dataVersions} where ${dataVersions.name} = ${sql.placeholder('marks')}), 0)::float8 as "marksVersion"`;
}

export interface SubjectCountsRow {
  code: string;
  name: string;
  lectures: number;
  held: number;
  attended: number;
}

/**
 * Per subject, the registers taken for it and their held (present, late, absent) and attended
 * (present, late) marks, from the register counters: one class's, or every class's; one term's
 * (`termId`), or every date's (undefined). Subjects with no register are left out; by code.
 */
export function subjectCounts(db: Executor, options: { className?: string | undefined; termId?: string | undefined }): Promise<SubjectCountsRow[]> {
  const conditions: SQL[] = [isNotNull(registers.subjectCode)];
  if (options.className !== undefined) conditions.push(eq(registers.className, options.className));
  if (options.termId !== undefined) conditions.push(eq(registers.termId, options.termId));
  return db
    .select({
      code: subjects.code,
      name: subjects.name,
      lectures: sql<number>`count(*)::int`,
      held: sql<number>`sum(${registers.presentCount} + ${registers.lateCount} + ${registers.absentCount})::int`,
      attended: sql<number>`sum(${registers.presentCount} + ${registers.lateCount})::int`,
    })
    .from(registers)
    .innerJoin(subjects, eq(subjects.code, registers.subjectCode))
    .where(and(...conditions))
    .groupBy(subjects.code, subjects.name)
    .orderBy(asc(subjects.code));
}
