-- The audit trail stays append-only, with one exception: erasing a student (decision 40)
-- replaces the student's name, PIN and e-mail in the entries that name them. That path marks its
-- own transaction (set_config('portal.erasing_student', 'on', true)); every other UPDATE, every
-- DELETE and every TRUNCATE is refused as before.
CREATE OR REPLACE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('portal.erasing_student', true) = 'on' THEN
    RETURN NULL;
  END IF;
  RAISE EXCEPTION 'The audit trail cannot be changed or deleted';
END;
$$;
