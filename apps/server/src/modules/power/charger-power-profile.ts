/**
 * A charger's answer to the power sharing's profiles, for its detail (GET /api/charger/:id, `powerProfile`):
 * staff see there that a charger refused its limit and is counted at full power.
 */
import type { ChargerPowerProfile } from '@ev/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chargers, connectors, powerAllowances } from '../../db/schema/index.ts';
import { isRefusal } from './power-profiles.ts';

/** A refusal first (its TxProfile's or its default's), else the newest answer; null when none was sent. */
export async function chargerPowerProfile(db: Db, chargerId: string): Promise<ChargerPowerProfile | null> {
  const [charger] = await db
    .select({ status: chargers.defaultProfileStatus, at: chargers.defaultProfileAt })
    .from(chargers)
    .where(eq(chargers.id, chargerId));
  const sessions = await db
    .select({
      status: powerAllowances.profileStatus,
      answeredAt: powerAllowances.answeredAt,
      decidedAt: powerAllowances.decidedAt,
    })
    .from(powerAllowances)
    .innerJoin(connectors, eq(connectors.id, powerAllowances.connectorId))
    .where(eq(connectors.chargerId, chargerId));
  const answers = [
    ...(charger?.status ? [{ status: charger.status, at: charger.at }] : []),
    ...sessions.map((row) => ({ status: row.status, at: row.answeredAt ?? row.decidedAt })),
  ];
  const newestFirst = answers.sort((a, b) => (b.at?.getTime() ?? 0) - (a.at?.getTime() ?? 0));
  const shown = newestFirst.find((answer) => isRefusal(answer.status)) ?? newestFirst[0];
  return shown ? { status: shown.status, at: shown.at?.toISOString() ?? null } : null;
}
