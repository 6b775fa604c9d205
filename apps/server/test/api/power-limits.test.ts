import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargers, powerAllowances } from '../../src/db/schema/index.ts';
import {
  createChargerBrand,
  createLandlord,
  createMerchant,
  createPrice,
  signedInUser,
} from '../helpers/factories.ts';
import { ocppUrl } from '../helpers/ocpp.ts';
import {
  expectedShares,
  PowerStation,
  type SessionFacts,
  type SiteFacts,
  type StationSpec,
  writeSiteLimit,
} from '../helpers/power.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 34 §2, the server's power manager, end to end: raw OCPP chargers (bare ocpp-rpc clients; the 2.0.1 one
 * in strict mode) at sites with a limit start, suspend and stop sessions, refuse profiles and go offline, and
 * each must end up with the TxProfile that sharePower gives for the same inputs (read back from the database),
 * power_allowances saying the same. Every wait is for a condition; `app.power.settled()` then proves nothing
 * else was sent after it.
 */
let t: TestApp;
let admin: string;
let merchantId: number;
let priceId: number;
let ac: number;
let dc: number;
let nextConnector = 910_000;
const stations: PowerStation[] = [];

beforeAll(async () => {
  // A charger that never answers is given up on after 1 s (the others answer at once).
  t = await startTestApp({ OCPP_UNKNOWN_TAGS: 'accept', OCPP_COMMAND_TIMEOUT_MS: '1000' });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  merchantId = (await createMerchant(t)).id;
  priceId = (await createPrice(t)).id;
  ac = (await createChargerBrand(t, { powerType: 'AC', minPowerKw: '1.40' })).id;
  dc = (await createChargerBrand(t, { powerType: 'DC', minPowerKw: '10.00' })).id;
});
afterAll(async () => {
  for (const station of stations) await station.disconnect().catch(() => undefined);
  await t.close();
});

type Site = SiteFacts & { landlordId: number };

async function limitedSite(limitKw: number, phases: number | null, voltage: number | null): Promise<Site> {
  const site: Site = {
    landlordId: (await createLandlord(t, merchantId)).id,
    limitW: limitKw * 1000,
    phases,
    voltage,
  };
  await setLimit(site, site);
  return site;
}

/** A site's limit as staff would save it (straight to the database until the form has the fields). */
async function setLimit(site: Site, facts: SiteFacts | null): Promise<void> {
  await writeSiteLimit(t.database.db, site.landlordId, facts);
  if (facts) Object.assign(site, facts);
  t.app.power.siteChanged(site.landlordId);
}

/** Creates a charger through the API, and connects and boots it unless told not to. */
async function station(
  site: Site,
  id: string,
  spec: Partial<StationSpec> & { connectorsKw: number[] },
  connect = true,
): Promise<PowerStation> {
  const made = new PowerStation(
    {
      id,
      version: '1.6',
      landlordId: site.landlordId,
      merchantId,
      chargerBrandId: ac,
      priceId,
      firstConnectorId: nextConnector,
      ...spec,
    },
    ocppUrl(t),
  );
  nextConnector += 10;
  await made.create(t.call, admin);
  stations.push(made);
  if (connect) await made.connect();
  return made;
}

/** Polls `probe` (null: as wanted; else what is not) until it holds, or fails saying what did not. */
async function until(probe: () => Promise<string | null>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const wrong = await probe();
    if (wrong === null) return;
    if (Date.now() > deadline) throw new Error(wrong);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const rowsOf = (site: Site) =>
  t.database.db.select().from(powerAllowances).where(eq(powerAllowances.landlordId, site.landlordId));

interface Fixed extends SessionFacts {
  fullW: number;
  status: string;
}

/**
 * Waits until every steered session's charger holds the TxProfile sharePower gives it (with `fixed` counted at
 * full power), and power_allowances says the same; then, once the power work has settled, that it still does.
 */
async function converge(site: Site, steered: SessionFacts[], fixed: Fixed[] = []) {
  const fixedW = fixed.reduce((sum, one) => sum + one.fullW, 0);
  const expected = await expectedShares(t.database.db, site, steered, fixedW);
  const probe = async (): Promise<string | null> => {
    for (const e of expected) {
      const last = e.station.lastProfile('TxProfile', e.connector);
      const bound = e.ref ?? e.sessionId;
      if (last?.limit !== e.limit || last.transactionId !== bound)
        return `${e.station.id}/${e.connector}: last TxProfile ${JSON.stringify(last)}, wanted ${e.limit} on ${bound}`;
    }
    const rows = await rowsOf(site);
    for (const e of expected) {
      const row = rows.find((r) => r.chargingSessionId === e.sessionId);
      if (row?.allowanceW !== e.allowanceW || row.waiting !== e.waiting || row.profileStatus !== 'Accepted')
        return `allowance of session ${e.sessionId}: ${JSON.stringify(row)}, wanted ${e.allowanceW} W (waiting ${e.waiting})`;
    }
    for (const f of fixed) {
      const row = rows.find((r) => r.chargingSessionId === f.sessionId);
      if (row?.allowanceW !== f.fullW || row.profileStatus !== f.status)
        return `fixed session ${f.sessionId}: ${JSON.stringify(row)}, wanted ${f.fullW} W ${f.status}`;
    }
    if (rows.length !== expected.length + fixed.length) return `${rows.length} allowance rows`;
    return null;
  };
  await until(probe);
  await t.app.power.settled();
  expect(await probe()).toBeNull();
  // Never more than the limit, counting what could not be steered at its full power.
  const rows = await rowsOf(site);
  expect(rows.reduce((sum, row) => sum + row.allowanceW, 0)).toBeLessThanOrEqual(
    Math.max(site.limitW, fixedW),
  );
  return expected;
}

const sessionOf = async (s: PowerStation, connector: number): Promise<SessionFacts> => ({
  station: s,
  connector,
  ...(await s.start(t.database.db, connector)),
});

describe('a site of AC and DC chargers, 1.6 and 2.0.1, under 60 kW (3 phases, 230 V)', () => {
  let site: Site;
  let a16: PowerStation;
  let d16: PowerStation;
  let a201: PowerStation;

  beforeAll(async () => {
    site = await limitedSite(60, 3, 230);
    a16 = await station(site, 'PWR-A16', { connectorsKw: [22, 22] }, false);
    d16 = await station(site, 'PWR-D16', { connectorsKw: [50], chargerBrandId: dc }, false);
    a201 = await station(site, 'PWR-A201', { connectorsKw: [22], version: '2.0.1' }, false);
    // The DC charger's own limit (40 kW) caps its 50 kW connector.
    await t.database.db.update(chargers).set({ maxPowerKw: '40.00' }).where(eq(chargers.id, d16.id));
    t.app.power.chargerChanged(d16.id);
    d16.spec.connectorsKw = [40];
  });

  it('gives each charger its safe default at boot: a fair share of the limit per connector, on connector 0', async () => {
    for (const s of [a16, d16, a201]) await s.connect();
    // 60 kW over 4 connectors: 15 kW each, above both minima; AC in amperes per phase.
    const wanted = new Map([
      [a16, { unit: 'A', limit: 21.7 }],
      [d16, { unit: 'W', limit: 15_000 }],
      [a201, { unit: 'A', limit: 21.7 }],
    ]);
    await until(async () => {
      for (const [s, want] of wanted) {
        const last = s.lastProfile('TxDefaultProfile');
        if (last?.limit !== want.limit || last.unit !== want.unit || last.connector !== 0)
          return `${s.id}: default ${JSON.stringify(last)}`;
      }
      const rows = await t.database.db
        .select()
        .from(chargers)
        .where(eq(chargers.landlordId, site.landlordId));
      const unanswered = rows.filter((row) => row.defaultProfileStatus !== 'Accepted');
      return unanswered.length === 0 ? null : `defaults not Accepted: ${unanswered.map((row) => row.id)}`;
    });
    const frame = a16.received.findLast((r) => r.action === 'SetChargingProfile')!.params;
    expect(frame).toEqual({
      connectorId: 0,
      csChargingProfiles: {
        chargingProfileId: 34_000,
        stackLevel: 1,
        chargingProfilePurpose: 'TxDefaultProfile',
        chargingProfileKind: 'Relative',
        chargingSchedule: {
          chargingRateUnit: 'A',
          chargingSchedulePeriod: [{ startPeriod: 0, limit: 21.7, numberPhases: 3 }],
        },
      },
    });
  });

  it('shares the limit as sessions arrive, suspend, resume and leave, on both protocols', async () => {
    const first = await sessionOf(a16, 1);
    await converge(site, [first]);
    // Alone: its connector's 22 kW, as 31.8 A per phase, bound to its transaction on connector 1.
    const frame = a16.received.findLast((r) => r.action === 'SetChargingProfile')!.params;
    expect(frame).toEqual({
      connectorId: 1,
      csChargingProfiles: {
        chargingProfileId: 34_001,
        transactionId: first.sessionId,
        stackLevel: 1,
        chargingProfilePurpose: 'TxProfile',
        chargingProfileKind: 'Relative',
        chargingSchedule: {
          chargingRateUnit: 'A',
          chargingSchedulePeriod: [{ startPeriod: 0, limit: 31.8, numberPhases: 3 }],
        },
      },
    });

    const dcSession = await sessionOf(d16, 1);
    const two = await converge(site, [first, dcSession]);
    expect(two.map((e) => e.allowanceW)).toEqual([22_000, 38_000]);

    const v201 = await sessionOf(a201, 1);
    await converge(site, [first, dcSession, v201]);
    // The 2.0.1 charger's own frame: EVSE 1, its string transaction id, 2.0.1's schedule array.
    const frame201 = a201.received.findLast((r) => r.action === 'SetChargingProfile')!.params as {
      evseId: number;
      chargingProfile: Record<string, unknown>;
    };
    expect(frame201.evseId).toBe(1);
    expect(frame201.chargingProfile).toMatchObject({
      id: 34_001,
      stackLevel: 1,
      chargingProfilePurpose: 'TxProfile',
      chargingProfileKind: 'Relative',
      transactionId: v201.ref,
      chargingSchedule: [{ id: 34_001, chargingRateUnit: 'A' }],
    });

    const second = await sessionOf(a16, 2);
    const four = await converge(site, [first, dcSession, v201, second]);
    expect(four.reduce((sum, e) => sum + e.allowanceW, 0)).toBe(60_000);

    // Both AC cars suspend (1.6 StatusNotification, 2.0.1 TransactionEvent): they keep their minimum only.
    await a16.carState(1, 'SuspendedEV');
    await a201.carState(1, 'SuspendedEV', v201, 1);
    first.suspended = true;
    v201.suspended = true;
    const paused = await converge(site, [first, dcSession, v201, second]);
    expect(paused[0]!.allowanceW).toBe(4140);
    expect(paused[2]!.allowanceW).toBe(4140);
    await a16.carState(1, 'Charging');
    await a201.carState(1, 'Charging', v201, 2);
    first.suspended = false;
    v201.suspended = false;
    await converge(site, [first, dcSession, v201, second]);

    await d16.stop(dcSession);
    await converge(site, [first, v201, second]);
    await a201.stop(v201, 3);
    await converge(site, [first, second]);
    await a16.stop(first);
    await a16.stop(second);
    await until(async () => ((await rowsOf(site)).length === 0 ? null : 'allowances left'));
  });
});

describe('chargers that refuse their profile, have no smart charging, or never answer', () => {
  let site: Site;
  let k1: PowerStation;
  let k2: PowerStation;
  let refusing: PowerStation;
  let unable: PowerStation;
  let silent: PowerStation;

  beforeAll(async () => {
    // No phases: every charger is told watts.
    site = await limitedSite(30, null, null);
    k1 = await station(site, 'PWR-K1', { connectorsKw: [22] });
    k2 = await station(site, 'PWR-K2', { connectorsKw: [22] });
    refusing = await station(site, 'PWR-REJ', { connectorsKw: [22] });
    refusing.answer = { status: 'Rejected' };
    unable = await station(site, 'PWR-NOSC', { connectorsKw: [22] });
    unable.handlesProfiles = false;
    silent = await station(site, 'PWR-QUIET', { connectorsKw: [22] });
  });

  it('counts a refusing charger at full power, shares the rest, and never sends it another', async () => {
    const one = await sessionOf(k1, 1);
    await converge(site, [one]);
    expect(k1.lastProfile('TxProfile')?.unit).toBe('W');

    const rejected = await sessionOf(refusing, 1);
    // It was offered a share, said Rejected: from then on it counts at 22 kW, K1 gets the 8 kW left.
    const shares = await converge(site, [one], [{ ...rejected, fullW: 22_000, status: 'Rejected' }]);
    expect(shares[0]!.allowanceW).toBe(8000);
    expect(refusing.profiles('TxProfile')).toHaveLength(1);
    const detail = await t.call('GET', `/api/charger/${refusing.id}`, { token: admin });
    expect(detail.status).toBe(200);
    expect(detail.body.powerProfile).toEqual({ status: 'Rejected', at: expect.any(String) });

    // A newcomer whose minimum no longer fits waits at 0 (and is told so).
    const waiting = await sessionOf(k2, 1);
    const three = await converge(site, [one, waiting], [{ ...rejected, fullW: 22_000, status: 'Rejected' }]);
    expect(three.map((e) => [e.allowanceW, e.waiting])).toEqual([
      [8000, false],
      [0, true],
    ]);
    expect(k2.lastProfile('TxProfile')?.limit).toBe(0);
    expect(refusing.profiles('TxProfile')).toHaveLength(1);

    // The refusing session ends: the two share the whole limit.
    await refusing.stop(rejected);
    await converge(site, [one, waiting]);

    // No SetChargingProfile at all (CALLERROR NotImplemented): NotSupported, counted at full power too.
    const noSmart = await sessionOf(unable, 1);
    const last = await converge(
      site,
      [one, waiting],
      [{ ...noSmart, fullW: 22_000, status: 'NotSupported' }],
    );
    expect(last.map((e) => e.allowanceW)).toEqual([8000, 0]);
    const answers = await t.call('GET', `/api/charger/${unable.id}`, { token: admin });
    expect(answers.body.powerProfile.status).toBe('NotSupported');
    await unable.stop(noSmart);
    await converge(site, [one, waiting]);

    // No answer within the command timeout: Timeout, counted at full power as well.
    silent.answer = { silent: true };
    const quiet = await sessionOf(silent, 1);
    await converge(site, [one, waiting], [{ ...quiet, fullW: 22_000, status: 'Timeout' }]);
    expect(silent.profiles('TxProfile')).toHaveLength(1);
    for (const s of [one, waiting, quiet]) await s.station.stop(s);
  });
});

describe('an offline charger, edits of the limit and of a charger, the limit removed', () => {
  let site: Site;
  let f1: PowerStation;
  let f2: PowerStation;

  beforeAll(async () => {
    site = await limitedSite(40, null, null);
    f1 = await station(site, 'PWR-F1', { connectorsKw: [22] });
    f2 = await station(site, 'PWR-F2', { connectorsKw: [22] });
  });

  it('counts an offline charger at full power, re-shares when it is back, follows every edit', async () => {
    const one = await sessionOf(f1, 1);
    const two = await sessionOf(f2, 1);
    await converge(site, [one, two]);
    expect(f1.lastProfile('TxProfile')?.limit).toBe(20_000);

    // F2's connection drops mid-session: its car may draw its full 22 kW, F1 keeps under 40 kW with 18.
    await f2.disconnect();
    await converge(site, [one], [{ ...two, fullW: 22_000, status: 'Offline' }]);
    expect(f1.lastProfile('TxProfile')?.limit).toBe(18_000);

    // Back (a reconnect, no boot): it is steered again, and told its share anew.
    const before = f2.profiles('TxProfile').length;
    await f2.connect({ boot: false });
    await converge(site, [one, two]);
    expect(f2.profiles('TxProfile').length).toBe(before + 1);

    // The limit edited mid-session: new profiles, and new defaults (30 kW over 2 connectors).
    await setLimit(site, { limitW: 30_000, phases: null, voltage: null });
    await converge(site, [one, two]);
    expect([f1, f2].map((s) => s.lastProfile('TxProfile')?.limit)).toEqual([15_000, 15_000]);
    await until(async () =>
      [f1, f2].every((s) => s.lastProfile('TxDefaultProfile')?.limit === 15_000) ? null : 'defaults',
    );

    // F1's own limit set to 10 kW: it is capped there, F2 takes the rest.
    await t.database.db.update(chargers).set({ maxPowerKw: '10.00' }).where(eq(chargers.id, f1.id));
    t.app.power.chargerChanged(f1.id);
    f1.spec.connectorsKw = [10];
    const capped = await converge(site, [one, two]);
    expect(capped.map((e) => e.allowanceW)).toEqual([10_000, 20_000]);

    // The limit removed: our profiles are taken back, the allowances go.
    await setLimit(site, null);
    await until(async () => {
      for (const s of [f1, f2]) {
        const ids = s.cleared().map((params) => params.id);
        if (!ids.includes(34_000) || !ids.includes(34_001)) return `${s.id} cleared ${JSON.stringify(ids)}`;
      }
      const rows = await rowsOf(site);
      const held = await t.database.db
        .select()
        .from(chargers)
        .where(eq(chargers.landlordId, site.landlordId));
      if (rows.length > 0) return `${rows.length} allowances left`;
      return held.every((row) => row.defaultProfileStatus === null) ? null : 'default statuses left';
    });
    await t.app.power.settled();
    // Nothing more is sent to a site without a limit: sessions come and go without a profile.
    const sent = f1.received.length;
    await f1.stop(one);
    await f2.stop(two);
    await sessionOf(f1, 1);
    await t.app.power.settled();
    expect(f1.received.length).toBe(sent);
  });
});

describe('a tapering car gives what it does not draw to the others, and takes it back when it draws more', () => {
  let site: Site;
  let t1: PowerStation;
  let t2: PowerStation;

  beforeAll(async () => {
    site = await limitedSite(30, null, null);
    t1 = await station(site, 'PWR-T16', { connectorsKw: [22] });
    t2 = await station(site, 'PWR-T201', { connectorsKw: [22], version: '2.0.1' });
  });

  const usableOf = async (session: SessionFacts) =>
    (await rowsOf(site)).find((row) => row.chargingSessionId === session.sessionId)?.usableW;

  it('lowers a car drawing well under its allowance to its draw plus headroom, holds it there, releases it', async () => {
    const one = await sessionOf(t1, 1);
    const two = await sessionOf(t2, 1);
    expect((await converge(site, [one, two])).map((e) => e.allowanceW)).toEqual([15_000, 15_000]);

    // The 1.6 car tapers to 6 kW (reported after its charger took its 15 kW): it can use 6.9 → 7 kW, the
    // other car gets its connector's 22 kW.
    await t1.draws(1, one, 6000);
    one.usableW = 7000;
    expect((await converge(site, [one, two])).map((e) => e.allowanceW)).toEqual([7000, 22_000]);
    expect(await usableOf(one)).toBe(7000);

    // Still drawing 6 kW of its 7: held where it is, nothing sent again.
    const sent = t1.profiles('TxProfile').length;
    await t1.draws(1, one, 6000);
    await t1.draws(1, one, 5900);
    await converge(site, [one, two]);
    expect(t1.profiles('TxProfile')).toHaveLength(sent);

    // The 2.0.1 car tapers too (TransactionEvent meter value): both are lowered, the limit is not reached.
    await t2.draws(1, two, 10_000, 2);
    two.usableW = 11_500;
    expect((await converge(site, [one, two])).map((e) => e.allowanceW)).toEqual([7000, 11_500]);

    // The 1.6 car draws 6.5 kW of its 7 again (over 90 %): it may want more, and gets its share back.
    await t1.draws(1, one, 6500);
    one.usableW = undefined;
    expect((await converge(site, [one, two])).map((e) => e.allowanceW)).toEqual([18_500, 11_500]);
    expect(await usableOf(one)).toBeNull();
    await t1.stop(one);
    await t2.stop(two, 3);
  });
});

it('logged no failure of the power work', async () => {
  await t.app.power.settled();
  expect(t.logs()).not.toMatch(/"msg":"power: [^"]*failed/);
});
