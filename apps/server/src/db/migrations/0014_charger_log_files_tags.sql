-- Issue 32: the chargers' message log and connections, firmware and diagnostics files with their one-time
-- URLs and per-charger requests, RFID cards' expiry and block, the local authorization list's version, and the
-- firmware batch's file and brand.
CREATE TABLE "charger_file_chunks" (
	"file_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "charger_file_chunks_file_id_seq_pk" PRIMARY KEY("file_id","seq")
);
--> statement-breakpoint
CREATE TABLE "charger_file_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "charger_file_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"charger_id" text NOT NULL,
	"file_id" integer,
	"job_id" integer,
	"requested_by" integer,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retrieve_at" timestamp with time zone,
	"answer" text,
	"answer_file_name" text,
	"status" text,
	"status_at" timestamp with time zone,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charger_file_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"charger_id" text NOT NULL,
	"file_id" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charger_files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "charger_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"charger_id" text,
	"charger_brand_id" integer,
	"name" text NOT NULL,
	"version" text,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"complete" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charger_connections" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "charger_connections_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"charger_id" text NOT NULL,
	"node" text,
	"remote_address" text,
	"protocol" text,
	"connected_at" timestamp with time zone NOT NULL,
	"disconnected_at" timestamp with time zone,
	"close_code" integer,
	"close_reason" text,
	"refused_status" integer
);
--> statement-breakpoint
CREATE TABLE "charger_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "charger_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"charger_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"direction" text NOT NULL,
	"kind" text NOT NULL,
	"action" text,
	"message_id" text NOT NULL,
	"protocol" text NOT NULL,
	"payload" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "id_tags" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "id_tags" ADD COLUMN "blocked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "local_list_version" integer;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "local_list_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "batch_jobs" ADD COLUMN "firmware_file_id" integer;--> statement-breakpoint
ALTER TABLE "batch_jobs" ADD COLUMN "charger_brand_id" integer;--> statement-breakpoint
ALTER TABLE "charger_file_chunks" ADD CONSTRAINT "charger_file_chunks_file_id_charger_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."charger_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charger_file_requests" ADD CONSTRAINT "charger_file_requests_file_id_charger_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."charger_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charger_file_requests" ADD CONSTRAINT "charger_file_requests_job_id_batch_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."batch_jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charger_file_requests" ADD CONSTRAINT "charger_file_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charger_file_tokens" ADD CONSTRAINT "charger_file_tokens_file_id_charger_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."charger_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charger_files" ADD CONSTRAINT "charger_files_charger_brand_id_charger_brands_id_fk" FOREIGN KEY ("charger_brand_id") REFERENCES "public"."charger_brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charger_files" ADD CONSTRAINT "charger_files_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "charger_file_requests_charger_idx" ON "charger_file_requests" USING btree ("charger_id","kind","requested_at");--> statement-breakpoint
CREATE INDEX "charger_file_requests_job_idx" ON "charger_file_requests" USING btree ("job_id");--> statement-breakpoint
CREATE UNIQUE INDEX "charger_file_requests_job_charger_key" ON "charger_file_requests" USING btree ("job_id","charger_id") WHERE "charger_file_requests"."job_id" is not null;--> statement-breakpoint
CREATE INDEX "charger_file_tokens_expiry_idx" ON "charger_file_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "charger_files_charger_idx" ON "charger_files" USING btree ("charger_id","created_at");--> statement-breakpoint
CREATE INDEX "charger_files_kind_idx" ON "charger_files" USING btree ("kind","created_at");--> statement-breakpoint
CREATE INDEX "charger_connections_charger_idx" ON "charger_connections" USING btree ("charger_id","connected_at");--> statement-breakpoint
CREATE INDEX "charger_connections_open_idx" ON "charger_connections" USING btree ("charger_id") WHERE "charger_connections"."disconnected_at" is null and "charger_connections"."refused_status" is null;--> statement-breakpoint
CREATE INDEX "charger_messages_charger_idx" ON "charger_messages" USING btree ("charger_id","at","id");--> statement-breakpoint
CREATE INDEX "charger_messages_at_idx" ON "charger_messages" USING btree ("at");