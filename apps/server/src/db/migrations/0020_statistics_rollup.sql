CREATE SEQUENCE "public"."statistics_mark_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "statistics_daily" (
	"grain" smallint NOT NULL,
	"day" date NOT NULL,
	"merchant_id" integer,
	"landlord_id" integer,
	"charger_id" text,
	"connector_id" integer,
	"connector_type_id" integer,
	"payment_method" text,
	"promotion_id" integer,
	"energy_wh" bigint NOT NULL,
	"sessions" integer NOT NULL,
	"charging_seconds" bigint NOT NULL,
	"idle_seconds" bigint NOT NULL,
	"delivered" integer NOT NULL,
	"payments" integer NOT NULL,
	"amount" bigint NOT NULL,
	"refund" bigint NOT NULL,
	"discount" bigint NOT NULL,
	"point" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statistics_days" (
	"day" date PRIMARY KEY NOT NULL,
	"rolled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statistics_dirty_days" (
	"day" date PRIMARY KEY NOT NULL,
	"mark" bigint DEFAULT nextval('statistics_mark_seq') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statistics_months" (
	"month" date PRIMARY KEY NOT NULL,
	"rolled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "statistics_daily_day_idx" ON "statistics_daily" USING btree ("grain","day");--> statement-breakpoint
CREATE INDEX "statistics_daily_landlord_idx" ON "statistics_daily" USING btree ("grain","landlord_id","day");--> statement-breakpoint
-- The statistics' rollups stay exact under late events (docs/statistics.md "Rollups"): every change that can
-- move a figure of a day before today (Bangkok) marks that day dirty, in the writer's transaction; the rollup
-- job recomputes it and the queries compute it live meanwhile. Today is always live, so the writes of sessions
-- charging now (energy on every meter value) mark nothing: the function returns after one comparison.
-- A day is marked once per transaction (a transaction-local setting remembers it): a bulk write of a million
-- past sessions upserts each day once, not once a row (each update of the row in one transaction would leave
-- a version the next one walks past).
CREATE FUNCTION statistics_mark(at timestamptz) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d date := ((at AT TIME ZONE 'UTC') + interval '7 hours')::date;
  done text;
BEGIN
  IF d < ((clock_timestamp() AT TIME ZONE 'UTC') + interval '7 hours')::date THEN
    done := 'ev_statistics.marked_' || to_char(d, 'YYYYMMDD');
    IF current_setting(done, true) IS DISTINCT FROM '1' THEN
      INSERT INTO statistics_dirty_days (day) VALUES (d)
        ON CONFLICT (day) DO UPDATE SET mark = nextval('statistics_mark_seq');
      PERFORM set_config(done, '1', true);
    END IF;
  END IF;
END $$;--> statement-breakpoint
-- A session counts on its start's day; a payment's rows also carry its booking's charger, connector and type.
CREATE FUNCTION statistics_booking_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.start_time IS NOT NULL THEN
    PERFORM statistics_mark(OLD.start_time);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.start_time IS NOT NULL
    AND (TG_OP = 'INSERT' OR NEW.start_time IS DISTINCT FROM OLD.start_time) THEN
    PERFORM statistics_mark(NEW.start_time);
  END IF;
  IF TG_OP = 'UPDATE' AND (OLD.charger_id, OLD.connector_id, OLD.connector_type_id)
    IS DISTINCT FROM (NEW.charger_id, NEW.connector_id, NEW.connector_type_id) THEN
    PERFORM statistics_mark(created_at) FROM payments WHERE booking_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER statistics_bookings_write AFTER INSERT OR DELETE ON bookings
  FOR EACH ROW EXECUTE FUNCTION statistics_booking_changed();--> statement-breakpoint
CREATE TRIGGER statistics_bookings_update AFTER UPDATE ON bookings FOR EACH ROW
  WHEN ((OLD.start_time, OLD.stop_time, OLD.avaliable_at, OLD.energy_wh, OLD.status, OLD.deleted_at,
    OLD.payment_method, OLD.merchant_id, OLD.landlord_id, OLD.charger_id, OLD.connector_id, OLD.connector_type_id)
    IS DISTINCT FROM (NEW.start_time, NEW.stop_time, NEW.avaliable_at, NEW.energy_wh, NEW.status, NEW.deleted_at,
    NEW.payment_method, NEW.merchant_id, NEW.landlord_id, NEW.charger_id, NEW.connector_id, NEW.connector_type_id))
  EXECUTE FUNCTION statistics_booking_changed();--> statement-breakpoint
-- A payment counts on the day it was made, its refund with it.
CREATE FUNCTION statistics_payment_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM statistics_mark(OLD.created_at);
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.created_at IS DISTINCT FROM OLD.created_at) THEN
    PERFORM statistics_mark(NEW.created_at);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER statistics_payments_write AFTER INSERT OR DELETE ON payments
  FOR EACH ROW EXECUTE FUNCTION statistics_payment_changed();--> statement-breakpoint
CREATE TRIGGER statistics_payments_update AFTER UPDATE ON payments FOR EACH ROW
  WHEN ((OLD.created_at, OLD.amount, OLD.refunded_at, OLD.refund_amount, OLD.discount_amount, OLD.point_amount,
    OLD.method, OLD.merchant_id, OLD.landlord_id, OLD.booking_id)
    IS DISTINCT FROM (NEW.created_at, NEW.amount, NEW.refunded_at, NEW.refund_amount, NEW.discount_amount,
    NEW.point_amount, NEW.method, NEW.merchant_id, NEW.landlord_id, NEW.booking_id))
  EXECUTE FUNCTION statistics_payment_changed();--> statement-breakpoint
-- The promotion split reads a booking's discount-code redemption: its session's day and its payment's.
CREATE FUNCTION statistics_redemption_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[] := ARRAY[]::integer[];
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.booking_id IS NOT NULL THEN
    ids := ids || OLD.booking_id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.booking_id IS NOT NULL THEN
    ids := ids || NEW.booking_id;
  END IF;
  PERFORM statistics_mark(start_time) FROM bookings WHERE id = ANY(ids) AND start_time IS NOT NULL;
  PERFORM statistics_mark(created_at) FROM payments WHERE booking_id = ANY(ids);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER statistics_redemptions_write AFTER INSERT OR DELETE ON promotion_redemptions
  FOR EACH ROW EXECUTE FUNCTION statistics_redemption_changed();--> statement-breakpoint
CREATE TRIGGER statistics_redemptions_update AFTER UPDATE ON promotion_redemptions FOR EACH ROW
  WHEN ((OLD.booking_id, OLD.promotion_id) IS DISTINCT FROM (NEW.booking_id, NEW.promotion_id))
  EXECUTE FUNCTION statistics_redemption_changed();
