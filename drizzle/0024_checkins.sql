CREATE TABLE "checkin_entries" (
	"checkin_id" uuid NOT NULL,
	"pin" text NOT NULL,
	"status" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"device_key_id" uuid,
	"flags" text[] DEFAULT '{}'::text[] NOT NULL,
	"mark_kept" boolean DEFAULT false NOT NULL,
	"previous_status" text,
	"removed_at" timestamp with time zone,
	"removed_by" uuid,
	"removed_reason" text,
	CONSTRAINT "checkin_entries_checkin_id_pin_pk" PRIMARY KEY("checkin_id","pin"),
	CONSTRAINT "checkin_entries_status_check" CHECK ("checkin_entries"."status" in ('present', 'absent', 'late', 'excused')),
	CONSTRAINT "checkin_entries_pin_normal_check" CHECK ("checkin_entries"."pin" = upper(btrim("checkin_entries"."pin")))
);
--> statement-breakpoint
CREATE TABLE "checkins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"class_name" text NOT NULL,
	"date" date NOT NULL,
	"period" integer DEFAULT 0 NOT NULL,
	"secret" "bytea" NOT NULL,
	"opened_by" uuid,
	"opened_at" timestamp with time zone NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"late_after_minutes" integer,
	"campus_only" boolean DEFAULT false NOT NULL,
	"refused_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "checkins_period_check" CHECK ("checkins"."period" between 0 and 12),
	CONSTRAINT "checkins_late_check" CHECK ("checkins"."late_after_minutes" is null or "checkins"."late_after_minutes" between 0 and 30)
);
--> statement-breakpoint
CREATE TABLE "device_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"pin" text NOT NULL,
	"public_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_keys_pin_normal_check" CHECK ("device_keys"."pin" = upper(btrim("device_keys"."pin")))
);
--> statement-breakpoint
ALTER TABLE "attendance_changes" ADD COLUMN "source" text DEFAULT 'faculty' NOT NULL;--> statement-breakpoint
ALTER TABLE "checkin_entries" ADD CONSTRAINT "checkin_entries_checkin_id_checkins_id_fk" FOREIGN KEY ("checkin_id") REFERENCES "public"."checkins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkin_entries" ADD CONSTRAINT "checkin_entries_device_key_id_device_keys_id_fk" FOREIGN KEY ("device_key_id") REFERENCES "public"."device_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkin_entries" ADD CONSTRAINT "checkin_entries_removed_by_users_id_fk" FOREIGN KEY ("removed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkins" ADD CONSTRAINT "checkins_class_name_classes_name_fk" FOREIGN KEY ("class_name") REFERENCES "public"."classes"("name") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "checkins" ADD CONSTRAINT "checkins_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkin_entries_pin_idx" ON "checkin_entries" USING btree ("pin","at");--> statement-breakpoint
CREATE INDEX "checkin_entries_device_idx" ON "checkin_entries" USING btree ("device_key_id");--> statement-breakpoint
CREATE UNIQUE INDEX "checkins_open_key" ON "checkins" USING btree ("class_name","date","period") WHERE "checkins"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "checkins_register_idx" ON "checkins" USING btree ("class_name","date","period");--> statement-breakpoint
CREATE UNIQUE INDEX "device_keys_pin_key" ON "device_keys" USING btree ("pin","public_key");--> statement-breakpoint
CREATE INDEX "device_keys_public_key_idx" ON "device_keys" USING btree ("public_key");--> statement-breakpoint
ALTER TABLE "attendance_changes" ADD CONSTRAINT "attendance_changes_source_check" CHECK ("attendance_changes"."source" in ('faculty', 'self'));