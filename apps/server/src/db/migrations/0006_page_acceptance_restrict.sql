ALTER TABLE "term_acceptances" DROP CONSTRAINT "term_acceptances_page_id_pages_id_fk";
--> statement-breakpoint
ALTER TABLE "term_acceptances" ADD CONSTRAINT "term_acceptances_page_id_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."pages"("id") ON DELETE restrict ON UPDATE no action;