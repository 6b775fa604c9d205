/**
 * Which chargers to simulate: the active chargers a server knows that need no password, read from its
 * database (in process) or through its API (the CLI), with their connectors (numbered as in OCPP), each
 * connector's maximum power and the charger's power type, so simulated sessions deliver what they could.
 */

import type { Db } from '@ev/server/db/client';
import { chargerBrands, chargers, connectors } from '@ev/server/db/schema/index';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { DEMO_BRAND_WITHOUT_FIRMWARE } from './demo-brands.ts';
import type { SimulatedChargerSpec } from './simulator.ts';

/** A spec from a charger's connectors: numbers 1..the highest OCPP number, each with its power. */
function specOf(
  id: string,
  powerType: string | null | undefined,
  list: Array<{ ocppConnectorId: number; maxPowerKw: number | null }>,
  brandName?: string | null,
): SimulatedChargerSpec {
  const count = Math.max(...list.map((c) => c.ocppConnectorId));
  const maxPowerKw: Array<number | null> = Array.from({ length: count }, () => null);
  for (const c of list) maxPowerKw[c.ocppConnectorId - 1] = c.maxPowerKw;
  return {
    id,
    connectors: count,
    maxPowerKw,
    ...(powerType === 'AC' || powerType === 'DC' ? { powerType } : {}),
    ...(brandName === DEMO_BRAND_WITHOUT_FIRMWARE ? { firmwareManagement: false } : {}),
  };
}

export async function fleetFromDatabase(db: Db, limit?: number): Promise<SimulatedChargerSpec[]> {
  const rows = await db
    .select({
      id: chargers.id,
      powerType: chargerBrands.powerType,
      brandName: chargerBrands.name,
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
  connectors: Array<{ ocppConnectorId?: number; maxPowerKw?: number | null }>;
}

/** Signs in as an admin and pages through GET /api/charger. */
export async function fleetFromApi(
  httpBase: string,
  credentials: { email: string; pass: string },
  limit = Number.POSITIVE_INFINITY,
): Promise<SimulatedChargerSpec[]> {
  const login = await fetch(`${httpBase}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...credentials, type: 'admin' }),
  });
  const session = (await login.json()) as { accessToken?: string; message?: string };
  if (!login.ok || !session.accessToken)
    throw new Error(`Sign-in as ${credentials.email} failed: ${session.message}`);
  const specs: SimulatedChargerSpec[] = [];
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
      specs.push(specOf(charger.id, charger.powerType, list, charger.chargerBrandName));
    }
    if (page * 100 >= body.total) break;
  }
  return specs.slice(0, limit);
}
