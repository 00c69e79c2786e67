ALTER TABLE "attendance_marks" ADD CONSTRAINT "attendance_marks_pin_normal_check" CHECK ("attendance_marks"."pin" = upper(btrim("attendance_marks"."pin")));--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_pin_normal_check" CHECK ("profiles"."pin" = upper(btrim("profiles"."pin")));--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_pin_normal_check" CHECK ("students"."pin" = upper(btrim("students"."pin")));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_pin_normal_check" CHECK ("users"."pin" = upper(btrim("users"."pin")));