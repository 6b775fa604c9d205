CREATE TABLE "booking_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "booking_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"booking_id" integer NOT NULL,
	"event" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor" text NOT NULL,
	"actor_user_id" integer,
	"actor_charger_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"detail" jsonb
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bookings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer,
	"charger_id" text NOT NULL,
	"connector_id" integer NOT NULL,
	"merchant_id" integer NOT NULL,
	"landlord_id" integer NOT NULL,
	"connector_type_id" integer NOT NULL,
	"session_id" integer,
	"id_tag" text,
	"status" text NOT NULL,
	"slot_start" timestamp with time zone,
	"slot_end" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_in_at" timestamp with time zone,
	"start_time" timestamp with time zone,
	"stop_time" timestamp with time zone,
	"avaliable_at" timestamp with time zone,
	"full_at" timestamp with time zone,
	"energy_wh" bigint DEFAULT 0 NOT NULL,
	"soc" smallint,
	"price_id" integer,
	"price_snapshot" jsonb,
	"price_by_power" numeric(12, 2),
	"price_by_duration" numeric(12, 2),
	"price_by_penalty" numeric(12, 2),
	"price_detail" jsonb,
	"admin_price_by_power" numeric(12, 2),
	"admin_price_by_duration" numeric(12, 2),
	"admin_price_by_penalty" numeric(12, 2),
	"admin_amount" numeric(12, 2),
	"total_amount" numeric(12, 2),
	"payment_method" text,
	"paid_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bookings_soc_check" CHECK ("bookings"."soc" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "document_counters" (
	"kind" text NOT NULL,
	"year" integer NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "document_counters_kind_year_pk" PRIMARY KEY("kind","year")
);
--> statement-breakpoint
CREATE TABLE "id_tags" (
	"id_tag" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"invoice_no" text NOT NULL,
	"booking_id" integer NOT NULL,
	"user_id" integer,
	"merchant_id" integer NOT NULL,
	"landlord_id" integer NOT NULL,
	"method" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"gateway" text NOT NULL,
	"gateway_reference" text,
	"refunded_at" timestamp with time zone,
	"refund_amount" numeric(12, 2),
	"credit_note_no" text,
	"refunded_by" integer,
	"refund_status" text,
	"refund_reference" text,
	CONSTRAINT "payments_refund_check" CHECK ("payments"."refund_amount" is null or "payments"."refund_amount" <= "payments"."amount")
);
--> statement-breakpoint
ALTER TABLE "booking_events" ADD CONSTRAINT "booking_events_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_events" ADD CONSTRAINT "booking_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_charger_id_chargers_id_fk" FOREIGN KEY ("charger_id") REFERENCES "public"."chargers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_landlord_id_landlords_id_fk" FOREIGN KEY ("landlord_id") REFERENCES "public"."landlords"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_session_id_charging_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."charging_sessions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_price_id_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."prices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "id_tags" ADD CONSTRAINT "id_tags_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_by_users_id_fk" FOREIGN KEY ("refunded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_events_booking_idx" ON "booking_events" USING btree ("booking_id","at");--> statement-breakpoint
CREATE INDEX "bookings_created_idx" ON "bookings" USING btree ("created_at","id") WHERE "bookings"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "bookings_landlord_created_idx" ON "bookings" USING btree ("landlord_id","created_at","id");--> statement-breakpoint
CREATE INDEX "bookings_merchant_created_idx" ON "bookings" USING btree ("merchant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "bookings_connector_open_idx" ON "bookings" USING btree ("connector_id") WHERE "bookings"."status" in ('created', 'started', 'charging', 'charged') and "bookings"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_session_key" ON "bookings" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "bookings_user_idx" ON "bookings" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "bookings_charger_created_idx" ON "bookings" USING btree ("charger_id","created_at");--> statement-breakpoint
CREATE INDEX "id_tags_user_idx" ON "id_tags" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_invoice_no_key" ON "payments" USING btree ("invoice_no");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_booking_key" ON "payments" USING btree ("booking_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_credit_note_no_key" ON "payments" USING btree ("credit_note_no");--> statement-breakpoint
CREATE INDEX "payments_created_idx" ON "payments" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "payments_landlord_created_idx" ON "payments" USING btree ("landlord_id","created_at","id");