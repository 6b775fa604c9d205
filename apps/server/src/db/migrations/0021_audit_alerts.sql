CREATE TABLE "alert_deliveries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"incident_id" bigint NOT NULL,
	"event" text NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_incidents" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_incidents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"condition" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"merchant_id" integer,
	"landlord_id" integer,
	"message" text NOT NULL,
	"link" text,
	"details" jsonb,
	"started_at" timestamp with time zone NOT NULL,
	"fired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"clear_since" timestamp with time zone,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "alert_reads" (
	"user_id" integer NOT NULL,
	"incident_id" bigint NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_reads_user_id_incident_id_pk" PRIMARY KEY("user_id","incident_id")
);
--> statement-breakpoint
CREATE TABLE "alert_settings" (
	"condition" text PRIMARY KEY NOT NULL,
	"threshold_min" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"webhook_url" text,
	"webhook_secret" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_subscriptions" (
	"user_id" integer NOT NULL,
	"condition" text NOT NULL,
	"in_app" boolean NOT NULL,
	"mail" boolean NOT NULL,
	CONSTRAINT "alert_subscriptions_user_id_condition_pk" PRIMARY KEY("user_id","condition")
);
--> statement-breakpoint
CREATE TABLE "audit_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"entry_id" bigint NOT NULL,
	"table_name" text NOT NULL,
	"row_id" text,
	"op" text NOT NULL,
	"changes" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"user_email" text,
	"role" text,
	"ip" text,
	"entity" text NOT NULL,
	"entity_id" text,
	"action" text NOT NULL,
	"details" jsonb
);
--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_incident_id_alert_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."alert_incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_incident_id_alert_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."alert_incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD CONSTRAINT "alert_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_changes" ADD CONSTRAINT "audit_changes_entry_id_audit_log_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."audit_log"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_deliveries_once_key" ON "alert_deliveries" USING btree ("incident_id","event","channel","target");--> statement-breakpoint
CREATE INDEX "alert_deliveries_due_idx" ON "alert_deliveries" USING btree ("next_attempt_at") WHERE "alert_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "alert_incidents_open_key" ON "alert_incidents" USING btree ("condition","subject_type","subject_id") WHERE "alert_incidents"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "alert_incidents_fired_idx" ON "alert_incidents" USING btree ("fired_at");--> statement-breakpoint
CREATE INDEX "alert_incidents_landlord_idx" ON "alert_incidents" USING btree ("landlord_id","fired_at");--> statement-breakpoint
CREATE INDEX "audit_changes_entry_idx" ON "audit_changes" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","entity_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_user_idx" ON "audit_log" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","at");--> statement-breakpoint
-- The audit log is append-only (issue 36). A DELETE only by the retention pruning (it sets ev.audit_prune in
-- its transaction) and only of entries older than the minimum retention (90 days). One UPDATE only: an entry
-- written before its record was created learns the record's id, once (null before), in its own transaction
-- (the one that names it in ev.audit_entry), nothing else changed.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF OLD.entity_id IS NULL AND NEW.entity_id IS NOT NULL
      AND OLD.id::text = coalesce(current_setting('ev.audit_entry', true), '')
      AND to_jsonb(NEW) - 'entity_id' = to_jsonb(OLD) - 'entity_id' THEN
      RETURN NEW;
    END IF;
  ELSIF coalesce(current_setting('ev.audit_prune', true), '') = 'on' AND OLD.at < now() - interval '90 days' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'The audit log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE FUNCTION audit_changes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND coalesce(current_setting('ev.audit_prune', true), '') = 'on' THEN
    IF EXISTS (SELECT 1 FROM audit_log WHERE id = OLD.entry_id AND at < now() - interval '90 days') THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION 'The audit log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_changes_append_only BEFORE UPDATE OR DELETE ON audit_changes
  FOR EACH ROW EXECUTE FUNCTION audit_changes_append_only();
--> statement-breakpoint
CREATE FUNCTION audit_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The audit log is append-only: TRUNCATE refused' USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_no_truncate();
--> statement-breakpoint
CREATE TRIGGER audit_changes_no_truncate BEFORE TRUNCATE ON audit_changes
  FOR EACH STATEMENT EXECUTE FUNCTION audit_no_truncate();
--> statement-breakpoint
-- What a staff action changed: while a transaction names its audit entry (ev.audit_entry, set by the entry's
-- insert), each row an audited table gains, loses or changes adds `{ column: [before, after] }` of the columns
-- that changed (every non-null column of a created or deleted row) to audit_changes. Outside such a
-- transaction (a charger's messages, the jobs) it returns at once. Timestamps of the row's own bookkeeping
-- are left out, the trigger's arguments name columns to leave out (bytes), and a column whose name says it
-- holds a secret is written as '[redacted]'.
CREATE FUNCTION audit_capture() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  entry bigint := nullif(current_setting('ev.audit_entry', true), '')::bigint;
  old_j jsonb;
  new_j jsonb;
BEGIN
  IF entry IS NULL THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN old_j := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN new_j := to_jsonb(NEW); END IF;
  -- One statement per row (a loop over the columns in PL/pgSQL cost ~4x as much on the embedded database).
  INSERT INTO audit_changes (entry_id, table_name, row_id, op, changes)
  SELECT entry, TG_TABLE_NAME, coalesce(new_j, old_j) ->> 'id', TG_OP, d.changes
  FROM (
    SELECT jsonb_object_agg(k.key, jsonb_build_array(
      CASE WHEN k.key ~ '(pass|token|secret|hash)' AND (old_j -> k.key) <> 'null'::jsonb
        THEN '"[redacted]"'::jsonb ELSE old_j -> k.key END,
      CASE WHEN k.key ~ '(pass|token|secret|hash)' AND (new_j -> k.key) <> 'null'::jsonb
        THEN '"[redacted]"'::jsonb ELSE new_j -> k.key END)) AS changes
    FROM jsonb_object_keys(coalesce(new_j, old_j)) AS k(key)
    WHERE k.key NOT IN ('created_at', 'updated_at')
      AND k.key <> ALL (coalesce(TG_ARGV, '{}'::text[]))
      AND (old_j -> k.key) IS DISTINCT FROM (new_j -> k.key)
      AND (TG_OP = 'UPDATE' OR coalesce(new_j -> k.key, old_j -> k.key) <> 'null'::jsonb)
  ) d
  WHERE d.changes IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_audit AFTER INSERT OR UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER merchants_audit AFTER INSERT OR UPDATE OR DELETE ON merchants
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER landlords_audit AFTER INSERT OR UPDATE OR DELETE ON landlords
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER landlord_business_hours_audit AFTER INSERT OR UPDATE OR DELETE ON landlord_business_hours
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER parties_audit AFTER INSERT OR UPDATE OR DELETE ON parties
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER party_landlords_audit AFTER INSERT OR UPDATE OR DELETE ON party_landlords
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER prices_audit AFTER INSERT OR UPDATE OR DELETE ON prices
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER price_override_weekdays_audit AFTER INSERT OR UPDATE OR DELETE ON price_override_weekdays
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER price_overrides_audit AFTER INSERT OR UPDATE OR DELETE ON price_overrides
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER charger_brands_audit AFTER INSERT OR UPDATE OR DELETE ON charger_brands
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER chargers_audit AFTER INSERT OR UPDATE OR DELETE ON chargers
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER connectors_audit AFTER INSERT OR UPDATE OR DELETE ON connectors
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER id_tags_audit AFTER INSERT OR UPDATE OR DELETE ON id_tags
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER contact_us_audit AFTER INSERT OR UPDATE OR DELETE ON contact_us
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER pages_audit AFTER INSERT OR UPDATE OR DELETE ON pages
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER promotions_audit AFTER INSERT OR UPDATE OR DELETE ON promotions
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER promotion_merchants_audit AFTER INSERT OR UPDATE OR DELETE ON promotion_merchants
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER promotion_landlords_audit AFTER INSERT OR UPDATE OR DELETE ON promotion_landlords
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER point_rates_audit AFTER INSERT OR UPDATE OR DELETE ON point_rates
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER point_ledger_audit AFTER INSERT OR UPDATE OR DELETE ON point_ledger
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER bookings_audit AFTER INSERT OR UPDATE OR DELETE ON bookings
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER payments_audit AFTER INSERT OR UPDATE OR DELETE ON payments
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER payment_operations_audit AFTER INSERT OR UPDATE OR DELETE ON payment_operations
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER charger_files_audit AFTER INSERT OR UPDATE OR DELETE ON charger_files
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER batch_jobs_audit AFTER INSERT OR UPDATE OR DELETE ON batch_jobs
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER alert_settings_audit AFTER INSERT OR UPDATE OR DELETE ON alert_settings
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER alert_subscriptions_audit AFTER INSERT OR UPDATE OR DELETE ON alert_subscriptions
  FOR EACH ROW EXECUTE FUNCTION audit_capture();
--> statement-breakpoint
CREATE TRIGGER uploaded_files_audit AFTER INSERT OR UPDATE OR DELETE ON uploaded_files
  FOR EACH ROW EXECUTE FUNCTION audit_capture('bytes');
