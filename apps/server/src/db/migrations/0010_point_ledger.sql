CREATE TABLE "point_ledger" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "point_ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"points" integer NOT NULL,
	"source" text NOT NULL,
	"payment_id" integer,
	"redemption_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "point_ledger_kind_check" CHECK ("point_ledger"."kind" in ('earn', 'redeem', 'code', 'reversal', 'expiry')),
	CONSTRAINT "point_ledger_points_check" CHECK ("point_ledger"."points" <> 0)
);
--> statement-breakpoint
ALTER TABLE "point_ledger" ADD CONSTRAINT "point_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_ledger" ADD CONSTRAINT "point_ledger_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_ledger" ADD CONSTRAINT "point_ledger_redemption_id_promotion_redemptions_id_fk" FOREIGN KEY ("redemption_id") REFERENCES "public"."promotion_redemptions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "point_ledger_source_key" ON "point_ledger" USING btree ("source");--> statement-breakpoint
CREATE INDEX "point_ledger_user_idx" ON "point_ledger" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_redemptions_booking_key" ON "promotion_redemptions" USING btree ("booking_id") WHERE "promotion_redemptions"."booking_id" is not null;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_point_check" CHECK ("users"."point" >= 0);