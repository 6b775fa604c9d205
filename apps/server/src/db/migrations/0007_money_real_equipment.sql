CREATE TABLE "payment_operations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_operations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"booking_id" integer NOT NULL,
	"payment_id" integer,
	"method" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"status" text NOT NULL,
	"gateway" text NOT NULL,
	"reference" text,
	"error" text,
	"actor" text NOT NULL,
	"actor_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "cable_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "charging_sessions" ADD COLUMN "reported_start_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "charging_sessions" ADD COLUMN "id_tag_status" text DEFAULT 'Accepted' NOT NULL;--> statement-breakpoint
ALTER TABLE "charging_sessions" ADD COLUMN "reported_stop_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_operations" ADD CONSTRAINT "payment_operations_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_operations" ADD CONSTRAINT "payment_operations_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_operations" ADD CONSTRAINT "payment_operations_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_operations_key" ON "payment_operations" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_operations_pending_charge_key" ON "payment_operations" USING btree ("booking_id") WHERE "payment_operations"."kind" = 'charge' and "payment_operations"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_operations_refund_key" ON "payment_operations" USING btree ("payment_id") WHERE "payment_operations"."kind" = 'refund' and "payment_operations"."status" <> 'failed';--> statement-breakpoint
CREATE INDEX "payment_operations_pending_idx" ON "payment_operations" USING btree ("created_at") WHERE "payment_operations"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "charging_sessions_start_key" ON "charging_sessions" USING btree ("charger_id","ocpp_connector_id","id_tag","meter_start_wh","reported_start_at") WHERE "charging_sessions"."reported_start_at" is not null;--> statement-breakpoint
UPDATE "bookings" SET "total_amount" = '0.00' WHERE "status" = 'cancelled' AND "total_amount" <> 0;
