CREATE TABLE "alert_episodes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rule" text NOT NULL,
	"pin" text,
	"scope" text DEFAULT '' NOT NULL,
	"term_id" uuid,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "alert_episodes_rule_check" CHECK ("alert_episodes"."rule" in ('below-threshold', 'consecutive-absences', 'register-missing')),
	CONSTRAINT "alert_episodes_pin_normal_check" CHECK ("alert_episodes"."pin" = upper(btrim("alert_episodes"."pin")))
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"rule" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_rules_rule_check" CHECK ("alert_rules"."rule" in ('below-threshold', 'consecutive-absences', 'register-missing'))
);
--> statement-breakpoint
CREATE TABLE "job_slots" (
	"task" text NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"done_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_slots_task_slot_pk" PRIMARY KEY("task","slot")
);
--> statement-breakpoint
CREATE TABLE "notification_prefs" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"email" text DEFAULT 'daily' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_prefs_email_check" CHECK ("notification_prefs"."email" in ('immediate', 'daily', 'weekly', 'never'))
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"episode_id" bigint,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"emailed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "periods" (
	"period" integer PRIMARY KEY NOT NULL,
	"starts_at" text NOT NULL,
	"ends_at" text NOT NULL,
	CONSTRAINT "periods_period_check" CHECK ("periods"."period" between 1 and 12),
	CONSTRAINT "periods_times_check" CHECK ("periods"."starts_at" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and "periods"."ends_at" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and "periods"."starts_at" < "periods"."ends_at")
);
--> statement-breakpoint
ALTER TABLE "timetable_slots" ADD COLUMN "teacher_id" uuid;--> statement-breakpoint
ALTER TABLE "alert_episodes" ADD CONSTRAINT "alert_episodes_term_id_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."terms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_prefs" ADD CONSTRAINT "notification_prefs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_episode_id_alert_episodes_id_fk" FOREIGN KEY ("episode_id") REFERENCES "public"."alert_episodes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_episodes_open_key" ON "alert_episodes" USING btree ("rule",coalesce("pin", ''),"scope",coalesce("term_id", '00000000-0000-0000-0000-000000000000'::uuid)) WHERE "alert_episodes"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "alert_episodes_pin_idx" ON "alert_episodes" USING btree ("pin");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_user_episode_key" ON "notifications" USING btree ("user_id","episode_id");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."read_at" is null;--> statement-breakpoint
ALTER TABLE "timetable_slots" ADD CONSTRAINT "timetable_slots_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "timetable_slots_teacher_idx" ON "timetable_slots" USING btree ("teacher_id");