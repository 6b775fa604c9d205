import { priceSession } from '@ev/shared';
import type { SimulatedCharger, SimulatorEvent } from '@ev/tools/simulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargingSessions } from '../../src/db/schema/index.ts';
import { TEST_PLAN } from '../helpers/bookings.ts';
import { createChargerBrand, createLandlord, createPrice, signedInUser } from '../helpers/factories.ts';
import { bookingIn, chargingBooking, signedInMember } from '../helpers/member-session.ts';
import { chargerPlace, createChargers, eventually, simulate } from '../helpers/ocpp.ts';
import { writeSiteLimit } from '../helpers/power.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 34's "Pricing is unchanged by profiles": a session priced by energy pays for what it got. A member
 * charges on the real simulator at a site limited to 5 kW (no phases: the profiles are in watts), on a 22 kW AC
 * connector whose car would draw 17 kW; another member charges at the same time on the same kind of connector at
 * a site without a limit. The simulator delivers by its own model (no `addWh`): within its profiles, its register
 * is what the server bills. Both bookings must be priced at 8.00 baht per kWh of what their charger's register
 * says it delivered, the limited one's energy within 5 kW × its charging time (the charger's clock).
 */
const ALLOWANCE_W = 5000;
const CONNECTOR_KW = 22;
/** Each session's draw is 0.6 + 0.5 × 0.35 = 77.5 % of its connector's 22 kW: 17.05 kW. */
const DRAW = 0.5;
/** How much the limited session delivers before it stops (Wh): a few seconds at 5 kW. */
const TARGET_WH = 5;
/** The price as the booking took it: 8.00 baht per kWh, nothing by time, no penalty. */
const PLAN = { ...TEST_PLAN, bahtPerKwh: 8, penaltyBahtPerMin: 0 };

let t: TestApp;
let admin: string;
let simulation: Awaited<ReturnType<typeof simulate>>;
let limited: SimulatedCharger;
let free: SimulatedCharger;
const connectorOf = new Map<SimulatedCharger, number>();
const seen: SimulatorEvent[] = [];

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '2000' });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  // Both sites of one merchant, an AC brand, 8.00 baht per kWh (nothing by time, no penalty).
  const limitedPlace = {
    ...(await chargerPlace(t)),
    brand: await createChargerBrand(t, { powerType: 'AC', minPowerKw: '1.40' }),
    price: await createPrice(t, { method: 'KW', bahtPerKwh: '8.00' }),
  };
  const freePlace = { ...limitedPlace, site: await createLandlord(t, limitedPlace.merchant.id) };
  // The limit is there before the chargers connect: the limited one boots into its safe default.
  await writeSiteLimit(t.database.db, limitedPlace.site.id, {
    limitW: ALLOWANCE_W,
    phases: null,
    voltage: null,
  });
  t.app.power.siteChanged(limitedPlace.site.id);
  // One 22 kW Type 2 connector each (our connector id answered).
  const connectorAt = async (place: typeof limitedPlace, id: string) =>
    (
      await createChargers(t, admin, place, [id], {
        connectors: 1,
        maxPowerKw: CONNECTOR_KW,
        connectorTypeId: 2,
      })
    )[0]!.connectorIds[0]!;
  const limitedConnector = await connectorAt(limitedPlace, 'PRICE-LIMITED');
  const freeConnector = await connectorAt(freePlace, 'PRICE-FREE');
  const spec = { connectors: 1, maxPowerKw: [CONNECTOR_KW], powerType: 'AC' as const };
  simulation = await simulate(
    t,
    [
      { id: 'PRICE-LIMITED', ...spec },
      { id: 'PRICE-FREE', ...spec },
    ],
    {
      random: () => DRAW,
      onEvent: (event) => seen.push(event),
    },
  );
  [limited, free] = simulation.chargers as [SimulatedCharger, SimulatedCharger];
  connectorOf.set(limited, limitedConnector).set(free, freeConnector);
});
afterAll(async () => {
  await simulation?.stop();
  await t.close();
});

/** The simulator's own state of its connector 1: its register (Wh), its transaction and when it was counted to. */
const stateOf = (charger: SimulatedCharger) => charger.connectorStates[0]!;

/** The TxProfile the charger holds for its running transaction, once it has one. */
const txProfileOf = (charger: SimulatedCharger) => {
  const { transactionId } = stateOf(charger);
  if (transactionId === null) return undefined;
  return charger.chargingProfiles
    .list()
    .find(
      (p) =>
        p.purpose === 'TxProfile' && p.connectorId === 1 && String(p.transactionId) === String(transactionId),
    );
};

const profilesSentTo = (id: string) =>
  seen.filter(
    (event) => event.type === 'command' && event.id === id && event.action === 'SetChargingProfile',
  );

describe('a session priced by energy at a site whose limit bites', () => {
  it("pays 8.00 baht per kWh of what the charger's register says it delivered, within the limit", async () => {
    // The limited charger booted into its safe default (the whole 5 kW: one connector on the site); the other
    // site has no limit, and its charger is never sent a profile.
    await eventually(async () => limited.allowedW(1) === ALLOWANCE_W);
    await t.app.power.settled();
    expect(free.allowedW(1)).toBe(Number.POSITIVE_INFINITY);

    const meterStart = new Map([limited, free].map((c) => [c, stateOf(c).meterWh]));
    const bookingOf = new Map<SimulatedCharger, number>();
    for (const charger of [limited, free])
      bookingOf.set(
        charger,
        await chargingBooking(t, admin, await signedInMember(t), connectorOf.get(charger)!),
      );

    // The server shares the site's 5 kW with the only session there: the charger holds a TxProfile of 5,000 W
    // bound to its transaction, and delivers that much of the 17.05 kW its car would draw.
    const txProfile = await eventually(async () => txProfileOf(limited));
    await eventually(async () => [limited, free].every((c) => stateOf(c).status === 'Charging'));
    await t.app.power.settled();
    expect(txProfile.schedule).toMatchObject({
      unit: 'W',
      periods: [{ startPeriod: 0, limit: ALLOWANCE_W }],
    });
    expect(limited.allowedW(1)).toBe(ALLOWANCE_W);
    expect(limited.demandKw(1) * 1000).toBeGreaterThan(3 * ALLOWANCE_W);
    expect(limited.powerKw(1) * 1000).toBe(ALLOWANCE_W);
    expect(free.powerKw(1)).toBe(limited.demandKw(1));

    // Readings by the simulator's own model, both chargers side by side: each waits for its register to move.
    const deliveredWh = (charger: SimulatedCharger) => stateOf(charger).meterWh - meterStart.get(charger)!;
    while (deliveredWh(limited) < TARGET_WH) {
      await limited.sendMeterValue(1);
      await free.sendMeterValue(1);
    }
    const sessions = [limited, free].map((charger) => {
      const state = stateOf(charger);
      // Charging time on the charger's clock: from its start to the last reading's count.
      const hours = (state.countedTo! - state.startedAt!) / 3_600_000;
      const wh = deliveredWh(charger);
      return { charger, wh, hours, meanW: wh / hours, id: bookingOf.get(charger)! };
    });
    for (const { charger, id } of sessions) {
      await charger.stopCharging(1, 'EVDisconnected');
      await bookingIn(t.call, admin, id, 'charged');
      await charger.unplug(1);
    }

    const [capped, open] = sessions as [(typeof sessions)[0], (typeof sessions)[0]];
    // Within what the limit allowed over the charging time (a whole Wh register: at most 5,000 W × the time, but
    // for float noise); the car without a limit drew more than the allowance in the same time.
    expect(capped.wh).toBeLessThanOrEqual(ALLOWANCE_W * capped.hours + 1e-9);
    expect(open.meanW).toBeGreaterThan(ALLOWANCE_W);
    expect(profilesSentTo('PRICE-FREE')).toEqual([]);

    for (const { charger, wh, hours, meanW, id } of sessions) {
      const { booking } = await bookingIn(t.call, admin, id, 'stopped');
      // The booking's energy is the register's: the meterStart and meterStop the charger sent, their difference.
      const [session] = await t.database.db
        .select({ start: chargingSessions.meterStartWh, stop: chargingSessions.meterStopWh })
        .from(chargingSessions)
        .where(eq(chargingSessions.chargerId, charger.spec.id));
      expect(session).toEqual({ start: meterStart.get(charger), stop: stateOf(charger).meterWh });
      expect(booking.totalEnergyKwh).toBe(wh / 1000);
      // Priced by the one pricing function: 800 satang per kWh of it, rounded half up to the satang.
      const expected = priceSession(PLAN, {
        startTime: Date.parse(booking.startTime),
        stopTime: Date.parse(booking.stopTime),
        avaliableAt: Date.parse(booking.avaliableAt),
        fullAt: null,
        energyWh: wh,
        connectorTypeId: 2,
      }).computed.byPower;
      expect(expected).toBe(Math.round((wh * 800) / 1000));
      expect(booking).toMatchObject({ priceByPower: expected / 100, priceByDuration: 0, priceByPenalty: 0 });
      console.info(
        `${charger.spec.id}: ${wh} Wh in ${(hours * 3600).toFixed(2)} s, mean ${Math.round(meanW)} W; ` +
          `booking ${booking.totalEnergyKwh} kWh, ${booking.priceByPower} baht`,
      );
    }
  });
});

it('logged no failure of the power work', async () => {
  await t.app.power.settled();
  expect(t.logs()).not.toMatch(/"msg":"power: [^"]*failed/);
});
