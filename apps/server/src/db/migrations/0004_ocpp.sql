CREATE TABLE "batch_job_results" (
	"job_id" integer NOT NULL,
	"charger_id" text NOT NULL,
	"result" text NOT NULL,
	"detail" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "batch_job_results_job_id_charger_id_pk" PRIMARY KEY("job_id","charger_id")
);
--> statement-breakpoint
CREATE TABLE "batch_jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "batch_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"configurations" jsonb,
	"created_by" integer,
	"total" integer NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"progress_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "charging_sessions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "charging_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"charger_id" text NOT NULL,
	"connector_id" integer,
	"ocpp_connector_id" integer NOT NULL,
	"id_tag" text NOT NULL,
	"user_id" integer,
	"reservation_id" integer,
	"price_id" integer,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"meter_start_wh" bigint NOT NULL,
	"last_meter_wh" bigint,
	"last_meter_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"meter_stop_wh" bigint,
	"stop_reason" text,
	"stop_id_tag" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meter_values" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "meter_values_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"session_id" integer,
	"charger_id" text NOT NULL,
	"ocpp_connector_id" integer NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"sampled_value" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "ocpp_password_hash" text;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "vendor" text;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "serial_number" text;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "firmware_version" text;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "booted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "heartbeat_interval_s" integer;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "connected_node" text;--> statement-breakpoint
ALTER TABLE "connectors" ADD COLUMN "ocpp_connector_id" integer;--> statement-breakpoint
UPDATE "connectors" c SET "ocpp_connector_id" = n.num FROM (SELECT "id", row_number() OVER (PARTITION BY "charger_id" ORDER BY "id") AS num FROM "connectors") n WHERE n."id" = c."id";--> statement-breakpoint
ALTER TABLE "connectors" ALTER COLUMN "ocpp_connector_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "connectors" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "connectors" ADD COLUMN "vendor_error_code" text;--> statement-breakpoint
ALTER TABLE "connectors" ADD COLUMN "status_info" text;--> statement-breakpoint
ALTER TABLE "connectors" ADD COLUMN "status_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "batch_job_results" ADD CONSTRAINT "batch_job_results_job_id_batch_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."batch_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_jobs" ADD CONSTRAINT "batch_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_sessions" ADD CONSTRAINT "charging_sessions_charger_id_chargers_id_fk" FOREIGN KEY ("charger_id") REFERENCES "public"."chargers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_sessions" ADD CONSTRAINT "charging_sessions_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_sessions" ADD CONSTRAINT "charging_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_sessions" ADD CONSTRAINT "charging_sessions_price_id_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."prices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_values" ADD CONSTRAINT "meter_values_session_id_charging_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."charging_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_values" ADD CONSTRAINT "meter_values_charger_id_chargers_id_fk" FOREIGN KEY ("charger_id") REFERENCES "public"."chargers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "charging_sessions_charger_idx" ON "charging_sessions" USING btree ("charger_id","started_at");--> statement-breakpoint
CREATE INDEX "charging_sessions_connector_idx" ON "charging_sessions" USING btree ("connector_id","status");--> statement-breakpoint
CREATE INDEX "charging_sessions_user_idx" ON "charging_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "meter_values_session_idx" ON "meter_values" USING btree ("session_id","taken_at");--> statement-breakpoint
CREATE INDEX "meter_values_charger_idx" ON "meter_values" USING btree ("charger_id","taken_at");--> statement-breakpoint
CREATE UNIQUE INDEX "connectors_ocpp_number_idx" ON "connectors" USING btree ("charger_id","ocpp_connector_id");