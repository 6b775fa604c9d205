/**
 * Firmware to every active charger of a brand (issue 32): a batch job as Hard Reset All's (batch.service.ts),
 * with progress over SSE and a CSV at the end. Each charger gets a request of its own (with the job's id), so
 * its steps show on its screen; the job's result is the command's answer, the steps come later per request.
 */
import type { FirmwareBatchBody } from '@ev/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { chargerBrands, chargerFileRequests, chargers, landlords } from '../../db/schema/index.ts';
import { NotFound } from '../../lib/errors.ts';
import { landlordScope } from '../../plugins/scope.ts';
import { BatchRun, checkBatchToken } from '../charger/batch.service.ts';
import { CHARGER_BRAND_NOT_FOUND } from '../charger-brand/charger-brand.service.ts';
import {
  batchResultOf,
  type FileRequestContext,
  firmwareFile,
  sendFirmware,
} from './file-request.service.ts';

export async function startFirmwareBatch(
  context: FileRequestContext,
  log: FastifyBaseLogger,
  brandId: number,
  body: FirmwareBatchBody,
): Promise<BatchRun> {
  const { db, config, scope, userId, actor } = context;
  const [brand] = await db
    .select({ id: chargerBrands.id })
    .from(chargerBrands)
    .where(eq(chargerBrands.id, brandId));
  if (!brand) throw new NotFound(CHARGER_BRAND_NOT_FOUND);
  checkBatchToken(config.batch.token, body.token);
  const file = await firmwareFile(db, body.fileId);
  const rows = await db
    .select({ id: chargers.id })
    .from(chargers)
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .where(and(eq(chargers.chargerBrandId, brandId), eq(chargers.active, true), landlordScope(scope)))
    .orderBy(asc(chargers.id));
  const retrieveAt = body.retrieveDate ? new Date(body.retrieveDate) : new Date();
  return BatchRun.create(db, context.commands, log, config, actor, 'firmware', null, {
    chargerIds: rows.map((row) => row.id),
    job: { firmwareFileId: file.id, chargerBrandId: brandId },
    parameters: {
      fileId: file.id,
      fileName: file.name,
      chargerBrandId: brandId,
      retrieveDate: retrieveAt.toISOString(),
    },
    command: {
      send: async (chargerId, jobId) =>
        batchResultOf(
          await sendFirmware(context, chargerId, { fileId: file.id, fileName: file.name, retrieveAt, jobId }),
        ),
      // Not connected: a request that says so, so the charger's screen shows it was not updated.
      offline: async (chargerIds, jobId) => {
        const requestedAt = new Date();
        // A thousand rows an insert: 8 parameters each, well under PostgreSQL's 65,535 a statement.
        for (let from = 0; from < chargerIds.length; from += 1000) {
          await db.insert(chargerFileRequests).values(
            chargerIds.slice(from, from + 1000).map((chargerId) => ({
              kind: 'firmware' as const,
              chargerId,
              fileId: file.id,
              jobId,
              requestedBy: userId,
              requestedAt,
              retrieveAt,
              answer: 'Offline',
            })),
          );
        }
      },
    },
  });
}
