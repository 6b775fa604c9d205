/**
 * Which chargers to simulate: the active chargers a server knows that need no password, read from its
 * database (in process) or through its API (the CLI), with their connectors (numbered as in OCPP), each
 * connector's maximum power and the charger's power type, so simulated sessions deliver what they could, and
 * the OCPP version a charger set to one (its Protocol setting) must speak; a charger on Automatic speaks what
 * the simulation chooses (`mixProtocols`: the demo's share of 2.0.1 chargers).
 */

import type { Db } from '@ev/server/db/client';
import { chargerBrands, chargers, connectors, landlords } from '@ev/server/db/schema/index';
import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { DEMO_BRAND_WITHOUT_FIRMWARE } from './demo-brands.ts';
import type { SimulatedChargerSpec, SimulatorProtocol } from './simulator.ts';

/** A charger to simulate, with its Protocol setting (the charger form's: Automatic, 1.6 or 2.0.1). */
export interface FleetSpec extends SimulatedChargerSpec {
  ocppProtocol?: 'auto' | '1.6' | '2.0.1';
}

/** A spec from a charger's connectors: numbers 1..the highest OCPP number, each with its power. */
function specOf(
  id: string,
  powerType: string | null | undefined,
  list: Array<{ ocppConnectorId: number; maxPowerKw: number | null }>,
  brandName?: string | null,
  ocppProtocol?: string | null,
): FleetSpec {
  const count = Math.max(...list.map((c) => c.ocppConnectorId));
  const maxPowerKw: Array<number | null> = Array.from({ length: count }, () => null);
  for (const c of list) maxPowerKw[c.ocppConnectorId - 1] = c.maxPowerKw;
  return {
    id,
    connectors: count,
    maxPowerKw,
    ...(powerType === 'AC' || powerType === 'DC' ? { powerType } : {}),
    ...(brandName === DEMO_BRAND_WITHOUT_FIRMWARE ? { firmwareManagement: false } : {}),
    ...(ocppProtocol === '1.6' || ocppProtocol === '2.0.1' ? { ocppProtocol } : {}),
  };
}

/** FNV-1a of the id, in [0, 1): a charger's stable place in the draw. */
function draw(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return hash / 2 ** 32;
}

/**
 * The protocol each charger speaks: its setting's version, or for one on Automatic 2.0.1 for `share` (0..1) of
 * them and 1.6 for the others, the same chargers at every start (ranked by a hash of their id, the first
 * round(share × n) of them). For `simulateChargers`' `protocol` option.
 */
export function mixProtocols(fleet: FleetSpec[], share: number): (id: string) => SimulatorProtocol {
  const auto = fleet
    .filter((spec) => spec.ocppProtocol !== '1.6' && spec.ocppProtocol !== '2.0.1')
    .sort((a, b) => draw(a.id) - draw(b.id));
  const v201 = new Set(
    auto.slice(0, Math.round(Math.min(1, Math.max(0, share)) * auto.length)).map((s) => s.id),
  );
  const set = new Map(fleet.map((spec) => [spec.id, spec.ocppProtocol]));
  return (id) => {
    const setting = set.get(id);
    if (setting === '1.6' || setting === '2.0.1') return setting;
    return v201.has(id) ? '2.0.1' : '1.6';
  };
}

export async function fleetFromDatabase(db: Db, limit?: number): Promise<FleetSpec[]> {
  const rows = await db
    .select({
      id: chargers.id,
      powerType: chargerBrands.powerType,
      brandName: chargerBrands.name,
      ocppProtocol: chargers.ocppProtocol,
      ocppConnectorId: connectors.ocppConnectorId,
      maxPowerKw: connectors.maxPowerKw,
    })
    .from(chargers)
    .innerJoin(connectors, eq(connectors.chargerId, chargers.id))
    .innerJoin(chargerBrands, eq(chargerBrands.id, chargers.chargerBrandId))
    .where(and(eq(chargers.active, true), isNull(chargers.ocppPasswordHash)))
    .orderBy(asc(chargers.id), asc(connectors.ocppConnectorId));
  const byCharger = new Map<string, typeof rows>();
  for (const row of rows) byCharger.set(row.id, [...(byCharger.get(row.id) ?? []), row]);
  const specs = [...byCharger].map(([id, list]) =>
    specOf(
      id,
      list[0]!.powerType,
      list.map((c) => ({ ocppConnectorId: c.ocppConnectorId, maxPowerKw: Number(c.maxPowerKw) })),
      list[0]!.brandName,
      list[0]!.ocppProtocol,
    ),
  );
  return limit === undefined ? specs : specs.slice(0, limit);
}

interface ApiCharger {
  id: string;
  active: boolean;
  hasOcppPassword?: boolean;
  powerType?: string | null;
  chargerBrandName?: string;
  ocppProtocol?: string;
  connectors: Array<{ ocppConnectorId?: number; maxPowerKw?: number | null }>;
}

/** Signs in as an admin and pages through GET /api/charger. */
export async function fleetFromApi(
  httpBase: string,
  credentials: { email: string; pass: string },
  limit = Number.POSITIVE_INFINITY,
): Promise<FleetSpec[]> {
  const login = await fetch(`${httpBase}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...credentials, type: 'admin' }),
  });
  const session = (await login.json()) as { accessToken?: string; message?: string };
  if (!login.ok || !session.accessToken)
    throw new Error(`Sign-in as ${credentials.email} failed: ${session.message}`);
  const specs: FleetSpec[] = [];
  for (let page = 1; specs.length < limit; page++) {
    const response = await fetch(`${httpBase}/api/charger?page=${page}&size=100&sort=id&order=asc`, {
      headers: { 'x-access-token': session.accessToken },
    });
    const body = (await response.json()) as { total: number; chargers: ApiCharger[] };
    for (const charger of body.chargers) {
      if (!charger.active || charger.hasOcppPassword || charger.connectors.length === 0) continue;
      const list = charger.connectors.map((c, i) => ({
        ocppConnectorId: c.ocppConnectorId ?? i + 1,
        maxPowerKw: c.maxPowerKw ?? null,
      }));
      specs.push(specOf(charger.id, charger.powerType, list, charger.chargerBrandName, charger.ocppProtocol));
    }
    if (page * 100 >= body.total) break;
  }
  return specs.slice(0, limit);
}

/** The active chargers of the sites with a power limit (the demo's members charge there first, now and then). */
export async function chargersAtLimitedSites(db: Db): Promise<Set<string>> {
  const rows = await db
    .select({ id: chargers.id })
    .from(chargers)
    .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
    .where(and(eq(chargers.active, true), isNotNull(landlords.maxPowerKw)));
  return new Set(rows.map((row) => row.id));
}
