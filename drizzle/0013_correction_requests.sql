CREATE TABLE "correction_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"register_id" uuid NOT NULL,
	"pin" text NOT NULL,
	"reason" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"reply" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	CONSTRAINT "correction_requests_state_check" CHECK ("correction_requests"."state" in ('open', 'accepted', 'declined')),
	CONSTRAINT "correction_requests_pin_normal_check" CHECK ("correction_requests"."pin" = upper(btrim("correction_requests"."pin")))
);
--> statement-breakpoint
ALTER TABLE "correction_requests" ADD CONSTRAINT "correction_requests_register_id_attendance_sessions_id_fk" FOREIGN KEY ("register_id") REFERENCES "public"."attendance_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "correction_requests" ADD CONSTRAINT "correction_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "correction_requests_open_key" ON "correction_requests" USING btree ("register_id","pin") WHERE "correction_requests"."state" = 'open';--> statement-breakpoint
CREATE INDEX "correction_requests_state_idx" ON "correction_requests" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "correction_requests_pin_idx" ON "correction_requests" USING btree ("pin","created_at");