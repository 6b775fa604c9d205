import { ID_RANGE_MESSAGE } from '@ev/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChargerBrand,
  createLandlord,
  createMerchant,
  createParty,
  createPrice,
  createUser,
  signedInUser,
} from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Ids are PostgreSQL `integer` columns (at most 2,147,483,647) while JSON and the query string carry any
 * integer up to 2^53 - 1. Such an id used to reach the database and come back as a 500 (SQLSTATE 22003).
 * A path id out of range names a record that cannot exist: 404 with the area's not-found message. A query
 * filter or a body field out of range is a 400 naming the field.
 */
const OUT_OF_RANGE = [2_147_483_648, Number.MAX_SAFE_INTEGER];

let t: TestApp;
let admin: string;
let merchant: { id: number };
let site: { id: number };
let group: { id: number };
let brand: { id: number };
let price: { id: number };
let staffUser: { id: number };

beforeAll(async () => {
  t = await startTestApp({ BATCH_COMMAND_TOKEN: 'batch-token-for-tests-0123456789' });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  merchant = await createMerchant(t);
  site = await createLandlord(t, merchant.id);
  group = await createParty(t, [site.id]);
  brand = await createChargerBrand(t);
  price = await createPrice(t);
  staffUser = await createUser(t, { role: 'merchant', merchantId: merchant.id });
  const charger = await t.call('POST', '/api/charger', {
    token: admin,
    body: chargerForm('RANGE-01', 61_001),
  });
  expect(charger.status).toBe(200);
});
afterAll(() => t.close());

const merchantForm = () => ({ nameEn: 'Range Cluster', nameTh: 'คลัสเตอร์', internal: false, provinceId: 1 });
const landlordForm = () => ({
  merchantId: merchant.id,
  nameEn: 'Range Site',
  nameTh: 'สถานี',
  latitude: 13.75,
  longitude: 100.5,
  businessHoursType: '24H',
  provinceId: 1,
});
const partyForm = () => ({ nameEn: 'Range Group', nameTh: 'กลุ่ม', landlordIds: [site.id] });
const chargerForm = (id: string, connectorId: number) => ({
  id,
  nameEn: 'Range charger',
  nameTh: 'เครื่องชาร์จ',
  merchantId: merchant.id,
  landlordId: site.id,
  chargerBrandId: brand.id,
  connectors: [
    {
      id: connectorId,
      token: `token-${connectorId}`,
      nameEn: 'Connector',
      nameTh: 'หัวชาร์จ',
      connectorTypeId: 4,
      judjodId: 5,
      maxPowerKw: 50,
      oldQr: null,
      priceId: price.id,
    },
  ],
});
const adminUserForm = (role: 'landlord' | 'party') => ({
  type: 'admin',
  email: `range-${role}@example.com`,
  firstName: 'Range',
  lastName: 'User',
  adminRole: role,
  ...(role === 'landlord' ? { merchantId: merchant.id, landlordId: site.id } : { partyId: group.id }),
});

/** Sets `value` at a dotted path ('connectors.0.priceId') of a copy of `body`. */
function withValue(body: Record<string, unknown>, path: string, value: unknown) {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let node: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys.at(-1)!] = value;
  return copy;
}

describe('a path id beyond the integer column', () => {
  const cases: Array<[method: string, path: string, notFound: string, body?: () => unknown]> = [
    ['GET', '/api/merchant/{id}', 'Merchant not found'],
    ['PATCH', '/api/merchant/{id}', 'Merchant not found', () => ({ active: true })],
    ['DELETE', '/api/merchant/{id}', 'Merchant not found'],
    ['GET', '/api/landlord/{id}', 'Landlord not found'],
    ['PATCH', '/api/landlord/{id}', 'Landlord not found', () => ({ active: true })],
    ['DELETE', '/api/landlord/{id}', 'Landlord not found'],
    ['GET', '/api/party/{id}', 'Party not found'],
    ['PATCH', '/api/party/{id}', 'Party not found', () => ({ active: true })],
    ['DELETE', '/api/party/{id}', 'Party not found'],
    ['GET', '/api/price/{id}', 'Price not found'],
    ['PATCH', '/api/price/{id}', 'Price not found', () => ({ active: true })],
    ['DELETE', '/api/price/{id}', 'Price not found'],
    ['GET', '/api/charger-brand/{id}', 'Charger brand not found'],
    ['PATCH', '/api/charger-brand/{id}', 'Charger brand not found', () => ({ active: true })],
    ['DELETE', '/api/charger-brand/{id}', 'Charger brand not found'],
    ['PATCH', '/api/user/{id}', 'User not found', () => adminUserForm('party')],
    ['DELETE', '/api/user/{id}', 'User not found'],
    ['GET', '/api/charger/batch/jobs/{id}/csv', 'Batch job not found'],
    ['POST', '/api/connector/{id}/open-blocker', 'Connector not found'],
    ['POST', '/api/connector/{id}/close-blocker', 'Connector not found'],
  ];

  it.each(cases)('%s %s answers 404 with the area message', async (method, path, notFound, body) => {
    for (const id of [...OUT_OF_RANGE.map(String), '100000000000000000000']) {
      const url = path.replace('{id}', id);
      const response = await t.call(method, url, { token: admin, body: body?.() });
      expect(response.status, `${method} ${url}`).toBe(404);
      expect(response.body).toEqual({ message: notFound });
    }
  });

  it('still answers 400 to a path id that is not a positive whole number', async () => {
    for (const id of ['0', '-1', '1.5', 'abc']) {
      const response = await t.call('GET', `/api/merchant/${id}`, { token: admin });
      expect(response.status, id).toBe(400);
      expect(response.body.message).toMatch(/^params\.id: /);
    }
  });
});

describe('a query filter id beyond the integer column', () => {
  const cases: Array<[path: string, field: string]> = [
    ['/api/merchant', 'merchantId'],
    ['/api/merchant', 'landlordId'],
    ['/api/merchant?mode=dropdown', 'merchantId'],
    ['/api/merchant?mode=xlsx', 'landlordId'],
    ['/api/landlord', 'merchantId'],
    ['/api/landlord', 'landlordId'],
    ['/api/landlord?mode=dropdown', 'merchantId'],
    ['/api/party', 'landlordId'],
    ['/api/charger', 'merchantId'],
    ['/api/charger', 'landlordId'],
    ['/api/charger', 'chargerBrandId'],
    ['/api/charger', 'connectorId'],
    ['/api/charger?mode=dropdown', 'landlordId'],
    ['/api/user?admin=true', 'merchantId'],
    ['/api/user?admin=true', 'partyId'],
    ['/api/user?admin=true', 'landlordId'],
  ];

  it.each(cases)('%s ?%s answers 400 naming the filter', async (path, field) => {
    const join = path.includes('?') ? '&' : '?';
    for (const id of OUT_OF_RANGE) {
      const single = await t.call('GET', `${path}${join}${field}=${id}`, { token: admin });
      expect(single.status, `${field}=${id}`).toBe(400);
      expect(single.body).toEqual({ message: `querystring.${field}: ${ID_RANGE_MESSAGE}` });
      if (field === 'connectorId') continue;
      const repeated = await t.call('GET', `${path}${join}${field}=1&${field}=${id}`, { token: admin });
      expect(repeated.status, `${field}=1&${field}=${id}`).toBe(400);
      expect(repeated.body).toEqual({ message: `querystring.${field}.1: ${ID_RANGE_MESSAGE}` });
    }
  });

  it('takes a page far beyond the rows as an empty page (OFFSET is bigint: never a 500)', async () => {
    for (const path of ['/api/merchant', '/api/price', '/api/charger', '/api/charger/batch/jobs']) {
      for (const page of OUT_OF_RANGE) {
        const response = await t.call('GET', `${path}?page=${page}&size=100`, { token: admin });
        expect(response.status, `${path}?page=${page}`).toBe(200);
        expect(response.body.total).toBeGreaterThanOrEqual(0);
      }
    }
  });
});

describe('a body id beyond the integer column', () => {
  const cases: Array<[method: string, path: string, field: string, body: () => Record<string, unknown>]> = [
    ['POST', '/api/merchant', 'provinceId', merchantForm],
    ['PATCH', '/api/merchant/{merchant}', 'provinceId', merchantForm],
    ['POST', '/api/landlord', 'merchantId', landlordForm],
    ['POST', '/api/landlord', 'provinceId', landlordForm],
    ['PATCH', '/api/landlord/{site}', 'provinceId', landlordForm],
    ['POST', '/api/party', 'landlordIds.0', partyForm],
    ['PATCH', '/api/party/{group}', 'landlordIds.0', partyForm],
    ['POST', '/api/charger', 'merchantId', () => chargerForm('RANGE-02', 61_002)],
    ['POST', '/api/charger', 'landlordId', () => chargerForm('RANGE-02', 61_002)],
    ['POST', '/api/charger', 'chargerBrandId', () => chargerForm('RANGE-02', 61_002)],
    ['POST', '/api/charger', 'connectors.0.id', () => chargerForm('RANGE-02', 61_002)],
    ['POST', '/api/charger', 'connectors.0.connectorTypeId', () => chargerForm('RANGE-02', 61_002)],
    ['POST', '/api/charger', 'connectors.0.judjodId', () => chargerForm('RANGE-02', 61_002)],
    ['POST', '/api/charger', 'connectors.0.priceId', () => chargerForm('RANGE-02', 61_002)],
    ['PATCH', '/api/charger/RANGE-01', 'chargerBrandId', () => chargerForm('RANGE-01', 61_001)],
    ['PATCH', '/api/charger/RANGE-01', 'connectors.0.priceId', () => chargerForm('RANGE-01', 61_001)],
    ['POST', '/api/user', 'merchantId', () => adminUserForm('landlord')],
    ['POST', '/api/user', 'landlordId', () => adminUserForm('landlord')],
    ['POST', '/api/user', 'partyId', () => adminUserForm('party')],
    ['PATCH', '/api/user/{staffUser}', 'partyId', () => adminUserForm('party')],
    ['POST', '/api/user/self/term-accept', 'termsId', () => ({ termsId: null, privacyId: null })],
    ['POST', '/api/user/self/term-accept', 'privacyId', () => ({ termsId: null, privacyId: null })],
  ];
  const ids = () => ({ merchant: merchant.id, site: site.id, group: group.id, staffUser: staffUser.id });

  it.each(cases)('%s %s: %s answers 400 naming the field', async (method, path, field, body) => {
    const url = path.replace(/\{(\w+)\}/, (_, name: keyof ReturnType<typeof ids>) => String(ids()[name]));
    for (const id of OUT_OF_RANGE) {
      const response = await t.call(method, url, { token: admin, body: withValue(body(), field, id) });
      expect(response.status, `${method} ${url} ${field}=${id}`).toBe(400);
      expect(response.body).toEqual({ message: `body.${field}: ${ID_RANGE_MESSAGE}` });
    }
  });

  it('takes the largest id as an ordinary one (not found, never a 500)', async () => {
    const response = await t.call('POST', '/api/charger', {
      token: admin,
      body: withValue(chargerForm('RANGE-03', 61_003), 'chargerBrandId', 2_147_483_647),
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No such charger brand' });
    // A province is a record a form names too: the foreign key would have refused it as a 500.
    for (const [method, path, body] of [
      ['POST', '/api/merchant', merchantForm()],
      ['PATCH', `/api/merchant/${merchant.id}`, merchantForm()],
      ['POST', '/api/landlord', landlordForm()],
      ['PATCH', `/api/landlord/${site.id}`, landlordForm()],
    ] as const) {
      const missing = await t.call(method, path, {
        token: admin,
        body: { ...body, provinceId: 2_147_483_647 },
      });
      expect(missing.status, `${method} ${path}`).toBe(404);
      expect(missing.body).toEqual({ message: 'No such province' });
    }
  });
});
