CREATE TABLE "data_versions" (
	"name" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "student_counters" (
	"pin" text NOT NULL,
	"subject_code" text DEFAULT '' NOT NULL,
	"term_id" uuid,
	"present" integer DEFAULT 0 NOT NULL,
	"late" integer DEFAULT 0 NOT NULL,
	"absent" integer DEFAULT 0 NOT NULL,
	"excused" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "student_counters_key" UNIQUE NULLS NOT DISTINCT("pin","subject_code","term_id")
);
--> statement-breakpoint
CREATE TABLE "subjects" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subjects_code_check" CHECK ("subjects"."code" <> '')
);
--> statement-breakpoint
CREATE TABLE "timetable_slots" (
	"class_name" text NOT NULL,
	"weekday" integer NOT NULL,
	"period" integer NOT NULL,
	"subject_code" text NOT NULL,
	CONSTRAINT "timetable_slots_class_name_weekday_period_pk" PRIMARY KEY("class_name","weekday","period"),
	CONSTRAINT "timetable_slots_weekday_check" CHECK ("timetable_slots"."weekday" between 1 and 7),
	CONSTRAINT "timetable_slots_period_check" CHECK ("timetable_slots"."period" between 1 and 12)
);
--> statement-breakpoint
ALTER TABLE "attendance_changes" ADD COLUMN "old_status" text;--> statement-breakpoint
ALTER TABLE "attendance_changes" ADD COLUMN "new_status" text DEFAULT 'absent' NOT NULL;--> statement-breakpoint
ALTER TABLE "attendance_marks" ADD COLUMN "status" text DEFAULT 'absent' NOT NULL;--> statement-breakpoint
ALTER TABLE "attendance_marks" ADD COLUMN "date" date;--> statement-breakpoint
ALTER TABLE "attendance_marks" ADD COLUMN "period" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "attendance_sessions" ADD COLUMN "period" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "attendance_sessions" ADD COLUMN "subject_code" text;--> statement-breakpoint
ALTER TABLE "attendance_sessions" ADD COLUMN "term_id" uuid;--> statement-breakpoint
ALTER TABLE "attendance_sessions" ADD COLUMN "late_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "attendance_sessions" ADD COLUMN "excused_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "student_counters" ADD CONSTRAINT "student_counters_term_id_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timetable_slots" ADD CONSTRAINT "timetable_slots_class_name_classes_name_fk" FOREIGN KEY ("class_name") REFERENCES "public"."classes"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "timetable_slots" ADD CONSTRAINT "timetable_slots_subject_code_subjects_code_fk" FOREIGN KEY ("subject_code") REFERENCES "public"."subjects"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "student_counters_term_subject_idx" ON "student_counters" USING btree ("term_id","subject_code");--> statement-breakpoint
CREATE INDEX "timetable_slots_subject_idx" ON "timetable_slots" USING btree ("subject_code");--> statement-breakpoint
ALTER TABLE "attendance_sessions" ADD CONSTRAINT "attendance_sessions_subject_code_subjects_code_fk" FOREIGN KEY ("subject_code") REFERENCES "public"."subjects"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_sessions" ADD CONSTRAINT "attendance_sessions_term_id_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendance_marks_history_idx" ON "attendance_marks" USING btree ("pin","date" DESC NULLS LAST,"period" DESC NULLS LAST,"class_name");--> statement-breakpoint
CREATE INDEX "attendance_marks_class_idx" ON "attendance_marks" USING btree ("class_name");--> statement-breakpoint
CREATE UNIQUE INDEX "attendance_sessions_class_date_period_key" ON "attendance_sessions" USING btree ("class_name","date","period");--> statement-breakpoint
CREATE INDEX "attendance_sessions_subject_idx" ON "attendance_sessions" USING btree ("class_name","subject_code");--> statement-breakpoint
CREATE INDEX "attendance_sessions_term_idx" ON "attendance_sessions" USING btree ("term_id");--> statement-breakpoint
ALTER TABLE "attendance_marks" ADD CONSTRAINT "attendance_marks_status_check" CHECK ("attendance_marks"."status" in ('present', 'absent', 'late', 'excused'));--> statement-breakpoint
ALTER TABLE "attendance_sessions" ADD CONSTRAINT "attendance_sessions_status_counts_check" CHECK ("attendance_sessions"."late_count" >= 0 and "attendance_sessions"."excused_count" >= 0);--> statement-breakpoint
ALTER TABLE "attendance_sessions" ADD CONSTRAINT "attendance_sessions_period_check" CHECK ("attendance_sessions"."period" between 0 and 12);--> statement-breakpoint
ALTER TABLE "attendance_sessions" ADD CONSTRAINT "attendance_sessions_subject_check" CHECK ("attendance_sessions"."period" > 0 or "attendance_sessions"."subject_code" is null);