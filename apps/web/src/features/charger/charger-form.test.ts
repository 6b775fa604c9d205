import type { Charger } from '@ev/shared';
import { describe, expect, it } from 'vitest';
import { chargerBodyOf, initialChargerValues } from './charger-form.ts';

const connector = {
  id: 10001,
  token: 'tok-1',
  nameEn: 'CCS2 A',
  nameTh: 'หัวชาร์จ CCS2 A',
  connectorTypeId: 4,
  connectorTypeName: 'CCS2',
  judjodId: null,
  maxPowerKw: 120,
  oldQr: null,
  priceId: 3,
  status: 'AVAILABLE',
  ocppConnectorId: 1,
  errorCode: 'NoError',
  statusAt: null,
};
const charger: Charger = {
  id: 'TH-MP-01',
  nameEn: 'Mall 01',
  nameTh: 'ห้าง 01',
  merchantId: 1,
  merchantNameEn: 'Metro',
  landlordId: 2,
  landlordNameEn: 'Siam',
  chargerBrandId: 5,
  chargerBrandName: 'ABB',
  powerType: 'DC',
  minPowerKw: 50,
  active: true,
  online: false,
  lastSeenAt: null,
  vendor: null,
  model: null,
  firmwareVersion: null,
  hasOcppPassword: true,
  ocppProtocol: '2.0.1',
  protocol: 'ocpp2.0.1',
  maxPowerKw: 44.5,
  connectors: [connector],
};
const BOTH = { cluster: true, site: true };

describe('chargerBodyOf', () => {
  it('sends the saved charger back unchanged, its connectors without the isNew flag', () => {
    const body = chargerBodyOf(initialChargerValues(charger), BOTH);
    expect(body).toEqual({
      id: 'TH-MP-01',
      nameEn: 'Mall 01',
      nameTh: 'ห้าง 01',
      merchantId: 1,
      landlordId: 2,
      chargerBrandId: 5,
      ocppProtocol: '2.0.1',
      maxPowerKw: 44.5,
      connectors: [
        {
          id: 10001,
          token: 'tok-1',
          nameEn: 'CCS2 A',
          nameTh: 'หัวชาร์จ CCS2 A',
          connectorTypeId: 4,
          judjodId: null,
          maxPowerKw: 120,
          oldQr: null,
          priceId: 3,
        },
      ],
    });
    expect('ocppPassword' in body).toBe(false);
  });

  it('strips isNew from added rows and turns empty optional values into null', () => {
    const values = initialChargerValues(charger);
    values.connectors?.push({ id: 7, token: 't', nameEn: 'n', nameTh: 'n', isNew: true, oldQr: '' });
    const rows = chargerBodyOf(values, BOTH).connectors;
    expect(rows[1]).toEqual({ id: 7, token: 't', nameEn: 'n', nameTh: 'n', judjodId: null, oldQr: null });
    expect(rows.some((row) => 'isNew' in row)).toBe(false);
  });

  it('sends a typed OCPP password, null when removal is ticked, nothing when left empty', () => {
    const values = initialChargerValues(charger);
    expect(chargerBodyOf({ ...values, ocppPassword: '' }, BOTH)).not.toHaveProperty('ocppPassword');
    expect(chargerBodyOf({ ...values, ocppPassword: 'x'.repeat(16) }, BOTH).ocppPassword).toBe(
      'x'.repeat(16),
    );
    expect(
      chargerBodyOf({ ...values, ocppPassword: 'ignored', removeOcppPassword: true }, BOTH).ocppPassword,
    ).toBeNull();
  });

  it('sends an emptied Max power as null (no limit), a typed one as it is', () => {
    const values = initialChargerValues(charger);
    expect(chargerBodyOf({ ...values, maxPowerKw: null }, BOTH).maxPowerKw).toBeNull();
    expect(chargerBodyOf({ ...values, maxPowerKw: undefined }, BOTH).maxPowerKw).toBeNull();
    expect(chargerBodyOf({ ...values, maxPowerKw: 12.345 }, BOTH).maxPowerKw).toBe(12.345);
  });

  it('leaves out the place fields a role does not have', () => {
    const values = initialChargerValues(charger);
    const siteOnly = chargerBodyOf(values, { cluster: false, site: true });
    expect(siteOnly).not.toHaveProperty('merchantId');
    expect(siteOnly.landlordId).toBe(2);
    const landlordUser = chargerBodyOf(values, { cluster: false, site: false });
    expect(landlordUser).not.toHaveProperty('merchantId');
    expect(landlordUser).not.toHaveProperty('landlordId');
  });

  it('starts a new charger with no connectors', () => {
    expect(initialChargerValues(undefined)).toEqual({ connectors: [], ocppProtocol: 'auto' });
  });
});
