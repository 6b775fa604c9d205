import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, payments, type prices } from '../../src/db/schema/index.ts';
import { memberTag } from '../../src/modules/member/member.service.ts';
import { createMember } from '../helpers/bookings.ts';
import { createPrice, signedInUser } from '../helpers/factories.ts';
import { chargerPlace, eventually } from '../helpers/ocpp.ts';
import { bookingOfSession, sessionOfRef, station16, station201 } from '../helpers/ocpp201.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 33, acceptance: "the same session sent by a 1.6 charger and by a 2.0.1 charger is priced the same to
 * the satang". One script (plug in, start, readings, pauses, stop, unplug at given times) is played by a 1.6
 * charger and by two 2.0.1 chargers, one ending its transaction when charging stops and one only when the cable
 * is out (TxStopPoint), each on its own charger of the same plan; every money field of the three bookings and
 * their payments must be equal. All three are bare ocpp-rpc clients in strict mode.
 */
type Step =
  | { at: number; do: 'plug' }
  | { at: number; do: 'start'; wh: number }
  | { at: number; do: 'meter'; wh: number; soc?: number }
  | { at: number; do: 'suspend' | 'resume' }
  | { at: number; do: 'stop'; wh: number }
  | { at: number; do: 'unplug' };

let t: TestApp;
let admin: string;
let place: Awaited<ReturnType<typeof chargerPlace>>;
let chargers = 0;
const MINUTE = 60_000;
const SECOND = 1000;

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '2000' });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  place = await chargerPlace(t);
});
afterAll(() => t.close());

const nextId = (kind: string) => `TWIN-${kind}-${String(++chargers).padStart(2, '0')}`;
const memberTagOf = async () => memberTag(t.database.db, (await createMember(t)).id);

/** Plays the script on a 1.6 charger: StartTransaction, MeterValues, StatusNotification, StopTransaction. */
async function play16(where: typeof place, script: Step[], T: number): Promise<number> {
  const s = await station16(t, admin, where, nextId('16'), 1);
  const idTag = await memberTagOf();
  let transactionId = 0;
  for (const step of script) {
    const at = T + step.at;
    if (step.do === 'plug') await s.status('Preparing', at);
    if (step.do === 'start') transactionId = (await s.start(idTag, at, step.wh)).transactionId;
    if (step.do === 'meter') await s.meter(transactionId, at, step.wh, step.soc);
    if (step.do === 'suspend') await s.status('SuspendedEV', at);
    if (step.do === 'resume') await s.status('Charging', at);
    if (step.do === 'stop') {
      await s.stop(transactionId, at, step.wh, 'Local');
      await s.status('Finishing', at);
    }
    if (step.do === 'unplug') await s.status('Available', at);
  }
  await s.close();
  return transactionId;
}

/**
 * Plays the script on a 2.0.1 charger: TransactionEvent Started / Updated / Ended and StatusNotification.
 * `stopPoint` 'charging' ends the transaction when charging stops (the cable out is the connector's Available);
 * 'cable' ends it only when the cable is out (charging stops at the turn to EVConnected).
 */
async function play201(where: typeof place, script: Step[], T: number, stopPoint: 'charging' | 'cable') {
  const s = await station201(t, admin, where, nextId(stopPoint === 'charging' ? 'A' : 'B'), 1);
  const idToken = { idToken: await memberTagOf(), type: 'Central' };
  const ref = `${s.id}-tx`;
  let seqNo = 0;
  for (const step of script) {
    const at = T + step.at;
    const base = { at, seqNo: seqNo++ };
    if (step.do === 'plug') await s.status('Occupied', at);
    if (step.do === 'start') {
      await s.tx('Started', ref, {
        ...base,
        trigger: 'Authorized',
        state: 'Charging',
        evse: 1,
        idToken,
        wh: step.wh,
      });
    }
    if (step.do === 'meter') {
      await s.tx('Updated', ref, { ...base, trigger: 'MeterValuePeriodic', wh: step.wh, soc: step.soc });
    }
    if (step.do === 'suspend')
      await s.tx('Updated', ref, { ...base, trigger: 'ChargingStateChanged', state: 'SuspendedEV' });
    if (step.do === 'resume')
      await s.tx('Updated', ref, { ...base, trigger: 'ChargingStateChanged', state: 'Charging' });
    if (step.do === 'stop') {
      if (stopPoint === 'charging') {
        await s.tx('Ended', ref, {
          ...base,
          trigger: 'StopAuthorized',
          stoppedReason: 'Local',
          state: 'EVConnected',
          wh: step.wh,
        });
      } else {
        await s.tx('Updated', ref, { ...base, trigger: 'StopAuthorized', state: 'EVConnected', wh: step.wh });
      }
    }
    if (step.do === 'unplug') {
      if (stopPoint === 'cable') {
        await s.tx('Ended', ref, {
          ...base,
          trigger: 'EVCommunicationLost',
          stoppedReason: 'EVDisconnected',
          state: 'Idle',
        });
      }
      await s.status('Available', at);
    }
  }
  await s.close();
  return (await sessionOfRef(t, s.id, ref))!.id;
}

/** The booking of a session once priced, paid by staff for what it owes; its money fields and payment's. */
async function pricedAndPaid(sessionId: number) {
  const booking = await eventually(async () => {
    const row = await bookingOfSession(t, sessionId);
    return row?.status === 'stopped' ? row : null;
  });
  const paid = await t.call('POST', `/api/booking/${booking.id}/pay`, {
    token: admin,
    body: { amount: Number(booking.totalAmount) },
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  const [row] = await t.database.db.select().from(bookings).where(eq(bookings.id, booking.id));
  const [payment] = await t.database.db.select().from(payments).where(eq(payments.bookingId, booking.id));
  const detail = (await t.call('GET', `/api/booking/${booking.id}`, { token: admin })).body.booking;
  return {
    energyWh: row!.energyWh,
    startTime: row!.startTime?.toISOString(),
    stopTime: row!.stopTime?.toISOString(),
    avaliableAt: row!.avaliableAt?.toISOString(),
    fullAt: row!.fullAt?.toISOString() ?? null,
    priceByPower: row!.priceByPower,
    priceByDuration: row!.priceByDuration,
    priceByPenalty: row!.priceByPenalty,
    totalAmount: row!.totalAmount,
    priceDetail: row!.priceDetail,
    status: row!.status,
    // What the list and the report show: duration, energy, the parts, discount and total.
    shown: Object.fromEntries(
      Object.entries(detail as Record<string, unknown>).filter(([key]) =>
        /price|amount|energy|duration|penalty|overstay|full|discount|point|total/i.test(key),
      ),
    ),
    payment: {
      amount: payment!.amount,
      discountAmount: payment!.discountAmount,
      pointAmount: payment!.pointAmount,
      method: payment!.method,
    },
  };
}

/** Plays the script on the three chargers of a new plan; answers the three results, 1.6's first. */
async function twins(plan: Partial<typeof prices.$inferInsert>, script: Step[]) {
  const where = { ...place, price: await createPrice(t, plan) };
  const T = Date.now() - 3 * 60 * MINUTE;
  const v16 = await pricedAndPaid(await play16(where, script, T));
  const a = await pricedAndPaid(await play201(where, script, T, 'charging'));
  const b = await pricedAndPaid(await play201(where, script, T, 'cable'));
  expect(a).toEqual(v16);
  expect(b).toEqual(v16);
  return v16;
}

describe('the same session over 1.6 and 2.0.1 is priced the same to the satang', () => {
  it('an energy plan, with a pause and a reading in between', async () => {
    const priced = await twins(
      { method: 'KW', calculateMethod: 'BAHT_HRS', bahtPerKwh: '7.50', penaltyBahtPerMin: '2.00' },
      [
        { at: -MINUTE, do: 'plug' },
        { at: 0, do: 'start', wh: 10_000 },
        { at: 10 * MINUTE, do: 'meter', wh: 14_321 },
        { at: 15 * MINUTE, do: 'suspend' },
        { at: 17 * MINUTE, do: 'resume' },
        { at: 25 * MINUTE, do: 'meter', wh: 19_876 },
        { at: 30 * MINUTE, do: 'stop', wh: 21_234 },
        { at: 33 * MINUTE, do: 'unplug' },
      ],
    );
    // 11.234 kWh × 7.50 = 84.255 → 84.26 (half up, once); cable out within the allowance.
    expect(priced).toMatchObject({
      energyWh: 11_234,
      priceByPower: '84.26',
      priceByPenalty: '0.00',
      totalAmount: '84.26',
    });
  });

  it('a per-minute plan with an overstay', async () => {
    const priced = await twins(
      {
        method: 'HOUR',
        calculateMethod: 'BAHT_MIN',
        bahtPerKwh: '0',
        bahtPerHour: '90.00',
        penaltyBahtPerMin: '4.00',
      },
      [
        { at: 0, do: 'start', wh: 500 },
        { at: 12 * MINUTE + 30 * SECOND, do: 'meter', wh: 4_321 },
        { at: 47 * MINUTE + 13 * SECOND, do: 'stop', wh: 9_999 },
        { at: 61 * MINUTE + 40 * SECOND, do: 'unplug' },
      ],
    );
    // 47:13 → 48 started minutes × 1.50 = 72.00; 14:27 − 5:00 allowance → 10 started minutes × 4.00 = 40.00.
    expect(priced).toMatchObject({
      priceByDuration: '72.00',
      priceByPenalty: '40.00',
      totalAmount: '112.00',
    });
  });

  it('a DC charge stopped full (SoC 100), and one judged full by a pause lasting to the stop', async () => {
    const plan = {
      method: 'KW' as const,
      calculateMethod: 'BAHT_HRS' as const,
      bahtPerKwh: '6.25',
      penaltyBahtPerMin: '3.00',
      penaltyDcFullBahtPerMin: '5.00',
      penaltyDcFullDelayMin: 2,
    };
    const bySoc = await twins(plan, [
      { at: 0, do: 'start', wh: 1_000 },
      { at: 10 * MINUTE, do: 'meter', wh: 21_000, soc: 80 },
      { at: 20 * MINUTE, do: 'meter', wh: 27_777, soc: 100 },
      { at: 21 * MINUTE, do: 'suspend' },
      { at: 35 * MINUTE, do: 'stop', wh: 27_777 },
      { at: 47 * MINUTE, do: 'unplug' },
    ]);
    expect(bySoc.fullAt).not.toBeNull();
    // 26.777 kWh × 6.25 = 167.35625 → 167.36; full 15 min − 2 delay = 13 × 5.00 = 65.00; overstay 12 − 5 = 7 × 3.00.
    expect(bySoc).toMatchObject({ priceByPower: '167.36', priceByPenalty: '86.00', totalAmount: '253.36' });

    const byPause = await twins(plan, [
      { at: 0, do: 'start', wh: 2_000 },
      { at: 10 * MINUTE, do: 'meter', wh: 12_000 },
      { at: 20 * MINUTE, do: 'suspend' },
      { at: 35 * MINUTE, do: 'stop', wh: 12_000 },
      { at: 36 * MINUTE, do: 'unplug' },
    ]);
    expect(byPause.fullAt).not.toBeNull();
    expect(Number(byPause.priceByPenalty)).toBeGreaterThan(0);
  });
});
