-- The eight classes exist in every database, demo or not.
INSERT INTO "classes" ("name", "position") VALUES
  ('CSE1', 1), ('CSE2', 2), ('CSE3', 3), ('CSE4', 4),
  ('CSE5', 5), ('CSE6', 6), ('CSE7', 7), ('CSE8', 8)
ON CONFLICT ("name") DO NOTHING;
