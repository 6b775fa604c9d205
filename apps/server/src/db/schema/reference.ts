import { integer, pgTable, text } from 'drizzle-orm/pg-core';

export const provinces = pgTable('provinces', {
  id: integer('id').primaryKey(),
  nameEn: text('name_en').notNull(),
  nameTh: text('name_th').notNull(),
});
