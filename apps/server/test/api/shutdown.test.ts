import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScratchDatabase, type ScratchDatabase } from '@ev/tools/scratch-database';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.ts';
import {
  bookings,
  chargers,
  chargingSessions,
  connectors,
  meterValues,
  paymentOperations,
  payments,
} from '../../src/db/schema/index.ts';
import { RPCClient } from '../../src/ocpp/rpc.ts';
import { backOfficeStatus } from '../../src/ocpp/store.ts';
import { createBooking } from '../helpers/bookings.ts';
import { createPrice, createUser, signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually } from '../helpers/ocpp.ts';
import {
  buildServer,
  exitWithin,
  freePort,
  killServer,
  type ServerProcess,
  startServerProcess,
} from '../helpers/server-process.ts';
import { startTestApp } from '../helpers/test-app.ts';

/**
 * Issue 22 §4, "Stop without losing anything": the built server (`node dist/server.js`) on real data, stopped
 * with SIGTERM in the middle of members paying and chargers reporting. Whatever it acknowledged (a 2xx, a
 * CALLRESULT) is in the database afterwards, exactly once; chargers are told to come back (1012), and one in
 * the middle of a session finishes it on the restarted server.
 */

const PAYERS = 6;
const BOOKINGS_PER_PAYER = 15;
const STORM = ['STORM-01', 'STORM-02', 'STORM-03', 'STORM-04'];
const SESSIONS = ['SESSION-01', 'SESSION-02'];
const SLOW = 'SLOW-01';
/** Statuses the storm chargers cycle through (an odd count: each connector of two sees them all). */
const STATUSES = ['Preparing', 'Finishing', 'Available', 'Unavailable', 'SuspendedEVSE'];
const METER_START_WH = 1_000_000;
/** 125 Wh at 8.00 baht per kWh: each reading adds 1.00 baht. */
const WH_PER_READING = 125;
const BAHT_PER_KWH = 8;
/** The server's own bound (apps/server/src/server.ts, SHUTDOWN_DEADLINE_MS). */
const STOP_BOUND_MS = 10_000;

interface Payer {
  token: string;
  bookingIds: number[];
}
interface Driver {
  token: string;
  idTag: string;
  chargerId: string;
  bookingId: number;
}

let work: string;
let dataDir: string;
let scratch: ScratchDatabase | null = null;
/** Where the spawned servers find the data: DATA_DIR (PGlite) or DATABASE_URL. */
let dataEnv: Record<string, string>;
let port: number;
let server: ServerProcess | undefined;
let admin: string;
let slowConnectorId: number;
const payers: Payer[] = [];
const drivers: Driver[] = [];
const openData = (): Promise<Database> =>
  scratch ? openDatabase({ databaseUrl: scratch.url }) : openDatabase({ dataDir });

beforeAll(async () => {
  await buildServer();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-shutdown-'));
  dataDir = path.join(work, 'data');
  if (process.env.DATABASE_URL)
    scratch = await createScratchDatabase(process.env.DATABASE_URL, 'ev_shutdown');
  dataEnv = scratch ? { DATA_DIR: dataDir, DATABASE_URL: scratch.url } : { DATA_DIR: dataDir };

  // The data, made in-process on the database the spawned servers will use.
  const t = await startTestApp({}, { database: await openData() });
  try {
    admin = (await signedInUser(t, { role: 'admin' })).token;
    const place = await chargerPlace(t);
    place.price = await createPrice(t, {
      bahtPerKwh: BAHT_PER_KWH.toFixed(2),
      penaltyBahtPerMin: '0.00',
      penaltyDcFullBahtPerMin: '0.00',
    });
    const [pay] = await createChargers(t, admin, place, ['PAY-01']);
    await createChargers(t, admin, place, STORM);
    const sessions = await createChargers(t, admin, place, SESSIONS, { connectors: 1 });
    slowConnectorId = (await createChargers(t, admin, place, [SLOW], { connectors: 1, judjodId: 7 }))[0]!
      .connectorIds[0]!;
    const member = async () => {
      const user = await createUser(t, { type: 'mobile' });
      const signIn = await t.call('POST', '/api/member/login', {
        body: { email: user.email, pass: user.pass },
      });
      expect(signIn.status).toBe(200);
      return { user, token: signIn.body.accessToken as string, idTag: signIn.body.idTag as string };
    };
    for (let i = 0; i < PAYERS; i++) {
      const { user, token } = await member();
      const bookingIds: number[] = [];
      for (let j = 0; j < BOOKINGS_PER_PAYER; j++) {
        // Stopped, priced 100.00 (test/helpers/bookings.ts): waiting to be paid.
        const booking = await createBooking(t, pay!.connectorIds[j % 2]!, 'stopped', { userId: user.id });
        bookingIds.push(booking.id);
      }
      payers.push({ token, bookingIds });
    }
    for (const { id, connectorIds } of sessions) {
      const { token, idTag } = await member();
      const now = Date.now();
      const reserved = await t.call('POST', '/api/member/booking', {
        token,
        body: {
          connectorId: connectorIds[0],
          slotStart: new Date(now).toISOString(),
          slotEnd: new Date(now + 3_600_000).toISOString(),
        },
      });
      expect(reserved.status, JSON.stringify(reserved.body)).toBe(200);
      const bookingId = reserved.body.booking.id as number;
      const checkedIn = await t.call('POST', `/api/member/booking/${bookingId}/check-in`, { token });
      expect(checkedIn.status, JSON.stringify(checkedIn.body)).toBe(200);
      drivers.push({ token, idTag, chargerId: id, bookingId });
    }
  } finally {
    await t.close();
  }
  port = await freePort();
}, 120_000);

afterAll(async () => {
  await killServer(server);
  for (const charger of everyCharger) await charger.client.close({ force: true }).catch(() => undefined);
  await scratch?.drop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------------------
// A charger: a bare OCPP 1.6 client, recording how its sockets closed.

interface Charger {
  id: string;
  client: InstanceType<typeof RPCClient>;
  /** Every socket close, as the charger saw it. */
  closes: Array<{ code: number; reason: string }>;
  opens: number;
  /** The energy register (Wh): what a StopTransaction reports. */
  registerWh: number;
  transactionId: number | null;
  /** Calls that failed while the server was not stopping. */
  failures: string[];
}
const everyCharger: Charger[] = [];

function charger(id: string, options: { reconnect?: boolean } = {}): Charger {
  const client = new RPCClient({
    endpoint: `ws://127.0.0.1:${port}/ocpp`,
    identity: id,
    protocols: ['ocpp1.6'],
    strictMode: true,
    reconnect: options.reconnect ?? false,
    // A charger told 1012 comes back soon (the restarted server is up in a second or two).
    backoff: { initialDelay: 100, maxDelay: 500 },
    callTimeoutMs: 20_000,
  } as never);
  const created: Charger = {
    id,
    client,
    closes: [],
    opens: 0,
    registerWh: METER_START_WH,
    transactionId: null,
    failures: [],
  };
  client.on('disconnect', (event) => {
    const { code, reason } = event as { code: number; reason: string };
    created.closes.push({ code, reason: String(reason) });
  });
  client.on('open', () => {
    created.opens++;
  });
  everyCharger.push(created);
  return created;
}

/** The SLOW charger, booted, that never answers a DataTransfer (Open blocker): `asked` once one came. */
async function silentCharger(): Promise<{ slow: Charger; asked: () => boolean }> {
  const slow = charger(SLOW);
  let asked = false;
  slow.client.handle('DataTransfer', () => {
    asked = true;
    return new Promise<never>(() => {});
  });
  await boot(slow, 1);
  return { slow, asked: () => asked };
}

async function boot(c: Charger, connectorCount: number): Promise<void> {
  await c.client.connect();
  await c.client.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'Shutdown' });
  for (let n = 1; n <= connectorCount; n++) {
    await c.client.call('StatusNotification', {
      connectorId: n,
      errorCode: 'NoError',
      status: 'Available',
      timestamp: new Date().toISOString(),
    });
  }
}

/** Answers RemoteStartTransaction, then starts as a charger does: Preparing, StartTransaction, Charging. */
function acceptRemoteStart(c: Charger): void {
  const status = (s: string) =>
    c.client.call('StatusNotification', {
      connectorId: 1,
      errorCode: 'NoError',
      status: s,
      timestamp: new Date().toISOString(),
    });
  c.client.handle('RemoteStartTransaction', async ({ params }) => {
    const { idTag } = params as { idTag: string };
    setImmediate(async () => {
      try {
        await status('Preparing');
        const answer = (await c.client.call('StartTransaction', {
          connectorId: 1,
          idTag,
          meterStart: c.registerWh,
          timestamp: new Date().toISOString(),
        })) as { transactionId: number };
        c.transactionId = answer.transactionId;
        await status('Charging');
      } catch (error) {
        c.failures.push(`start: ${(error as Error).message}`);
      }
    });
    return { status: 'Accepted' };
  });
}

// ---------------------------------------------------------------------------------------------------------
// What the storm got acknowledged.

/** Booking id → the invoice number of its 2xx answer. */
const paid = new Map<number, string>();
/** `${chargerId}/${connector}` → the last StatusNotification answered. */
const statusAcked = new Map<string, { status: string; info: string }>();
/** Session charger → the register of the last MeterValues answered, and how many were. */
const meterAcked = new Map<string, { registerWh: number; count: number }>();
let sigtermSent = false;
/** Answers other than 2xx before the stop, and any that is neither 2xx nor 503 at all. */
const unexpected: string[] = [];
/** GET /api/ready after the SIGTERM, in order: the status, or 'refused'. */
const readiness: Array<number | 'refused'> = [];

async function payAll(payer: Payer): Promise<void> {
  for (const id of payer.bookingIds) {
    let status: number;
    let body: { invoiceNo?: string; message?: string } | null;
    try {
      const response = await fetch(`${server!.url}/api/member/booking/${id}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': payer.token },
        body: JSON.stringify({ method: 'credit', amount: 100 }),
      });
      status = response.status;
      body = (await response.json().catch(() => null)) as typeof body;
    } catch {
      // Refused or cut: the server is gone.
      if (!sigtermSent) unexpected.push(`pay ${id}: network error before the stop`);
      return;
    }
    if (status >= 200 && status < 300 && body?.invoiceNo) paid.set(id, body.invoiceNo);
    else if (status !== 503 || !sigtermSent) unexpected.push(`pay ${id}: ${status} ${JSON.stringify(body)}`);
  }
}

async function reportStatuses(c: Charger): Promise<void> {
  for (let n = 1; ; n++) {
    const connectorId = 1 + (n % 2);
    const status = STATUSES[n % STATUSES.length]!;
    const info = `${c.id}#${n}`;
    try {
      if (n % 4 === 0) await c.client.call('Heartbeat', {});
      await c.client.call('StatusNotification', {
        connectorId,
        errorCode: 'NoError',
        status,
        info,
        timestamp: new Date().toISOString(),
      });
    } catch (error) {
      if (!sigtermSent) c.failures.push((error as Error).message);
      return;
    }
    statusAcked.set(`${c.id}/${connectorId}`, { status, info });
  }
}

async function reportMeter(c: Charger): Promise<void> {
  // Stops at the first socket close: a reconnecting client would otherwise queue the call for the next server.
  while (c.closes.length === 0) {
    const registerWh = c.registerWh + WH_PER_READING;
    c.registerWh = registerWh;
    try {
      await c.client.call('MeterValues', {
        connectorId: 1,
        transactionId: c.transactionId,
        meterValue: [
          {
            timestamp: new Date().toISOString(),
            sampledValue: [
              { value: String(registerWh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
            ],
          },
        ],
      });
    } catch (error) {
      if (!sigtermSent) c.failures.push((error as Error).message);
      return;
    }
    const acked = meterAcked.get(c.id) ?? { registerWh: METER_START_WH, count: 0 };
    meterAcked.set(c.id, { registerWh, count: acked.count + 1 });
  }
}

async function probeReadiness(): Promise<void> {
  for (;;) {
    const response = await fetch(`${server!.url}/api/ready`).catch(() => null);
    readiness.push(response?.status ?? 'refused');
    if (!response) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const memberBooking = async (driver: Driver) => {
  const response = await fetch(`${server!.url}/api/member/booking/${driver.bookingId}`, {
    headers: { 'x-access-token': driver.token },
  });
  return ((await response.json()) as { booking: Record<string, unknown> }).booking;
};

// ---------------------------------------------------------------------------------------------------------

describe('SIGTERM while members pay and chargers report', () => {
  let storm: Charger[];
  let sessions: Charger[];

  it('exits 0 within 10 s, tells every charger 1012, and keeps everything it acknowledged', async () => {
    storm = STORM.map((id) => charger(id));
    sessions = SESSIONS.map((id) => charger(id, { reconnect: true }));
    server = await startServerProcess(port, dataEnv);
    for (const c of storm) await boot(c, 2);
    for (const c of sessions) {
      acceptRemoteStart(c);
      await boot(c, 1);
    }
    // A member's session charging on each session charger (RemoteStartTransaction → StartTransaction).
    for (const driver of drivers) {
      const started = await fetch(`${server.url}/api/member/booking/${driver.bookingId}/start`, {
        method: 'POST',
        headers: { 'x-access-token': driver.token },
      });
      expect(started.status, await started.text()).toBe(200);
      await eventually(async () => (await memberBooking(driver)).status === 'charging');
    }

    const storming = [...payers.map(payAll), ...storm.map(reportStatuses), ...sessions.map(reportMeter)];
    await eventually(
      async () =>
        paid.size >= (PAYERS * BOOKINGS_PER_PAYER) / 4 &&
        statusAcked.size === STORM.length * 2 &&
        SESSIONS.every((id) => (meterAcked.get(id)?.count ?? 0) >= 3),
    );
    sigtermSent = true;
    server.child.kill('SIGTERM');
    const probing = probeReadiness();
    const exit = await exitWithin(server, STOP_BOUND_MS);
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    await Promise.all([...storming, probing]);

    expect(unexpected).toEqual([]);
    for (const c of [...storm, ...sessions]) {
      expect(c.failures, c.id).toEqual([]);
      // The server's close frame, not a cut connection (1006).
      expect(c.closes[0], c.id).toEqual({ code: 1012, reason: 'Server restarting' });
    }
    // Out of rotation from the signal on: once not ready, never ready again, then refused.
    const firstNotReady = readiness.findIndex((status) => status !== 200);
    expect(firstNotReady).toBeGreaterThanOrEqual(0);
    expect(readiness.slice(firstNotReady).every((status) => status === 503 || status === 'refused')).toBe(
      true,
    );
    expect(readiness.at(-1)).toBe('refused');

    const database = await openData();
    try {
      const { db } = database;
      const allBookingIds = payers.flatMap((payer) => payer.bookingIds);
      // Every acknowledged payment exactly once, and none that was not acknowledged (no outcome went unsaid).
      const rows = await db
        .select({ bookingId: payments.bookingId, invoiceNo: payments.invoiceNo })
        .from(payments)
        .where(inArray(payments.bookingId, allBookingIds));
      expect(rows.map((row) => [row.bookingId, row.invoiceNo]).sort()).toEqual([...paid.entries()].sort());
      const states = await db
        .select({ id: bookings.id, status: bookings.status })
        .from(bookings)
        .where(inArray(bookings.id, allBookingIds));
      for (const { id, status } of states)
        expect(status, `booking ${id}`).toBe(paid.has(id) ? 'paid' : 'stopped');
      const pending = await db
        .select({ id: paymentOperations.id })
        .from(paymentOperations)
        .where(eq(paymentOperations.status, 'pending'));
      expect(pending).toEqual([]);
      // Invoice numbers gapless: 1…n in this (fresh) database.
      const numbers = (await db.select({ invoiceNo: payments.invoiceNo }).from(payments))
        .map((row) => Number(row.invoiceNo.split('-').at(-1)))
        .sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: paid.size }, (_, i) => i + 1));

      // The last status each connector got an answer for (they were batched in memory: flushed at the stop).
      const stored = await db
        .select({
          chargerId: connectors.chargerId,
          number: connectors.ocppConnectorId,
          status: connectors.status,
          info: connectors.statusInfo,
        })
        .from(connectors)
        .where(inArray(connectors.chargerId, STORM));
      expect(stored).toHaveLength(STORM.length * 2);
      for (const row of stored) {
        const acked = statusAcked.get(`${row.chargerId}/${row.number}`)!;
        expect({ status: row.status, info: row.info }, `${row.chargerId}/${row.number}`).toEqual({
          status: backOfficeStatus(acked.status),
          info: acked.info,
        });
      }
      // No charger is left marked as connected to the stopped process.
      const connected = await db.select({ id: chargers.id, node: chargers.connectedNode }).from(chargers);
      expect(connected.filter((row) => row.node !== null)).toEqual([]);

      // Every reading answered is stored once, and is the booking's energy so far.
      for (const c of sessions) {
        const acked = meterAcked.get(c.id)!;
        const [session] = await db
          .select({ lastMeterWh: chargingSessions.lastMeterWh })
          .from(chargingSessions)
          .where(eq(chargingSessions.id, c.transactionId!));
        expect(session!.lastMeterWh, c.id).toBe(acked.registerWh);
        const readings = await db
          .select({ id: meterValues.id })
          .from(meterValues)
          .where(eq(meterValues.sessionId, c.transactionId!));
        expect(readings, c.id).toHaveLength(acked.count);
        const [booking] = await db
          .select({ status: bookings.status, energyWh: bookings.energyWh })
          .from(bookings)
          .where(eq(bookings.sessionId, c.transactionId!));
        expect(booking, c.id).toEqual({ status: 'charging', energyWh: acked.registerWh - METER_START_WH });
      }
    } finally {
      await database.close();
    }
  }, 90_000);

  it('a charger in the middle of a session reconnects to the restarted server and ends it, priced', async () => {
    server = await startServerProcess(port, dataEnv);
    // Their reconnect loop finds the new server by itself.
    await eventually(async () => sessions.every((c) => c.opens >= 2), 20_000);
    for (const c of sessions) {
      await c.client.call('StopTransaction', {
        transactionId: c.transactionId,
        meterStop: c.registerWh,
        timestamp: new Date().toISOString(),
        reason: 'EVDisconnected',
      });
      for (const status of ['Finishing', 'Available']) {
        await c.client.call('StatusNotification', {
          connectorId: 1,
          errorCode: 'NoError',
          status,
          timestamp: new Date().toISOString(),
        });
      }
    }
    for (const [i, driver] of drivers.entries()) {
      const booking = await eventually(async () => {
        const current = await memberBooking(driver);
        return current.status === 'stopped' ? current : null;
      });
      // The charger's register at the stop, readings it sent after its last answer included.
      const kwh = (sessions[i]!.registerWh - METER_START_WH) / 1000;
      expect(booking).toMatchObject({
        status: 'stopped',
        totalEnergyKwh: kwh,
        priceByPower: kwh * BAHT_PER_KWH,
        priceByDuration: 0,
        priceByPenalty: 0,
        totalAmount: kwh * BAHT_PER_KWH,
      });
    }
    for (const c of sessions) await c.client.close({ code: 1000 });
  }, 60_000);

  it('cuts a charger that holds the stop (a command it never answers) and still exits 0 within 10 s', async () => {
    const { slow, asked } = await silentCharger();
    const idle = charger(STORM[0]!);
    await boot(idle, 2);
    // The staff's Open blocker waits for the charger's answer: a call of the server's in flight.
    const command = fetch(`${server!.url}/api/connector/${slowConnectorId}/open-blocker`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': admin },
      body: '{}',
    }).then(
      (response) => response.status,
      (error: Error) => `${error.message}: ${(error.cause as Error | undefined)?.message}`,
    );
    await eventually(async () => asked());

    server!.child.kill('SIGTERM');
    const exit = await exitWithin(server!, STOP_BOUND_MS);
    expect(exit, server!.output()).toEqual({ code: 0, signal: null });
    // The others are not held up by it, and the request waiting for it got an answer, not a reset.
    expect(idle.closes).toEqual([{ code: 1012, reason: 'Server restarting' }]);
    expect(slow.closes).toHaveLength(1);
    expect(slow.closes[0]!.code).toBe(1006);
    expect(await command).toBe(409);
  }, 60_000);

  it('a second signal during a slow stop exits at once', async () => {
    server = await startServerProcess(port, dataEnv);
    const { asked } = await silentCharger();
    void fetch(`${server.url}/api/connector/${slowConnectorId}/open-blocker`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': admin },
      body: '{}',
    }).catch(() => undefined);
    await eventually(async () => asked());

    server.child.kill('SIGTERM');
    // Stopping, held by the charger's unanswered command: readiness already says no.
    // (A pooled connection the stopping server closed as idle fails the probe: probe again.)
    await eventually(async () => (await fetch(`${server!.url}/api/ready`).catch(() => null))?.status === 503);
    server.child.kill('SIGINT');
    const exit = await exitWithin(server, STOP_BOUND_MS);
    expect(exit, server.output()).toEqual({ code: 1, signal: null });
    expect(server.output()).toContain('second signal: exiting at once');
  }, 60_000);
});
