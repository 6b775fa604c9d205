import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargingSessions, landlords, powerAllowances, powerSamples } from '../../src/db/schema/index.ts';
import { memberTag } from '../../src/modules/member/member.service.ts';
import { createMember } from '../helpers/bookings.ts';
import { createLandlord, signedInUser } from '../helpers/factories.ts';
import { chargerPlace } from '../helpers/ocpp.ts';
import { iso, sessionOfRef, station16, station201 } from '../helpers/ocpp201.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 34: the power samples of limited sites, from both protocols' meter values (raw ocpp-rpc chargers,
 * never our simulator), and the site's live load (GET /api/landlord/:id/power). The server is real, nothing
 * mocked; the power manager's allowances are written here directly (that part is another module's).
 */
let t: TestApp;
let admin: string;
type Place = Awaited<ReturnType<typeof chargerPlace>>;
/** A site with no limit, and one of 50 kW (3 phases, 230 V) in the same cluster. */
let open: Place;
let limited: Place;

const MINUTE = 60_000;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  open = await chargerPlace(t);
  const site = await createLandlord(t, open.merchant.id, { maxPowerKw: '50.00', phases: 3, voltage: 230 });
  limited = { ...open, site };
});
afterAll(() => t.close());

const idTag = async () => memberTag(t.database.db, (await createMember(t)).id);
const samplesOf = async (connectorId: number) => {
  await t.app.jobs.flushPowerSamples();
  return t.database.db
    .select({ landlordId: powerSamples.landlordId, at: powerSamples.at, powerW: powerSamples.powerW })
    .from(powerSamples)
    .where(eq(powerSamples.connectorId, connectorId))
    .orderBy(asc(powerSamples.at), asc(powerSamples.id));
};
/** The chart's kW in the minute of `time`. */
const kwAt = (points: Array<{ at: string; kw: number }>, time: number) =>
  points.find((point) => Date.parse(point.at) === Math.floor(time / MINUTE) * MINUTE)?.kw;
const power = (siteId: number, token = admin) => t.call('GET', `/api/landlord/${siteId}/power`, { token });

/** A 1.6 MeterValues with the energy register and, if given, Power.Active.Import in kW. */
const meter16 = (
  s: Awaited<ReturnType<typeof station16>>,
  transactionId: number,
  at: number,
  wh: number,
  kw?: number,
) =>
  s.call('MeterValues', {
    connectorId: 1,
    transactionId,
    meterValue: [
      {
        timestamp: iso(at),
        sampledValue: [
          { value: String(wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
          ...(kw === undefined ? [] : [{ value: String(kw), measurand: 'Power.Active.Import', unit: 'kW' }]),
        ],
      },
    ],
  });

describe('power samples and the live load of a limited site', () => {
  it('stores what both protocols report, sums it per minute with carry-forward, and lists the sessions', async () => {
    const s16 = await station16(t, admin, limited, 'PL16-01');
    const s201 = await station201(t, admin, limited, 'PL201-01');
    const T0 = Date.now() - 20 * MINUTE;

    // 1.6: Power.Active.Import (kW), then only the register: 1,100 Wh in 3 minutes is 22 kW.
    const { transactionId } = await s16.start(await idTag(), T0, 10_000);
    await meter16(s16, transactionId, T0 + 2 * MINUTE, 20_000, 7.4);
    await meter16(s16, transactionId, T0 + 5 * MINUTE, 21_100);

    // 2.0.1: the Started reading tells no power; an Updated with Power.Active.Import in W × 10³; then a
    // MeterValues with only the register (1,100 Wh in 3 minutes).
    const ref = 'a0c1f0e2-0000-4000-8000-000000000034';
    await s201.tx('Started', ref, {
      at: T0 + MINUTE,
      trigger: 'Authorized',
      seqNo: 0,
      state: 'Charging',
      evse: 1,
      idToken: { idToken: await idTag(), type: 'Central' },
      wh: 5_000,
    });
    await s201.call('TransactionEvent', {
      eventType: 'Updated',
      timestamp: iso(T0 + 4 * MINUTE),
      triggerReason: 'MeterValuePeriodic',
      seqNo: 1,
      transactionInfo: { transactionId: ref },
      meterValue: [
        {
          timestamp: iso(T0 + 4 * MINUTE),
          sampledValue: [
            { value: 7_000, measurand: 'Energy.Active.Import.Register', unitOfMeasure: { unit: 'Wh' } },
            { value: 11, measurand: 'Power.Active.Import', unitOfMeasure: { unit: 'W', multiplier: 3 } },
          ],
        },
      ],
    });
    await s201.call('MeterValues', {
      evseId: 1,
      meterValue: [
        {
          timestamp: iso(T0 + 7 * MINUTE),
          sampledValue: [{ value: 8_100, measurand: 'Energy.Active.Import.Register' }],
        },
      ],
    });

    const [c16] = s16.connectorIds;
    const [c201] = s201.connectorIds;
    const site = limited.site.id;
    expect(await samplesOf(c16!)).toEqual([
      { landlordId: site, at: new Date(T0 + 2 * MINUTE), powerW: 7_400 },
      { landlordId: site, at: new Date(T0 + 5 * MINUTE), powerW: 22_000 },
    ]);
    expect(await samplesOf(c201!)).toEqual([
      { landlordId: site, at: new Date(T0 + 4 * MINUTE), powerW: 11_000 },
      { landlordId: site, at: new Date(T0 + 7 * MINUTE), powerW: 22_000 },
    ]);

    // The power manager's decisions (modules/power), once its work has settled: the route shows each
    // session's row as it stands.
    const session201 = await sessionOfRef(t, s201.id, ref);
    await t.app.power.settled();
    const decided = new Map(
      (await t.database.db.select().from(powerAllowances).where(eq(powerAllowances.landlordId, site))).map(
        (row) => [row.connectorId, row],
      ),
    );
    const shown = (connectorId: number, sessionId: number) => {
      const row = decided.get(connectorId);
      expect(row?.chargingSessionId, `connector ${connectorId}'s decision`).toBe(sessionId);
      return {
        allowanceKw: row!.allowanceW / 1000,
        waiting: row!.waiting,
        profileStatus: row!.profileStatus,
      };
    };
    const live = await power(site);
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    expect(live.body).toMatchObject({ landlordId: site, maxPowerKw: 50, phases: 3, voltage: 230 });
    const points: Array<{ at: string; kw: number }> = live.body.points;
    expect(points).toHaveLength(60);
    const start = Date.parse(points[0]!.at);
    expect(points.map((point) => Date.parse(point.at))).toEqual(points.map((_, i) => start + i * MINUTE));
    expect(Date.now() - Date.parse(points.at(-1)!.at)).toBeLessThan(2 * MINUTE);
    const at = (k: number) => kwAt(points, T0 + k * MINUTE);
    expect([at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7), at(8), at(15)]).toEqual([
      0, 0, 7.4, 7.4, 18.4, 33, 33, 44, 44, 44,
    ]);
    expect(points.at(-1)!.kw).toBe(44);

    expect(live.body.sessions).toEqual([
      {
        connectorId: c16,
        chargerId: 'PL16-01',
        chargerNameEn: 'Charger PL16-01',
        connectorNameEn: `Connector ${c16}`,
        ocppConnectorId: 1,
        startedAt: iso(T0),
        powerKw: 22,
        ...shown(c16!, transactionId),
      },
      {
        connectorId: c201,
        chargerId: 'PL201-01',
        chargerNameEn: 'Charger PL201-01',
        connectorNameEn: `Connector ${c201}`,
        ocppConnectorId: 1,
        startedAt: session201!.startedAt.toISOString(),
        powerKw: 22,
        ...shown(c201!, session201!.id),
      },
    ]);

    // The 1.6 session ends: its connector draws 0 from then, and it leaves the sessions.
    await s16.stop(transactionId, T0 + 9 * MINUTE, 21_500);
    expect((await samplesOf(c16!)).at(-1)).toEqual({
      landlordId: site,
      at: new Date(T0 + 9 * MINUTE),
      powerW: 0,
    });
    const after = await power(site);
    const kwAfter = (k: number) => kwAt(after.body.points, T0 + k * MINUTE);
    expect([kwAfter(8), kwAfter(9), kwAfter(10), kwAfter(15)]).toEqual([44, 22, 22, 22]);
    expect(after.body.sessions.map((x: { connectorId: number }) => x.connectorId)).toEqual([c201]);

    await s16.close();
    await s201.close();
  });

  it('stores no sample for a site without a limit, and shows its sessions at full power', async () => {
    const s = await station16(t, admin, open, 'PN16-01');
    const T0 = Date.now() - 5 * MINUTE;
    const { transactionId } = await s.start(await idTag(), T0, 1_000);
    await meter16(s, transactionId, T0 + MINUTE, 2_000, 7.4);
    await meter16(s, transactionId, T0 + 2 * MINUTE, 3_000);
    expect(await samplesOf(s.connectorIds[0]!)).toEqual([]);

    const live = await power(open.site.id);
    expect(live.status).toBe(200);
    expect(live.body).toEqual({
      landlordId: open.site.id,
      maxPowerKw: null,
      phases: null,
      voltage: null,
      points: [],
      sessions: [
        expect.objectContaining({
          connectorId: s.connectorIds[0],
          allowanceKw: 60,
          powerKw: null,
          waiting: false,
          profileStatus: 'None',
        }),
      ],
    });

    // A limit set now (and said): the next readings are kept.
    await t.database.db.update(landlords).set({ maxPowerKw: '30.00' }).where(eq(landlords.id, open.site.id));
    t.app.power.siteChanged(open.site.id);
    await meter16(s, transactionId, T0 + 3 * MINUTE, 3_500, 11);
    expect(await samplesOf(s.connectorIds[0]!)).toEqual([
      { landlordId: open.site.id, at: new Date(T0 + 3 * MINUTE), powerW: 11_000 },
    ]);
    await t.database.db.update(landlords).set({ maxPowerKw: null }).where(eq(landlords.id, open.site.id));
    t.app.power.siteChanged(open.site.id);
    await s.stop(transactionId, T0 + 4 * MINUTE, 4_000);
    expect(await samplesOf(s.connectorIds[0]!)).toHaveLength(1);
    await s.close();
  });

  it('bounds the charger clock: a time ahead of ours is now, one over an hour old is an hour old', async () => {
    const s = await station16(t, admin, limited, 'PLCLOCK-01');
    const { transactionId } = await s.start(await idTag(), Date.now() - 3 * 60 * MINUTE, 1_000);
    const [connector] = s.connectorIds;

    let before = Date.now();
    await meter16(s, transactionId, Date.now() + 2 * 24 * 60 * MINUTE, 2_000, 5);
    let after = Date.now();
    const [future] = await samplesOf(connector!);
    expect(future!.powerW).toBe(5_000);
    expect(future!.at.getTime()).toBeGreaterThanOrEqual(before);
    expect(future!.at.getTime()).toBeLessThanOrEqual(after);

    before = Date.now();
    await meter16(s, transactionId, Date.now() - 2 * 60 * MINUTE, 3_000, 6);
    after = Date.now();
    const past = (await samplesOf(connector!)).find((x) => x.powerW === 6_000);
    expect(past!.at.getTime()).toBeGreaterThanOrEqual(before - 60 * MINUTE);
    expect(past!.at.getTime()).toBeLessThanOrEqual(after - 60 * MINUTE);

    await s.stop(transactionId, Date.now(), 3_000);
    await s.close();
  });

  it('prunes samples older than 3 hours', async () => {
    const s = await station16(t, admin, limited, 'PLPRUNE-01');
    const [connector] = s.connectorIds;
    const now = Date.now();
    await t.database.db.insert(powerSamples).values([
      {
        landlordId: limited.site.id,
        connectorId: connector!,
        at: new Date(now - 4 * 60 * MINUTE),
        powerW: 1,
      },
      {
        landlordId: limited.site.id,
        connectorId: connector!,
        at: new Date(now - 2 * 60 * MINUTE),
        powerW: 2,
      },
    ]);
    expect(await t.app.jobs.prunePowerSamples(now)).toBeGreaterThanOrEqual(1);
    expect((await samplesOf(connector!)).map((x) => x.powerW)).toEqual([2]);
    await t.app.jobs.prunePowerSamples(now + 2 * 60 * MINUTE);
    expect(await samplesOf(connector!)).toEqual([]);
    await s.close();
  });
});

describe('GET /api/landlord/:id/power: roles and scope as GET /api/landlord/:id', () => {
  it('answers the site user of that site, refuses another site user as the detail does, and 403 without the right', async () => {
    const site = limited.site.id;
    const own = (await signedInUser(t, { role: 'landlord', landlordId: site })).token;
    const other = (await signedInUser(t, { role: 'landlord', landlordId: open.site.id })).token;
    const merchant = (await signedInUser(t, { role: 'merchant', merchantId: open.merchant.id })).token;
    const marketting = (await signedInUser(t, { role: 'marketting' })).token;

    expect((await power(site, own)).status).toBe(200);
    expect((await power(site, merchant)).status).toBe(200);
    expect((await power(site, admin)).status).toBe(200);

    const refused = await power(site, other);
    const detail = await t.call('GET', `/api/landlord/${site}`, { token: other });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(detail.body);
    expect(refused.body).toEqual({ message: 'Landlord not found' });

    const forbidden = await power(site, marketting);
    expect(forbidden.status).toBe(403);
    expect((await t.call('GET', `/api/landlord/${site}`, { token: marketting })).status).toBe(403);

    expect((await t.call('GET', `/api/landlord/${site}/power`)).status).toBe(401);
    expect((await power(999_999)).status).toBe(404);
    expect((await power(999_999)).body).toEqual(
      (await t.call('GET', '/api/landlord/999999', { token: admin })).body,
    );
  });

  it('shows an active session before any sample and decision: powerKw null, the connector maximum, Pending', async () => {
    const s = await station16(t, admin, limited, 'PLNEW-01');
    const { transactionId } = await s.start(await idTag(), Date.now() - MINUTE, 1_000);
    // The manager's row made a row of no session (as one whose session is gone): not this session's decision.
    await t.app.power.settled();
    await t.database.db
      .update(powerAllowances)
      .set({ chargingSessionId: null, allowanceW: 0, waiting: true, profileStatus: 'Rejected' })
      .where(eq(powerAllowances.connectorId, s.connectorIds[0]!));
    const live = await power(limited.site.id);
    const mine = live.body.sessions.find((x: { chargerId: string }) => x.chargerId === 'PLNEW-01');
    expect(mine).toMatchObject({ powerKw: null, allowanceKw: 60, profileStatus: 'Pending', waiting: false });
    const [row] = await t.database.db
      .select({ status: chargingSessions.status })
      .from(chargingSessions)
      .where(eq(chargingSessions.id, transactionId));
    expect(row!.status).toBe('ACTIVE');
    await s.stop(transactionId, Date.now(), 1_000);
    await s.close();
  });
});
