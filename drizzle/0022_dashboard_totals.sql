-- The dashboard's totals (decision 43): per class and term, and per class and date, the sums of
-- the registers' counts, kept by the database from attendance_sessions. Self-contained: it names no
-- other migration. The registers are locked against change while the totals are filled from them.
LOCK TABLE attendance_sessions IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE TABLE "class_day_totals" (
	"date" date NOT NULL,
	"class_name" text NOT NULL,
	"registers" integer DEFAULT 0 NOT NULL,
	"present" integer DEFAULT 0 NOT NULL,
	"late" integer DEFAULT 0 NOT NULL,
	"absent" integer DEFAULT 0 NOT NULL,
	"excused" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "class_day_totals_date_class_name_pk" PRIMARY KEY("date","class_name")
);
--> statement-breakpoint
CREATE TABLE "class_term_totals" (
	"term_id" uuid,
	"class_name" text NOT NULL,
	"registers" integer DEFAULT 0 NOT NULL,
	"present" integer DEFAULT 0 NOT NULL,
	"late" integer DEFAULT 0 NOT NULL,
	"absent" integer DEFAULT 0 NOT NULL,
	"excused" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "class_term_totals_key" UNIQUE NULLS NOT DISTINCT("term_id","class_name")
);
--> statement-breakpoint
CREATE INDEX "class_day_totals_empty_idx" ON "class_day_totals" USING btree ("date") WHERE "class_day_totals"."registers" = 0;--> statement-breakpoint
CREATE INDEX "class_term_totals_empty_idx" ON "class_term_totals" USING btree ("term_id") WHERE "class_term_totals"."registers" = 0;--> statement-breakpoint
-- Adds changes of registers (one row per register added, +1, or removed, -1, with its counts
-- signed alike) to both tables of totals, in key order, and deletes the rows left with no register.
-- In PL/pgSQL, which keeps its statements' plans for the session: a SQL function is planned again
-- at every call.
CREATE FUNCTION class_totals_add(
  class_names text[], term_ids uuid[], dates date[], register_counts int[],
  presents int[], lates int[], absents int[], excuseds int[]
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH changes AS (
    SELECT * FROM unnest(class_names, term_ids, dates, register_counts, presents, lates, absents, excuseds)
      AS c(class_name, term_id, date, registers, present, late, absent, excused)
  ), per_term AS (
    INSERT INTO class_term_totals AS t (term_id, class_name, registers, present, late, absent, excused)
    SELECT term_id, class_name, sum(registers), sum(present), sum(late), sum(absent), sum(excused)
    FROM changes
    GROUP BY term_id, class_name
    HAVING sum(registers) <> 0 OR sum(present) <> 0 OR sum(late) <> 0 OR sum(absent) <> 0 OR sum(excused) <> 0
    ORDER BY term_id, class_name
    ON CONFLICT ON CONSTRAINT class_term_totals_key DO UPDATE SET
      registers = t.registers + excluded.registers, present = t.present + excluded.present,
      late = t.late + excluded.late, absent = t.absent + excluded.absent, excused = t.excused + excluded.excused
  )
  INSERT INTO class_day_totals AS t (date, class_name, registers, present, late, absent, excused)
  SELECT date, class_name, sum(registers), sum(present), sum(late), sum(absent), sum(excused)
  FROM changes
  GROUP BY date, class_name
  HAVING sum(registers) <> 0 OR sum(present) <> 0 OR sum(late) <> 0 OR sum(absent) <> 0 OR sum(excused) <> 0
  ORDER BY date, class_name
  ON CONFLICT (date, class_name) DO UPDATE SET
    registers = t.registers + excluded.registers, present = t.present + excluded.present,
    late = t.late + excluded.late, absent = t.absent + excluded.absent, excused = t.excused + excluded.excused;
  -- Through the partial indexes on registers = 0, nearly always empty.
  DELETE FROM class_term_totals WHERE registers = 0;
  DELETE FROM class_day_totals WHERE registers = 0;
END;
$$;
--> statement-breakpoint
-- After each statement that inserts, updates or deletes registers: its rows' old values are taken
-- off, their new ones added (an update that changes no count, class, term or date adds nothing).
CREATE FUNCTION class_totals_follow_registers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM class_totals_add(array_agg(class_name), array_agg(term_id), array_agg(date), array_agg(1),
      array_agg(present_count), array_agg(late_count), array_agg(absent_count), array_agg(excused_count))
    FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM class_totals_add(array_agg(class_name), array_agg(term_id), array_agg(date), array_agg(-1),
      array_agg(-present_count), array_agg(-late_count), array_agg(-absent_count), array_agg(-excused_count))
    FROM old_rows;
  ELSE
    PERFORM class_totals_add(array_agg(class_name), array_agg(term_id), array_agg(date), array_agg(registers),
      array_agg(present), array_agg(late), array_agg(absent), array_agg(excused))
    FROM (
      SELECT class_name, term_id, date, 1 AS registers, present_count AS present, late_count AS late,
        absent_count AS absent, excused_count AS excused
      FROM new_rows
      UNION ALL
      SELECT class_name, term_id, date, -1, -present_count, -late_count, -absent_count, -excused_count
      FROM old_rows
    ) c;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION class_totals_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM class_term_totals;
  DELETE FROM class_day_totals;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER attendance_sessions_totals_insert AFTER INSERT ON attendance_sessions
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION class_totals_follow_registers();
--> statement-breakpoint
CREATE TRIGGER attendance_sessions_totals_update AFTER UPDATE ON attendance_sessions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION class_totals_follow_registers();
--> statement-breakpoint
CREATE TRIGGER attendance_sessions_totals_delete AFTER DELETE ON attendance_sessions
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION class_totals_follow_registers();
--> statement-breakpoint
CREATE TRIGGER attendance_sessions_totals_truncate AFTER TRUNCATE ON attendance_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION class_totals_clear();
--> statement-breakpoint
-- The registers already taken.
INSERT INTO class_term_totals (term_id, class_name, registers, present, late, absent, excused)
SELECT term_id, class_name, count(*), sum(present_count), sum(late_count), sum(absent_count), sum(excused_count)
FROM attendance_sessions
GROUP BY term_id, class_name
ORDER BY term_id, class_name;
--> statement-breakpoint
INSERT INTO class_day_totals (date, class_name, registers, present, late, absent, excused)
SELECT date, class_name, count(*), sum(present_count), sum(late_count), sum(absent_count), sum(excused_count)
FROM attendance_sessions
GROUP BY date, class_name
ORDER BY date, class_name;
