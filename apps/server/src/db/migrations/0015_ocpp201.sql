-- Issue 33: OCPP 2.0.1 beside 1.6J: the charger's protocol setting and last subprotocol, 2.0.1 transactions
-- (string ids, EVSE, seqNo, remoteStartId) on the sessions, and the 2.0.1 device model (charger_variables).
CREATE TABLE "charger_variables" (
	"charger_id" text NOT NULL,
	"key" text NOT NULL,
	"component" text NOT NULL,
	"component_instance" text,
	"evse_id" integer,
	"evse_connector_id" integer,
	"variable" text NOT NULL,
	"variable_instance" text,
	"attribute_type" text DEFAULT 'Actual' NOT NULL,
	"value" text,
	"mutability" text,
	"characteristics" jsonb,
	"reported_at" timestamp with time zone NOT NULL,
	CONSTRAINT "charger_variables_charger_id_key_pk" PRIMARY KEY("charger_id","key")
);
--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "ocpp_protocol" text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "protocol" text;--> statement-breakpoint
ALTER TABLE "charging_sessions" ADD COLUMN "transaction_ref" text;--> statement-breakpoint
ALTER TABLE "charging_sessions" ADD COLUMN "evse_id" integer;--> statement-breakpoint
ALTER TABLE "charging_sessions" ADD COLUMN "seq_no" integer;--> statement-breakpoint
ALTER TABLE "charging_sessions" ADD COLUMN "remote_start_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "charging_sessions_transaction_ref_key" ON "charging_sessions" USING btree ("charger_id","transaction_ref") WHERE "charging_sessions"."transaction_ref" is not null;