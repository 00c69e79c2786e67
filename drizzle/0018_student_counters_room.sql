-- Every save updates a counter row per student of the register. Pages filled to the brim leave no
-- room for the new row versions, so most updates went to another page and wrote both indexes as
-- well (a heap-only update needs room on its own page). New pages of the counters are filled to
-- 70%; rows on pages already full move once, to such pages.
ALTER TABLE student_counters SET (fillfactor = 70);
