CREATE TABLE "promotion_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "promotion_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"promotion_id" integer NOT NULL,
	"code" text NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	"total" integer,
	CONSTRAINT "promotion_codes_used_check" CHECK ("promotion_codes"."used" >= 0 and ("promotion_codes"."total" is null or "promotion_codes"."used" <= "promotion_codes"."total"))
);
--> statement-breakpoint
CREATE TABLE "promotion_landlords" (
	"promotion_id" integer NOT NULL,
	"landlord_id" integer NOT NULL,
	CONSTRAINT "promotion_landlords_promotion_id_landlord_id_pk" PRIMARY KEY("promotion_id","landlord_id")
);
--> statement-breakpoint
CREATE TABLE "promotion_merchants" (
	"promotion_id" integer NOT NULL,
	"merchant_id" integer NOT NULL,
	CONSTRAINT "promotion_merchants_promotion_id_merchant_id_pk" PRIMARY KEY("promotion_id","merchant_id")
);
--> statement-breakpoint
CREATE TABLE "promotion_redemptions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "promotion_redemptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"code_id" integer NOT NULL,
	"promotion_id" integer NOT NULL,
	"booking_id" integer,
	"payment_id" integer,
	"discount" numeric(12, 2),
	"point" integer,
	"license_plate" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promotions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "promotions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"name_en" text NOT NULL,
	"name_th" text NOT NULL,
	"type" text NOT NULL,
	"internal" boolean NOT NULL,
	"expose" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone NOT NULL,
	"discount_percent" numeric(5, 2),
	"discount_baht" numeric(12, 2),
	"point" integer,
	"count" integer NOT NULL,
	"total" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotions_type_check" CHECK ("promotions"."type" in ('discount', 'point', 'landlord')),
	CONSTRAINT "promotions_count_check" CHECK ("promotions"."count" between 1 and 1000),
	CONSTRAINT "promotions_total_check" CHECK ("promotions"."total" is null or "promotions"."total" >= 1),
	CONSTRAINT "promotions_valid_check" CHECK ("promotions"."valid_from" < "promotions"."valid_to")
);
--> statement-breakpoint
ALTER TABLE "promotion_codes" ADD CONSTRAINT "promotion_codes_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_landlords" ADD CONSTRAINT "promotion_landlords_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_landlords" ADD CONSTRAINT "promotion_landlords_landlord_id_landlords_id_fk" FOREIGN KEY ("landlord_id") REFERENCES "public"."landlords"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_merchants" ADD CONSTRAINT "promotion_merchants_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_merchants" ADD CONSTRAINT "promotion_merchants_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_code_id_promotion_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."promotion_codes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_codes_code_lower_key" ON "promotion_codes" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "promotion_codes_promotion_idx" ON "promotion_codes" USING btree ("promotion_id","id");--> statement-breakpoint
CREATE INDEX "promotion_landlords_landlord_idx" ON "promotion_landlords" USING btree ("landlord_id");--> statement-breakpoint
CREATE INDEX "promotion_merchants_merchant_idx" ON "promotion_merchants" USING btree ("merchant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_redemptions_user_code_key" ON "promotion_redemptions" USING btree ("user_id","code_id");--> statement-breakpoint
CREATE INDEX "promotion_redemptions_code_idx" ON "promotion_redemptions" USING btree ("code_id");--> statement-breakpoint
CREATE INDEX "promotion_redemptions_promotion_idx" ON "promotion_redemptions" USING btree ("promotion_id");--> statement-breakpoint
CREATE INDEX "promotion_redemptions_created_idx" ON "promotion_redemptions" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "promotions_code_lower_key" ON "promotions" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "promotions_type_idx" ON "promotions" USING btree ("type","id");