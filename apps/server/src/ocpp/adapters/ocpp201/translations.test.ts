import { describe, expect, it } from 'vitest';
import type { Db } from '../../../db/client.ts';
import { toOcpp201Command } from '../ocpp201-commands.ts';
import { KEY_MAP, variableKey, variableOf } from './device-model.ts';
import { chargingProfileOf } from './operations.ts';

const noDb = null as unknown as Db;

describe('1.6 keys and 2.0.1 variables', () => {
  it('maps the standard keys, and reads a variable written out', () => {
    expect(variableOf('MeterValueSampleInterval')).toEqual({
      component: 'SampledDataCtrlr',
      variable: 'TxUpdatedInterval',
    });
    expect(variableOf('TransactionMessageRetryInterval')).toEqual({
      component: 'OCPPCommCtrlr',
      variable: 'MessageAttemptInterval',
      variableInstance: 'TransactionEvent',
    });
    expect(variableOf('EVSE[a]@2:1.Power[x]#MaxSet')).toEqual({
      component: 'EVSE',
      componentInstance: 'a',
      evseId: 2,
      evseConnectorId: 1,
      variable: 'Power',
      variableInstance: 'x',
      attributeType: 'MaxSet',
    });
    for (const key of ['BlinkRepeat', 'LightIntensity', 'Nope.', '.Nope', 'A.B.C', `${'x'.repeat(51)}.Y`])
      expect(variableOf(key)).toBeNull();
  });

  it('names every mapped variable by a key that reads back to it', () => {
    for (const ref of Object.values(KEY_MAP)) expect(variableOf(variableKey(ref))).toEqual(ref);
  });

  it('answers an unmapped key NotSupported naming it, sending nothing', async () => {
    expect(
      await toOcpp201Command(noDb, 'X', 'ChangeConfiguration', { key: 'BlinkRepeat', value: '1' }),
    ).toEqual({
      unsupported: expect.stringContaining('no counterpart of the key BlinkRepeat'),
    });
    expect(await toOcpp201Command(noDb, 'X', 'GetConfiguration', { key: ['MinimumStatusDuration'] })).toEqual(
      {
        local: { configurationKey: [], unknownKey: ['MinimumStatusDuration'] },
      },
    );
  });
});

describe('charging profiles', () => {
  it("turns a 1.6 csChargingProfiles into 2.0.1's chargingProfile", () => {
    expect(
      chargingProfileOf(
        {
          chargingProfileId: 3,
          stackLevel: 0,
          chargingProfilePurpose: 'ChargePointMaxProfile',
          chargingProfileKind: 'Recurring',
          recurrencyKind: 'Daily',
          validFrom: '2026-01-01T00:00:00Z',
          chargingSchedule: {
            duration: 86400,
            startSchedule: '2026-01-01T00:00:00Z',
            chargingRateUnit: 'A',
            chargingSchedulePeriod: [{ startPeriod: 0, limit: 32, numberPhases: 3 }],
            minChargingRate: 6,
          },
        },
        undefined,
      ),
    ).toEqual({
      id: 3,
      stackLevel: 0,
      chargingProfilePurpose: 'ChargingStationMaxProfile',
      chargingProfileKind: 'Recurring',
      recurrencyKind: 'Daily',
      validFrom: '2026-01-01T00:00:00Z',
      chargingSchedule: [
        {
          id: 3,
          startSchedule: '2026-01-01T00:00:00Z',
          duration: 86400,
          chargingRateUnit: 'A',
          chargingSchedulePeriod: [{ startPeriod: 0, limit: 32, numberPhases: 3 }],
          minChargingRate: 6,
        },
      ],
    });
  });

  it('sends a TxProfile with the charger’s own transaction id', () => {
    const profile = chargingProfileOf(
      {
        chargingProfileId: 9,
        transactionId: 41,
        stackLevel: 1,
        chargingProfilePurpose: 'TxProfile',
        chargingProfileKind: 'Relative',
        chargingSchedule: {
          chargingRateUnit: 'W',
          chargingSchedulePeriod: [{ startPeriod: 0, limit: 7400 }],
        },
      },
      'tx-abc',
    );
    expect(profile).toMatchObject({ transactionId: 'tx-abc', chargingProfilePurpose: 'TxProfile' });
  });
});
