import { createScratchDatabase, type ScratchDatabase } from '@ev/tools/scratch-database';
import type { NatsConnection } from '@nats-io/transport-node';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeBus, connectBus } from '../../src/cluster/bus.ts';
import { openDatabase } from '../../src/db/client.ts';
import { chargers, powerAllowances } from '../../src/db/schema/index.ts';
import { type NatsServer, startNats } from '../helpers/cluster.ts';
import {
  createChargerBrand,
  createLandlord,
  createMerchant,
  createPrice,
  signedInUser,
} from '../helpers/factories.ts';
import { eventually, ocppUrl } from '../helpers/ocpp.ts';
import { expectedShares, PowerStation, type SessionFacts, writeSiteLimit } from '../helpers/power.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 34 §2 across processes: two servers (A and B, each a whole app with its own database pool and its own
 * NATS connection) on one PostgreSQL database, joined by a NATS server of the test's own. Whichever process
 * hears the event shares the site's limit again; a charger held by the other process gets its profile through
 * NATS (ocpp.commands, cluster/bus.ts). The two run in this test's process, which spares building and spawning
 * the server (test/cluster/cluster.test.ts runs built processes); nothing but the event loop is shared.
 */
let nats: NatsServer;
let scratch: ScratchDatabase;
const buses: NatsConnection[] = [];
let A: TestApp;
let B: TestApp;
let onA: PowerStation;
let onB: PowerStation;
const LIMIT = { limitW: 40_000, phases: null, voltage: null };

async function server(name: string): Promise<TestApp> {
  const nc = await connectBus(nats.url, `power-cluster ${name}`);
  buses.push(nc);
  return startTestApp(
    { OCPP_UNKNOWN_TAGS: 'accept' },
    { database: await openDatabase({ databaseUrl: scratch.url }), nats: nc },
  );
}

beforeAll(async () => {
  nats = await startNats();
  scratch = await createScratchDatabase(
    process.env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres',
    'ev_power_cluster',
  );
  A = await server('A');
  B = await server('B');
  const admin = (await signedInUser(A, { role: 'admin' })).token;
  const merchantId = (await createMerchant(A)).id;
  const landlordId = (await createLandlord(A, merchantId)).id;
  await writeSiteLimit(A.database.db, landlordId, LIMIT);
  const base = {
    version: '1.6' as const,
    landlordId,
    merchantId,
    chargerBrandId: (await createChargerBrand(A, { powerType: 'AC', minPowerKw: '1.40' })).id,
    priceId: (await createPrice(A)).id,
    connectorsKw: [22],
  };
  onA = new PowerStation({ ...base, id: 'PCL-A', firstConnectorId: 920_000 }, ocppUrl(A));
  onB = new PowerStation({ ...base, id: 'PCL-B', firstConnectorId: 920_010 }, ocppUrl(B));
  for (const station of [onA, onB]) {
    await station.create(A.call, admin);
    await station.connect();
  }
  // Each shows online (held, its commands reach it from any process) once the database says so.
  await eventually(async () => {
    const rows = await A.database.db
      .select({ node: chargers.connectedNode })
      .from(chargers)
      .where(inArray(chargers.id, [onA.id, onB.id]));
    return rows.length === 2 && rows.every((row) => row.node !== null);
  });
}, 120_000);

afterAll(async () => {
  for (const station of [onA, onB]) await station?.disconnect().catch(() => undefined);
  for (const app of [A, B]) await app?.close();
  for (const nc of buses) await closeBus(nc, A.app.log);
  await nats?.stop();
  await scratch?.drop();
});

/** Waits until each session's charger holds the TxProfile sharePower gives it, answered Accepted. */
async function converge(steered: SessionFacts[]) {
  const expected = await expectedShares(A.database.db, LIMIT, steered);
  await eventually(async () => {
    for (const e of expected) {
      const last = e.station.lastProfile('TxProfile', e.connector);
      if (last?.limit !== e.limit || last.transactionId !== e.sessionId) return false;
      const [row] = await A.database.db
        .select()
        .from(powerAllowances)
        .where(eq(powerAllowances.chargingSessionId, e.sessionId));
      if (row?.allowanceW !== e.allowanceW || row.profileStatus !== 'Accepted') return false;
    }
    return true;
  });
  await Promise.all([A.app.power.settled(), B.app.power.settled()]);
  return expected;
}

it("a session starting on A's charger re-shares the site: B's charger gets its new profile through NATS", async () => {
  const sessionB: SessionFacts = { station: onB, connector: 1, ...(await onB.start(B.database.db, 1)) };
  expect((await converge([sessionB])).map((e) => e.allowanceW)).toEqual([22_000]);

  // Only A hears this start; B's charger must still be told its smaller share.
  const recomputesOnB = B.app.power.recomputes;
  const sessionA: SessionFacts = { station: onA, connector: 1, ...(await onA.start(A.database.db, 1)) };
  const shared = await converge([sessionB, sessionA]);
  expect(shared.map((e) => e.allowanceW)).toEqual([20_000, 20_000]);
  expect(onB.lastProfile('TxProfile')?.limit).toBe(20_000);
  expect(B.app.power.recomputes).toBe(recomputesOnB);

  // And back: B hears its session stop, A's charger gets the whole of its connector.
  await onB.stop(sessionB);
  expect((await converge([sessionA])).map((e) => e.allowanceW)).toEqual([22_000]);
  expect(onA.lastProfile('TxProfile')?.limit).toBe(22_000);
});
