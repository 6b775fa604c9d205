import { customType, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * A bytea column as a Buffer (pg-core has no bytea). node-postgres reads one as a Buffer, PGlite as a
 * Uint8Array, which becomes a Buffer over the same memory (no copy); both take a Buffer as a parameter.
 */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * Images uploaded for content pages (POST /api/upload, served at /uploads/{name}; docs/uploads.md): in the
 * database, so every server process sharing it serves them and backups hold them. A row never changes.
 */
export const uploadedFiles = pgTable('uploaded_files', {
  /** `<uuid>.<png|jpg|gif|webp>` (lib/uploads.ts UPLOAD_NAME). */
  name: text('name').primaryKey(),
  /** The type its bytes showed (IMAGE_TYPES), served as Content-Type. */
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
