-- A PIN is trimmed and upper case wherever it is stored. Rows that would become
-- one (the duplicates the old case-sensitive rule allowed) are not merged silently: the migration
-- stops and names them, and `npm run portal -- pins fix` merges them.
DO $$
DECLARE
  clashes text;
BEGIN
  SELECT string_agg(DISTINCT format('%s (%s)', normalised, spellings), '; ') INTO clashes
  FROM (
    SELECT upper(btrim(pin, E' \t\r\n')) AS normalised, string_agg(pin, ', ' ORDER BY pin) AS spellings
    FROM students GROUP BY upper(btrim(pin, E' \t\r\n')) HAVING count(*) > 1
    UNION ALL
    SELECT upper(btrim(pin, E' \t\r\n')), string_agg(pin, ', ' ORDER BY pin)
    FROM profiles GROUP BY upper(btrim(pin, E' \t\r\n')) HAVING count(*) > 1
    UNION ALL
    SELECT upper(btrim(pin, E' \t\r\n')), string_agg(pin, ', ' ORDER BY pin)
    FROM attendance_marks GROUP BY session_id, upper(btrim(pin, E' \t\r\n')) HAVING count(*) > 1
  ) AS clash;
  IF clashes IS NOT NULL THEN
    RAISE EXCEPTION 'These PINs differ only in case or spaces and would become one: %. Merge them with: npm run portal -- pins fix', clashes;
  END IF;
END $$;
--> statement-breakpoint
-- users.pin follows students.pin (ON UPDATE CASCADE).
UPDATE "students" SET "pin" = upper(btrim("pin", E' \t\r\n')) WHERE "pin" <> upper(btrim("pin", E' \t\r\n'));
--> statement-breakpoint
UPDATE "users" SET "pin" = upper(btrim("pin", E' \t\r\n')) WHERE "pin" <> upper(btrim("pin", E' \t\r\n'));
--> statement-breakpoint
UPDATE "profiles" SET "pin" = upper(btrim("pin", E' \t\r\n')) WHERE "pin" <> upper(btrim("pin", E' \t\r\n'));
--> statement-breakpoint
UPDATE "attendance_marks" SET "pin" = upper(btrim("pin", E' \t\r\n')) WHERE "pin" <> upper(btrim("pin", E' \t\r\n'));
--> statement-breakpoint
UPDATE "attendance_changes" SET "pin" = upper(btrim("pin", E' \t\r\n')) WHERE "pin" <> upper(btrim("pin", E' \t\r\n'));
--> statement-breakpoint
-- Profiles made before review existed: those on a roster PIN are approved, the rest wait for faculty.
UPDATE "profiles" SET "status" = CASE WHEN "pin" IN (SELECT "pin" FROM "students") THEN 'approved' ELSE 'pending' END;
