/**
 * The firmware and diagnostics steps chargers report (ocpp/events.ts ChargerFileEvents; app.ts hands this to
 * OcppCentral). A step goes to the charger's latest open request of its kind (file-request.service.ts
 * OPEN_REQUEST) with the time we received it, never before the request or the step before it (OCPP 1.6's
 * status notifications carry no time, and a charger's clock is evidence, not truth). A status with no open
 * request (an Idle the charger sends when asked) is dropped.
 */

import { ID_MAX } from '@ev/shared';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chargerFileRequests, chargerFileTokens } from '../../db/schema/index.ts';
import type { ChargerFileEvents } from '../../ocpp/events.ts';
import { OPEN_REQUEST } from './file-request.service.ts';

/**
 * Firmware steps that say the charger has the file: its download link is used from then on (with 2.0.1's
 * steps after the download: the signature checked, the install scheduled or rebooting).
 */
const HAS_THE_FILE = new Set([
  'Downloaded',
  'Installing',
  'Installed',
  'InstallationFailed',
  'SignatureVerified',
  'InvalidSignature',
  'InstallScheduled',
  'InstallRebooting',
  'InstallVerificationFailed',
]);

const r = chargerFileRequests;

/**
 * Adds one step to the open request `requestId` names (2.0.1 repeats the id we sent), else to the charger's
 * latest open request of `kind`; false when it has none.
 */
export async function addStep(
  db: Db,
  chargerId: string,
  kind: 'firmware' | 'diagnostics',
  status: string,
  receivedAt: Date,
  requestId?: number,
): Promise<boolean> {
  const openOf = (named: boolean) =>
    db
      .select({ id: r.id, requestedAt: r.requestedAt, statusAt: r.statusAt })
      .from(r)
      .where(
        and(
          eq(r.chargerId, chargerId),
          eq(r.kind, kind),
          OPEN_REQUEST,
          named && requestId !== undefined && requestId <= ID_MAX ? eq(r.id, requestId) : undefined,
        ),
      )
      .orderBy(desc(r.id))
      .limit(1);
  let [open] = requestId !== undefined ? await openOf(true) : [];
  if (!open) [open] = await openOf(false);
  if (!open) return false;
  const at = new Date(
    Math.max(receivedAt.getTime(), open.requestedAt.getTime(), open.statusAt?.getTime() ?? 0),
  );
  const step = JSON.stringify([{ status, at: at.toISOString() }]);
  await db
    .update(r)
    .set({ steps: sql`${r.steps} || ${step}::jsonb`, status, statusAt: at })
    .where(eq(r.id, open.id));
  if (kind === 'firmware' && HAS_THE_FILE.has(status)) {
    await db
      .update(chargerFileTokens)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(chargerFileTokens.purpose, 'firmware-download'),
          eq(chargerFileTokens.chargerId, chargerId),
          eq(chargerFileTokens.createdAt, open.requestedAt),
          isNull(chargerFileTokens.usedAt),
        ),
      );
  }
  return true;
}

export const chargerFileEvents = (db: Db): ChargerFileEvents => ({
  firmwareStatus: async (chargerId, status, receivedAt, requestId) => {
    await addStep(db, chargerId, 'firmware', status, receivedAt, requestId);
  },
  diagnosticsStatus: async (chargerId, status, receivedAt, requestId) => {
    await addStep(db, chargerId, 'diagnostics', status, receivedAt, requestId);
  },
});
