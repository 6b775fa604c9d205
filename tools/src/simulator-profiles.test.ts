import { describe, expect, it } from 'vitest';
import {
  ChargingProfiles,
  limitAt,
  type SimulatedProfile,
  shareEqually,
  simulatedProfile,
} from './simulator-profiles.ts';

const T0 = Date.UTC(2027, 0, 20, 3, 0, 0);
const MIN = 60_000;

const profile = (
  over: Partial<SimulatedProfile> & Pick<SimulatedProfile, 'id' | 'purpose'>,
): SimulatedProfile => ({
  connectorId: 1,
  stackLevel: 0,
  kind: 'Absolute',
  schedule: { unit: 'W', periods: [{ startPeriod: 0, limit: 10_000 }] },
  receivedAt: T0,
  ...over,
});

describe('the profiles a simulated charger obeys', () => {
  it('are in force within their validity, from their schedule start, for its duration, by the period whose start passed', () => {
    const p = profile({
      id: 1,
      purpose: 'TxDefaultProfile',
      validTo: T0 + 60 * MIN,
      schedule: {
        startSchedule: T0 + 10 * MIN,
        duration: 30 * 60,
        unit: 'A',
        periods: [
          { startPeriod: 600, limit: 8, numberPhases: 1 },
          { startPeriod: 0, limit: 16 },
        ],
      },
    });
    expect([0, 10, 19, 20, 39, 40, 70].map((m) => limitAt(p, T0 + m * MIN, null))).toEqual([
      null,
      16 * 3 * 230,
      16 * 3 * 230,
      8 * 230,
      8 * 230,
      null,
      null,
    ]);
    // Recurring: the day's return of its start.
    const daily = profile({
      id: 2,
      purpose: 'TxDefaultProfile',
      kind: 'Recurring',
      recurrencyKind: 'Daily',
      schedule: {
        startSchedule: T0,
        unit: 'W',
        periods: [
          { startPeriod: 0, limit: 3_000 },
          { startPeriod: 3_600, limit: 7_000 },
        ],
      },
    });
    expect(limitAt(daily, T0 + 24 * 60 * MIN + 30 * MIN, null)).toBe(3_000);
    expect(limitAt(daily, T0 + 2 * 24 * 60 * MIN + 90 * MIN, null)).toBe(7_000);
    // Relative: from the transaction's start.
    const relative = profile({
      id: 3,
      purpose: 'TxProfile',
      kind: 'Relative',
      schedule: {
        unit: 'W',
        periods: [
          { startPeriod: 0, limit: 1 },
          { startPeriod: 60, limit: 2 },
        ],
      },
    });
    expect(limitAt(relative, T0 + 5 * MIN, { id: 7, startedAt: T0 + 4.5 * MIN })).toBe(1);
    expect(limitAt(relative, T0 + 5 * MIN, { id: 7, startedAt: T0 + 3 * MIN })).toBe(2);
  });

  it('compose: TxProfile of the transaction over TxDefaultProfile (the connector’s over connector 0’s), the highest stack level, under the max', () => {
    const store = new ChargingProfiles();
    const tx = { id: 42, startedAt: T0 };
    const at = T0 + MIN;
    const watts = (limit: number) => ({ unit: 'W' as const, periods: [{ startPeriod: 0, limit }] });
    store.install(profile({ id: 1, purpose: 'TxDefaultProfile', connectorId: 0, schedule: watts(9_000) }));
    expect(store.allowedW(2, at, tx)).toBe(9_000);
    store.install(profile({ id: 2, purpose: 'TxDefaultProfile', connectorId: 2, schedule: watts(12_000) }));
    expect(store.allowedW(2, at, tx)).toBe(12_000);
    store.install(
      profile({ id: 3, purpose: 'TxProfile', connectorId: 2, transactionId: 41, schedule: watts(1) }),
    );
    expect(store.allowedW(2, at, tx)).toBe(12_000);
    store.install(
      profile({ id: 4, purpose: 'TxProfile', connectorId: 2, transactionId: 42, schedule: watts(20_000) }),
    );
    store.install(
      profile({
        id: 5,
        purpose: 'TxProfile',
        connectorId: 2,
        transactionId: 42,
        stackLevel: 2,
        schedule: watts(5_000),
      }),
    );
    expect(store.allowedW(2, at, tx)).toBe(5_000);
    // Same connector, purpose and stack level: replaced.
    store.install(
      profile({
        id: 6,
        purpose: 'TxProfile',
        connectorId: 2,
        transactionId: 42,
        stackLevel: 2,
        schedule: watts(6_000),
      }),
    );
    expect(store.get(5)).toBeUndefined();
    expect(store.allowedW(2, at, tx)).toBe(6_000);
    store.install(
      profile({ id: 7, purpose: 'ChargePointMaxProfile', connectorId: 0, schedule: watts(4_000) }),
    );
    expect(store.allowedW(2, at, tx)).toBe(4_000);
    expect(store.allowedW(1, at, null)).toBe(4_000);
    // Together within the max: connector 1 wants 3,000 W, connector 2 up to 6,000 W.
    expect(
      store.deliveredW(at, [
        { demandW: 3_000, transaction: { id: 1, startedAt: T0 } },
        { demandW: 20_000, transaction: tx },
      ]),
    ).toEqual([2_000, 2_000]);
    store.remove(store.matching({ purpose: 'ChargePointMaxProfile' }));
    expect(
      store.deliveredW(at, [
        { demandW: 3_000, transaction: { id: 1, startedAt: T0 } },
        { demandW: 20_000, transaction: tx },
      ]),
    ).toEqual([3_000, 6_000]);
    store.endTransaction(2);
    expect(store.matching({ purpose: 'TxProfile' })).toEqual([]);
  });

  it('share a cap equally, the small wants met first', () => {
    expect(shareEqually([1_000, 5_000, 5_000], 20_000)).toEqual([1_000, 5_000, 5_000]);
    expect(shareEqually([1_000, 5_000, 5_000, 0], 7_000)).toEqual([1_000, 3_000, 3_000, 0]);
    expect(shareEqually([4_000, 4_000], 0)).toEqual([0, 0]);
  });

  it('are built alike from either wire: a 1.6 csChargingProfiles and a 2.0.1 chargingProfile give one SimulatedProfile', () => {
    const periods = [
      { startPeriod: 1_800, limit: 10, numberPhases: 1 },
      { startPeriod: 0, limit: 16 },
    ];
    const schedule = {
      startSchedule: '2027-01-20T03:10:00.000Z',
      duration: 7_200,
      chargingRateUnit: 'A' as const,
      chargingSchedulePeriod: periods,
    };
    const common = {
      stackLevel: 3,
      chargingProfileKind: 'Recurring' as const,
      recurrencyKind: 'Daily' as const,
      validFrom: '2027-01-20T03:00:00.000Z',
      validTo: '2027-01-21T03:00:00.000Z',
    };
    // 1.6: chargingProfileId, one chargingSchedule, on a connector; 2.0.1: id, a list of schedules, on an EVSE.
    const of16 = {
      ...common,
      chargingProfileId: 9,
      chargingProfilePurpose: 'TxDefaultProfile' as const,
      chargingSchedule: schedule,
    };
    const of201 = {
      ...common,
      id: 9,
      chargingProfilePurpose: 'TxDefaultProfile',
      chargingSchedule: [schedule],
    };
    const from16 = simulatedProfile(of16, {
      id: of16.chargingProfileId,
      connectorId: 2,
      purpose: of16.chargingProfilePurpose,
      schedule: of16.chargingSchedule,
      receivedAt: T0,
    });
    const from201 = simulatedProfile(of201, {
      id: of201.id,
      connectorId: 2,
      purpose: 'TxDefaultProfile',
      schedule: of201.chargingSchedule[0]!,
      receivedAt: T0,
    });
    const expected: SimulatedProfile = {
      id: 9,
      connectorId: 2,
      stackLevel: 3,
      purpose: 'TxDefaultProfile',
      kind: 'Recurring',
      recurrencyKind: 'Daily',
      validFrom: T0,
      validTo: T0 + 24 * 60 * MIN,
      // The periods as received (limitAt takes the last started, in any order).
      schedule: { startSchedule: T0 + 10 * MIN, duration: 7_200, unit: 'A', periods },
      receivedAt: T0,
    };
    expect(from16).toStrictEqual(expected);
    expect(from201).toStrictEqual(expected);
    expect(limitAt(from201, T0 + 45 * MIN, null)).toBe(10 * 230);

    // What a wire leaves out stays out (no undefined keys); each wire's transaction id keeps its type.
    const bare = {
      chargingRateUnit: 'W' as const,
      chargingSchedulePeriod: [{ startPeriod: 0, limit: 7_000 }],
    };
    const tx = (transactionId: number | string) =>
      simulatedProfile(
        { stackLevel: 0, chargingProfileKind: 'Absolute', validFrom: '', transactionId },
        { id: 4, connectorId: 1, purpose: 'TxProfile', schedule: bare, receivedAt: T0 },
      );
    const txExpected = (transactionId: number | string): SimulatedProfile => ({
      id: 4,
      connectorId: 1,
      stackLevel: 0,
      purpose: 'TxProfile',
      kind: 'Absolute',
      transactionId,
      schedule: { unit: 'W', periods: bare.chargingSchedulePeriod },
      receivedAt: T0,
    });
    expect(tx(42)).toStrictEqual(txExpected(42));
    expect(tx('tx-42')).toStrictEqual(txExpected('tx-42'));
    expect(tx(42)).not.toStrictEqual(txExpected('42'));
  });
});
