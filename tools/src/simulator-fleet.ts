/**
 * Which chargers to simulate: the active chargers a server knows that need no password, read from its
 * database (in process) or through its API (the CLI), with their connector counts.
 */

import type { Db } from '@ev/server/db/client';
import { chargers, connectors } from '@ev/server/db/schema/index';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { SimulatedChargerSpec } from './simulator.ts';

export async function fleetFromDatabase(db: Db, limit?: number): Promise<SimulatedChargerSpec[]> {
  const query = db
    .select({ id: chargers.id, connectors: count(connectors.id) })
    .from(chargers)
    .innerJoin(connectors, eq(connectors.chargerId, chargers.id))
    .where(and(eq(chargers.active, true), isNull(chargers.ocppPasswordHash)))
    .groupBy(chargers.id)
    .orderBy(asc(chargers.id));
  const rows = limit === undefined ? await query : await query.limit(limit);
  return rows.map((row) => ({ id: row.id, connectors: Number(row.connectors) }));
}

interface ApiCharger {
  id: string;
  active: boolean;
  hasOcppPassword?: boolean;
  connectors: Array<{ ocppConnectorId?: number }>;
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
      const numbers = charger.connectors.map((c, i) => c.ocppConnectorId ?? i + 1);
      specs.push({ id: charger.id, connectors: Math.max(...numbers) });
    }
    if (page * 100 >= body.total) break;
  }
  return specs.slice(0, limit);
}
