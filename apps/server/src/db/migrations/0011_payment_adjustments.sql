ALTER TABLE "payment_operations" ADD COLUMN "gross_amount" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "payment_operations" ADD COLUMN "discount_amount" numeric(12, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_operations" ADD COLUMN "point_used" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_operations" ADD COLUMN "point_amount" numeric(12, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "discount_amount" numeric(12, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "point_used" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "point_amount" numeric(12, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "point_earned" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "point_rate_id" integer;--> statement-breakpoint
CREATE INDEX "payments_point_used_idx" ON "payments" USING btree ("created_at","id") WHERE "payments"."point_used" > 0;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_adjustments_check" CHECK ("payments"."discount_amount" >= 0 and "payments"."point_amount" >= 0 and "payments"."point_used" >= 0 and "payments"."point_earned" >= 0);