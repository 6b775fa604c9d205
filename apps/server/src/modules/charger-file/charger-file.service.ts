/** Firmware and diagnostics files (admin): list, one file's facts, delete. The bytes: file-store.ts. */
import {
  CHARGER_FILE_MESSAGES,
  type ChargerFile,
  type ChargerFileListQuery,
  type ListQuery,
} from '@ev/shared';
import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chargerBrands, chargerFiles, chargerFileTokens, users } from '../../db/schema/index.ts';
import { Conflict, NotFound } from '../../lib/errors.ts';
import { countAll, paging } from '../../lib/list-query.ts';
import type { DataScope } from '../../plugins/scope.ts';
import { type AuditActor, audit } from '../audit/audit.ts';
import { chargerInScope } from './file-request.service.ts';

const f = chargerFiles;

const fileColumns = {
  id: f.id,
  kind: f.kind,
  chargerId: f.chargerId,
  chargerBrandId: f.chargerBrandId,
  chargerBrandName: chargerBrands.name,
  name: f.name,
  version: f.version,
  size: f.size,
  sha256: f.sha256,
  createdAt: f.createdAt,
  createdByEmail: users.email,
};

async function listWhere(db: Db, where: SQL | undefined, query: Pick<ListQuery, 'page' | 'size'>) {
  const all = and(eq(f.complete, true), where);
  const [{ total } = { total: 0 }] = await db.select({ total: countAll() }).from(f).where(all);
  const { limit, offset } = paging(query);
  const rows = await db
    .select(fileColumns)
    .from(f)
    .leftJoin(chargerBrands, eq(chargerBrands.id, f.chargerBrandId))
    .leftJoin(users, eq(users.id, f.createdBy))
    .where(all)
    .orderBy(desc(f.createdAt), desc(f.id))
    .limit(limit)
    .offset(offset);
  return { total, files: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
}

/** GET /api/charger-file: one kind's complete files, newest first (firmware: of one brand if asked). */
export function listFiles(
  db: Db,
  query: ChargerFileListQuery,
): Promise<{ total: number; files: ChargerFile[] }> {
  return listWhere(
    db,
    and(
      eq(f.kind, query.kind),
      query.chargerBrandId !== undefined ? eq(f.chargerBrandId, query.chargerBrandId) : undefined,
    ),
    query,
  );
}

/** GET /api/charger/{id}/file: the diagnostics a charger uploaded, newest first. */
export async function listChargerFiles(
  db: Db,
  scope: DataScope,
  chargerId: string,
  query: ListQuery,
): Promise<{ total: number; files: ChargerFile[] }> {
  await chargerInScope(db, scope, chargerId);
  return listWhere(db, and(eq(f.kind, 'diagnostics'), eq(f.chargerId, chargerId)), query);
}

/** One complete file's facts (404 otherwise). */
export async function getFile(db: Db, id: number): Promise<ChargerFile> {
  const [row] = await db
    .select(fileColumns)
    .from(f)
    .leftJoin(chargerBrands, eq(chargerBrands.id, f.chargerBrandId))
    .leftJoin(users, eq(users.id, f.createdBy))
    .where(and(eq(f.id, id), eq(f.complete, true)));
  if (!row) throw new NotFound(CHARGER_FILE_MESSAGES.notFound);
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/**
 * Deletes a file. A firmware file a live download link still serves (an update sent and not yet downloaded)
 * is a 409: the charger would fail its download.
 */
export async function deleteFile(db: Db, id: number, actor: AuditActor): Promise<void> {
  await getFile(db, id);
  const [live] = await db
    .select({ n: countAll() })
    .from(chargerFileTokens)
    .where(
      and(
        eq(chargerFileTokens.fileId, id),
        eq(chargerFileTokens.purpose, 'firmware-download'),
        isNull(chargerFileTokens.usedAt),
        sql`${chargerFileTokens.expiresAt} > now()`,
      ),
    );
  if ((live?.n ?? 0) > 0) throw new Conflict(CHARGER_FILE_MESSAGES.inUse);
  // Its chunks go with it (cascade); they are bytes, not fields, and no entry records them.
  await db.transaction(async (tx) => {
    await audit(tx, actor, { entity: 'charger-file', entityId: id, action: 'delete' });
    await tx.delete(chargerFiles).where(eq(chargerFiles.id, id));
  });
}
