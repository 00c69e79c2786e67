DROP INDEX "attendance_marks_pin_idx";--> statement-breakpoint
DROP INDEX "attendance_sessions_class_date_key";--> statement-breakpoint
ALTER TABLE "attendance_changes" ALTER COLUMN "new_status" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "attendance_marks" ALTER COLUMN "status" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "attendance_marks" ALTER COLUMN "date" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "attendance_changes" DROP COLUMN "old_value";--> statement-breakpoint
ALTER TABLE "attendance_changes" DROP COLUMN "new_value";--> statement-breakpoint
ALTER TABLE "attendance_marks" DROP COLUMN "present";--> statement-breakpoint
ALTER TABLE "attendance_changes" ADD CONSTRAINT "attendance_changes_old_status_check" CHECK ("attendance_changes"."old_status" in ('present', 'absent', 'late', 'excused'));--> statement-breakpoint
ALTER TABLE "attendance_changes" ADD CONSTRAINT "attendance_changes_new_status_check" CHECK ("attendance_changes"."new_status" in ('present', 'absent', 'late', 'excused'));