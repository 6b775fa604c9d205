/**
 * The safe default (issue 34 §2): a charger of a limited site keeps a TxDefaultProfile on connector 0, so that
 * should it lose us (the network, our servers) its next transactions stay within a fair share of the site's
 * limit rather than jump to full power. Sent at boot, when the site or the charger is edited, and when a
 * charger that missed one connects; taken back when the site's limit is removed. The answer is kept on the
 * charger (chargers.default_profile_status / _at).
 */
import { and, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chargerBrands, chargers, connectors, landlords } from '../../db/schema/index.ts';
import { type ChargerCommands, clearChargingProfile, setChargingProfile } from '../../ocpp/commands.ts';
import {
  DEFAULT_PROFILE_ID,
  defaultLimitW,
  defaultProfile,
  minimumW,
  profileAnswer,
  unitFor,
  wattsOf,
} from './power-profiles.ts';

async function chargerAndSite(db: Db, chargerId: string) {
  const [row] = await db
    .select({
      landlordId: chargers.landlordId,
      online: chargers.connectedNode,
      status: chargers.defaultProfileStatus,
      maxPowerKw: landlords.maxPowerKw,
      phases: landlords.phases,
      voltage: landlords.voltage,
      powerType: chargerBrands.powerType,
      brandMinKw: chargerBrands.minPowerKw,
    })
    .from(chargers)
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .innerJoin(chargerBrands, eq(chargerBrands.id, chargers.chargerBrandId))
    .where(eq(chargers.id, chargerId));
  return row;
}

/** The connectors of the site's active chargers: how many the limit is shared by in the default. */
async function siteConnectors(db: Db, landlordId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(connectors)
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .where(and(eq(chargers.landlordId, landlordId), eq(chargers.active, true)));
  return row?.n ?? 0;
}

const record = (db: Db, chargerId: string, status: string | null) =>
  db
    .update(chargers)
    .set({ defaultProfileStatus: status, defaultProfileAt: new Date() })
    .where(eq(chargers.id, chargerId));

/**
 * Gives the charger its default profile (its site has a limit) or takes ours back (it has none). An offline
 * charger is marked 'Offline', so that it gets it when it connects. `onlyIfMissed`: not when it already
 * accepted one (a charger that reconnects keeps its profiles).
 */
export async function refreshDefault(
  db: Db,
  commands: ChargerCommands,
  chargerId: string,
  { onlyIfMissed }: { onlyIfMissed: boolean },
): Promise<void> {
  const charger = await chargerAndSite(db, chargerId);
  if (!charger) return;
  const limitW = wattsOf(charger.maxPowerKw);
  // No limit, and none of ours on the charger: nothing to do.
  if (limitW === null && charger.status === null) return;
  if (limitW !== null && onlyIfMissed && charger.status === 'Accepted') return;
  if (charger.online === null) {
    if (charger.status !== 'Offline') await record(db, chargerId, 'Offline');
    return;
  }
  if (limitW === null) {
    const outcome = await clearChargingProfile(commands, chargerId, { id: DEFAULT_PROFILE_ID });
    // Accepted, or Unknown (it had none): nothing of ours is left there. Otherwise tried again at its connect.
    await record(db, chargerId, outcome.status === 'answered' ? null : profileAnswer(outcome));
    return;
  }
  const minW = minimumW(charger.powerType, charger.brandMinKw, charger);
  const share = defaultLimitW(limitW, await siteConnectors(db, charger.landlordId), minW);
  const outcome = await setChargingProfile(
    commands,
    chargerId,
    0,
    defaultProfile(share, unitFor(charger.powerType, charger)),
  );
  await record(db, chargerId, profileAnswer(outcome));
}
