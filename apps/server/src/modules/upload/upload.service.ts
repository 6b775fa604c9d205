import fs from 'node:fs';
import path from 'node:path';
import { UPLOAD_MAX_BYTES } from '@ev/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { preparedPerDb } from '../../db/prepared.ts';
import { uploadedFiles } from '../../db/schema/index.ts';
import { IMAGE_TYPES, type ImageExtension, sniffImage, UPLOAD_NAME } from '../../lib/uploads.ts';
import { type AuditActor, audit } from '../audit/audit.ts';

/** Uploaded images live in the database (table uploaded_files; docs/uploads.md): every process serves them. */

/**
 * Stores an image under its new name; a name is never written twice (the primary key). Audited as an upload
 * for the pages' editor (entity 'page', its name and size; the bytes are left out of the captured row).
 */
export async function storeUpload(
  db: Db,
  name: string,
  extension: ImageExtension,
  bytes: Buffer,
  actor: AuditActor,
) {
  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'page', action: 'upload', details: { name, size: bytes.length } });
    await tx
      .insert(uploadedFiles)
      .values({ name, contentType: IMAGE_TYPES[extension], size: bytes.length, bytes });
  });
}

/** Every GET /uploads/{name}: one primary-key select, prepared once per database. */
const uploadByName = preparedPerDb((db) =>
  db
    .select({ contentType: uploadedFiles.contentType, bytes: uploadedFiles.bytes })
    .from(uploadedFiles)
    .where(eq(uploadedFiles.name, sql.placeholder('name')))
    .prepare('upload_by_name'),
);

/** The stored image of that name, or null. */
export async function findUpload(db: Db, name: string) {
  const [file] = await uploadByName(db).execute({ name });
  return file ?? null;
}

export interface ImportResult {
  imported: string[];
  skipped: string[];
}

/**
 * Images uploaded before they lived in the database were files of UPLOAD_DIR: each file there named as an
 * upload (UPLOAD_NAME) and not in the table yet is read, sniffed as an upload is, and inserted (`on conflict
 * do nothing`: processes starting together may import the same file). With nothing to import it costs one
 * readdir and one query for the names already present; an imported file is never read again. A directory
 * that does not exist is nothing to import. The files are left where they are.
 */
export async function importUploadDir(db: Db, dir: string, log: FastifyBaseLogger): Promise<ImportResult> {
  const result: ImportResult = { imported: [], skipped: [] };
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      log.warn({ err: error, dir }, 'uploads: cannot read UPLOAD_DIR, its images are not imported');
    return result;
  }
  const names = entries
    .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && UPLOAD_NAME.test(entry.name))
    .map((entry) => entry.name);
  if (names.length === 0) return result;
  const present = new Set(
    (
      await db
        .select({ name: uploadedFiles.name })
        .from(uploadedFiles)
        // One parameter whatever the count (an IN list would take one each, at most 65,535).
        .where(
          sql`${uploadedFiles.name} = any(array(select json_array_elements_text(${JSON.stringify(names)}::json)))`,
        )
    ).map((row) => row.name),
  );
  for (const name of names) {
    if (present.has(name)) continue;
    const file = path.join(dir, name);
    const skip = (reason: string, error?: unknown) => {
      result.skipped.push(name);
      log.warn({ file, err: error }, `uploads: ${file} not imported: ${reason}`);
    };
    let bytes: Buffer;
    try {
      const stat = await fs.promises.stat(file);
      if (!stat.isFile()) {
        skip('not a file');
        continue;
      }
      if (stat.size > UPLOAD_MAX_BYTES) {
        skip(`larger than an upload may be (${UPLOAD_MAX_BYTES} bytes)`);
        continue;
      }
      bytes = await fs.promises.readFile(file);
    } catch (error) {
      skip('cannot be read', error);
      continue;
    }
    const extension = sniffImage(bytes);
    if (!extension) {
      skip('not a PNG, JPEG, GIF or WebP image');
      continue;
    }
    // The type its bytes show, as an upload stores it (the name's extension was that type too).
    await db
      .insert(uploadedFiles)
      .values({ name, contentType: IMAGE_TYPES[extension], size: bytes.length, bytes })
      .onConflictDoNothing();
    result.imported.push(name);
  }
  if (result.imported.length > 0) {
    log.info(
      { dir, imported: result.imported.length, skipped: result.skipped.length },
      `uploads: imported ${result.imported.length} image(s) of ${dir} into the database`,
    );
  }
  return result;
}
