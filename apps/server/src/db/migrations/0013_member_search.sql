-- The member search (issue 31): trigram indexes for `ilike '%text%'` on the members' names, e-mails and
-- phones. pg_trgm is a trusted extension: the database's owner may create it (PostgreSQL's contrib; PGlite
-- loads it in client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "payments_user_idx" ON "payments" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin (("first_name" || ' ' || "last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_tel_trgm_idx" ON "users" USING gin ("tel" gin_trgm_ops);--> statement-breakpoint
-- The planner's statistics, for the new expression index and for databases that never had any: the embedded
-- database has no autovacuum, and without statistics the search read every member again for each booking.
ANALYZE;
