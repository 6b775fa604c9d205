CREATE TABLE "landlord_business_hours" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "landlord_business_hours_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"landlord_id" integer NOT NULL,
	"day_of_week" smallint NOT NULL,
	"open_time" time NOT NULL,
	"close_time" time NOT NULL,
	CONSTRAINT "landlord_business_hours_day" CHECK ("landlord_business_hours"."day_of_week" between 1 and 7)
);
--> statement-breakpoint
CREATE TABLE "landlords" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "landlords_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"merchant_id" integer NOT NULL,
	"name_en" text NOT NULL,
	"name_th" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"business_hours_type" text NOT NULL,
	"mea_id" text,
	"pea_id" text,
	"partner_project_id" text,
	"partner_user_type" text,
	"desc_en" text,
	"desc_th" text,
	"addr_en" text,
	"addr_th" text,
	"province_id" integer,
	"tel" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "landlords_latitude_range" CHECK ("landlords"."latitude" between -90 and 90),
	CONSTRAINT "landlords_longitude_range" CHECK ("landlords"."longitude" between -180 and 180)
);
--> statement-breakpoint
CREATE TABLE "merchants" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "merchants_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name_en" text NOT NULL,
	"name_th" text NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"addr_en" text,
	"addr_th" text,
	"province_id" integer,
	"tax_id" text,
	"tel" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "parties" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "parties_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name_en" text NOT NULL,
	"name_th" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "party_landlords" (
	"party_id" integer NOT NULL,
	"landlord_id" integer NOT NULL,
	CONSTRAINT "party_landlords_party_id_landlord_id_pk" PRIMARY KEY("party_id","landlord_id")
);
--> statement-breakpoint
ALTER TABLE "landlord_business_hours" ADD CONSTRAINT "landlord_business_hours_landlord_id_landlords_id_fk" FOREIGN KEY ("landlord_id") REFERENCES "public"."landlords"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "landlords" ADD CONSTRAINT "landlords_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "landlords" ADD CONSTRAINT "landlords_province_id_provinces_id_fk" FOREIGN KEY ("province_id") REFERENCES "public"."provinces"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_province_id_provinces_id_fk" FOREIGN KEY ("province_id") REFERENCES "public"."provinces"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_landlords" ADD CONSTRAINT "party_landlords_party_id_parties_id_fk" FOREIGN KEY ("party_id") REFERENCES "public"."parties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_landlords" ADD CONSTRAINT "party_landlords_landlord_id_landlords_id_fk" FOREIGN KEY ("landlord_id") REFERENCES "public"."landlords"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "landlord_business_hours_landlord_idx" ON "landlord_business_hours" USING btree ("landlord_id");--> statement-breakpoint
CREATE INDEX "landlords_merchant_idx" ON "landlords" USING btree ("merchant_id");--> statement-breakpoint
CREATE INDEX "party_landlords_landlord_idx" ON "party_landlords" USING btree ("landlord_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_party_id_parties_id_fk" FOREIGN KEY ("party_id") REFERENCES "public"."parties"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_landlord_id_landlords_id_fk" FOREIGN KEY ("landlord_id") REFERENCES "public"."landlords"("id") ON DELETE restrict ON UPDATE no action;