-- Issue 34: power limits per site. A site's limit (with phases and voltage for chargers limiting in amperes), a
-- charger's own limit, the allowance each connector of a limited site was last given, and the power samples its
-- live load chart sums.
CREATE TABLE "power_allowances" (
	"connector_id" integer PRIMARY KEY NOT NULL,
	"landlord_id" integer NOT NULL,
	"charging_session_id" integer,
	"allowance_w" integer NOT NULL,
	"waiting" boolean DEFAULT false NOT NULL,
	"profile_status" text DEFAULT 'Pending' NOT NULL,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "power_samples" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "power_samples_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"landlord_id" integer NOT NULL,
	"connector_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"power_w" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "max_power_kw" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "default_profile_status" text;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "default_profile_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "landlords" ADD COLUMN "max_power_kw" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "landlords" ADD COLUMN "phases" smallint;--> statement-breakpoint
ALTER TABLE "landlords" ADD COLUMN "voltage" integer;--> statement-breakpoint
ALTER TABLE "power_allowances" ADD CONSTRAINT "power_allowances_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "power_allowances" ADD CONSTRAINT "power_allowances_landlord_id_landlords_id_fk" FOREIGN KEY ("landlord_id") REFERENCES "public"."landlords"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "power_allowances" ADD CONSTRAINT "power_allowances_charging_session_id_charging_sessions_id_fk" FOREIGN KEY ("charging_session_id") REFERENCES "public"."charging_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "power_samples" ADD CONSTRAINT "power_samples_landlord_id_landlords_id_fk" FOREIGN KEY ("landlord_id") REFERENCES "public"."landlords"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "power_samples" ADD CONSTRAINT "power_samples_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "power_allowances_landlord_idx" ON "power_allowances" USING btree ("landlord_id");--> statement-breakpoint
CREATE INDEX "power_samples_landlord_at_idx" ON "power_samples" USING btree ("landlord_id","at");--> statement-breakpoint
ALTER TABLE "chargers" ADD CONSTRAINT "chargers_max_power_positive" CHECK ("chargers"."max_power_kw" > 0);--> statement-breakpoint
ALTER TABLE "landlords" ADD CONSTRAINT "landlords_max_power_positive" CHECK ("landlords"."max_power_kw" > 0);--> statement-breakpoint
ALTER TABLE "landlords" ADD CONSTRAINT "landlords_phases" CHECK ("landlords"."phases" in (1, 3));--> statement-breakpoint
ALTER TABLE "landlords" ADD CONSTRAINT "landlords_voltage_range" CHECK ("landlords"."voltage" between 100 and 1000);