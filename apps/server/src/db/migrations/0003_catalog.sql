CREATE TABLE "charger_brands" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "charger_brands_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"power_type" text NOT NULL,
	"min_power_kw" numeric(12, 2) NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chargers" (
	"id" text PRIMARY KEY NOT NULL,
	"name_en" text NOT NULL,
	"name_th" text NOT NULL,
	"merchant_id" integer NOT NULL,
	"landlord_id" integer NOT NULL,
	"charger_brand_id" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connector_types" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connectors" (
	"id" integer PRIMARY KEY NOT NULL,
	"charger_id" text NOT NULL,
	"token" text NOT NULL,
	"name_en" text NOT NULL,
	"name_th" text NOT NULL,
	"connector_type_id" integer NOT NULL,
	"judjod_id" integer,
	"max_power_kw" numeric(12, 2) NOT NULL,
	"old_qr" text,
	"price_id" integer NOT NULL,
	"status" text DEFAULT 'UNKNOWN' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_us" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"email" text,
	"phone" text,
	"facebook" text,
	"instagram" text,
	"line" text,
	"address" text,
	"min_version_android" text,
	"min_version_ios" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_us_single_row" CHECK ("contact_us"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "price_override_weekdays" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "price_override_weekdays_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"price_id" integer NOT NULL,
	"day_of_week" smallint NOT NULL,
	"valid_time_from" time NOT NULL,
	"valid_time_to" time NOT NULL,
	"baht_per_kwh" numeric(12, 2) DEFAULT '0' NOT NULL,
	"baht_per_hour" numeric(12, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "price_override_weekdays_day_check" CHECK ("price_override_weekdays"."day_of_week" between 1 and 7)
);
--> statement-breakpoint
CREATE TABLE "price_overrides" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "price_overrides_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"price_id" integer NOT NULL,
	"valid_from" timestamp NOT NULL,
	"valid_to" timestamp NOT NULL,
	"baht_per_kwh" numeric(12, 2) DEFAULT '0' NOT NULL,
	"baht_per_hour" numeric(12, 2) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "prices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"desc_en" text NOT NULL,
	"desc_th" text NOT NULL,
	"method" text NOT NULL,
	"calculate_method" text NOT NULL,
	"baht_per_kwh" numeric(12, 2) DEFAULT '0' NOT NULL,
	"baht_per_hour" numeric(12, 2) DEFAULT '0' NOT NULL,
	"penalty_baht_per_min" numeric(12, 2) DEFAULT '0' NOT NULL,
	"penalty_dc_full_baht_per_min" numeric(12, 2) DEFAULT '0' NOT NULL,
	"penalty_dc_full_delay_min" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "password_resets" ADD COLUMN "kind" text DEFAULT 'reset' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "partner_user_type" text;--> statement-breakpoint
ALTER TABLE "chargers" ADD CONSTRAINT "chargers_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chargers" ADD CONSTRAINT "chargers_landlord_id_landlords_id_fk" FOREIGN KEY ("landlord_id") REFERENCES "public"."landlords"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chargers" ADD CONSTRAINT "chargers_charger_brand_id_charger_brands_id_fk" FOREIGN KEY ("charger_brand_id") REFERENCES "public"."charger_brands"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_charger_id_chargers_id_fk" FOREIGN KEY ("charger_id") REFERENCES "public"."chargers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_connector_type_id_connector_types_id_fk" FOREIGN KEY ("connector_type_id") REFERENCES "public"."connector_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_price_id_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."prices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_override_weekdays" ADD CONSTRAINT "price_override_weekdays_price_id_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."prices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_overrides" ADD CONSTRAINT "price_overrides_price_id_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."prices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chargers_landlord_idx" ON "chargers" USING btree ("landlord_id");--> statement-breakpoint
CREATE INDEX "chargers_brand_idx" ON "chargers" USING btree ("charger_brand_id");--> statement-breakpoint
CREATE INDEX "connectors_charger_idx" ON "connectors" USING btree ("charger_id");--> statement-breakpoint
CREATE INDEX "connectors_price_idx" ON "connectors" USING btree ("price_id");--> statement-breakpoint
CREATE INDEX "price_override_weekdays_price_idx" ON "price_override_weekdays" USING btree ("price_id");--> statement-breakpoint
CREATE INDEX "price_overrides_price_idx" ON "price_overrides" USING btree ("price_id");--> statement-breakpoint
-- Connector types: the real plugs of Thai charging networks; CCS2 is id 4, the DC type the pricing rules name.
INSERT INTO "connector_types" ("id", "name") VALUES (1, 'Type 1'), (2, 'Type 2'), (3, 'CHAdeMO'), (4, 'CCS2'), (5, 'GB/T');
--> statement-breakpoint
-- The one contact-details row exists from the start; the Contact Us screen edits it.
INSERT INTO "contact_us" ("id") VALUES (1);
