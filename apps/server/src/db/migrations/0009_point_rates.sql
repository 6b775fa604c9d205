CREATE TABLE "point_rates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "point_rates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"from_baht" numeric(9, 2) NOT NULL,
	"to_point" numeric(9, 2) NOT NULL,
	"from_point" numeric(9, 2) NOT NULL,
	"to_baht" numeric(9, 2) NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "point_rates_from_check" CHECK ("point_rates"."from_baht" > 0 and "point_rates"."from_point" > 0),
	CONSTRAINT "point_rates_to_check" CHECK ("point_rates"."to_point" >= 0 and "point_rates"."to_baht" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "point_rates_valid_from_key" ON "point_rates" USING btree ("valid_from");