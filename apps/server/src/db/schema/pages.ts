import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Content pages: terms, privacy policy and tutorials (type guide). Detail fields hold sanitized HTML. */
export const pages = pgTable(
  'pages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    type: text('type', { enum: ['terms', 'privacy', 'guide'] }).notNull(),
    titleEn: text('title_en').notNull(),
    titleTh: text('title_th').notNull(),
    detailEn: text('detail_en').notNull().default(''),
    detailTh: text('detail_th').notNull().default(''),
    active: boolean('active').notNull().default(false),
    /** Tutorial display order: 0 = not displayed. */
    weight: integer('weight').notNull().default(0),
    /** When the page was last published (made active); acceptance older than this no longer counts. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pages_type_active_idx').on(t.type, t.active)],
);

/**
 * Which terms and privacy pages a user accepted, and when. Acceptances are legal records: a page someone
 * accepted can't be deleted (RESTRICT; the page service answers 409 before the database has to).
 */
export const termAcceptances = pgTable(
  'term_acceptances',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    pageId: integer('page_id')
      .notNull()
      .references(() => pages.id, { onDelete: 'restrict' }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('term_acceptances_user_page_idx').on(t.userId, t.pageId)],
);
