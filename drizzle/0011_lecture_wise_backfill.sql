-- Lecture-wise attendance and student counters: every existing register is
-- the whole-day register (period 0, the column's default), every mark present or absent as it was.
UPDATE "attendance_marks" m SET
  "status" = CASE WHEN m."present" THEN 'present' ELSE 'absent' END,
  "date" = s."date",
  "period" = s."period"
FROM "attendance_sessions" s
WHERE s."id" = m."session_id";
--> statement-breakpoint
UPDATE "attendance_changes" SET
  "old_status" = CASE WHEN "old_value" IS NULL THEN NULL WHEN "old_value" THEN 'present' ELSE 'absent' END,
  "new_status" = CASE WHEN "new_value" THEN 'present' ELSE 'absent' END;
--> statement-breakpoint
-- Each register in the term that holds its date (terms never overlap), or in none.
UPDATE "attendance_sessions" s SET "term_id" = t."id"
FROM "terms" t
WHERE s."date" BETWEEN t."starts_on" AND t."ends_on";
--> statement-breakpoint
-- The register counters from the marks themselves, whatever they said before.
UPDATE "attendance_sessions" s SET
  "present_count" = c."present", "absent_count" = c."absent", "late_count" = 0, "excused_count" = 0
FROM (
  SELECT "session_id",
    count(*) FILTER (WHERE "status" = 'present')::int AS "present",
    count(*) FILTER (WHERE "status" = 'absent')::int AS "absent"
  FROM "attendance_marks" GROUP BY "session_id"
) c
WHERE c."session_id" = s."id";
--> statement-breakpoint
INSERT INTO "student_counters" ("pin", "subject_code", "term_id", "present", "late", "absent", "excused")
SELECT m."pin", coalesce(s."subject_code", ''), s."term_id",
  count(*) FILTER (WHERE m."status" = 'present')::int,
  count(*) FILTER (WHERE m."status" = 'late')::int,
  count(*) FILTER (WHERE m."status" = 'absent')::int,
  count(*) FILTER (WHERE m."status" = 'excused')::int
FROM "attendance_marks" m JOIN "attendance_sessions" s ON s."id" = m."session_id"
GROUP BY m."pin", coalesce(s."subject_code", ''), s."term_id";
--> statement-breakpoint
INSERT INTO "data_versions" ("name", "version") VALUES ('reports', 1) ON CONFLICT DO NOTHING;
