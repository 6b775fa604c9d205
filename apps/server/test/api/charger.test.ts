import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectors } from '../../src/db/schema/index.ts';
import {
  createChargerBrand,
  createLandlord,
  createMerchant,
  createParty,
  createPrice,
  signedInUser,
} from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: string;
let bangkok: { id: number };
let chiangMai: { id: number };
let siam: { id: number };
let silom: { id: number };
let nimman: { id: number };
let group: { id: number };
let ac: { id: number };
let dc: { id: number };
let price: { id: number };
let both: string;

const connector = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  token: `token-${id}`,
  nameEn: `Connector ${id}`,
  nameTh: `หัวชาร์จ ${id}`,
  connectorTypeId: 4,
  judjodId: null,
  maxPowerKw: 120,
  oldQr: null,
  priceId: price.id,
  ...overrides,
});

const form = (overrides: Record<string, unknown> = {}) => ({
  id: 'BKK-NEW-01',
  nameEn: 'New charger',
  nameTh: 'เครื่องใหม่',
  landlordId: siam.id,
  chargerBrandId: dc.id,
  connectors: [connector(8001)],
  ...overrides,
});

const list = (query: string, token = admin) => t.call('GET', `/api/charger?${query}`, { token });
const ids = (body: { chargers: Array<{ id: string }> }) => body.chargers.map((c) => c.id);
const post = (body: unknown, token = admin) => t.call('POST', '/api/charger', { token, body });
const patch = (id: string, body: unknown, token = admin) =>
  t.call('PATCH', `/api/charger/${id}`, { token, body });

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  bangkok = await createMerchant(t, { nameEn: 'Bangkok Cluster' });
  chiangMai = await createMerchant(t, { nameEn: 'Chiang Mai Cluster' });
  siam = await createLandlord(t, bangkok.id, { nameEn: 'Siam Paragon' });
  silom = await createLandlord(t, bangkok.id, { nameEn: 'Silom Complex' });
  nimman = await createLandlord(t, chiangMai.id, { nameEn: 'One Nimman' });
  group = await createParty(t, [silom.id]);
  ac = await createChargerBrand(t, { name: 'Wallbox AC', powerType: 'AC', minPowerKw: '7.40' });
  dc = await createChargerBrand(t, { name: 'ABB DC', powerType: 'DC', minPowerKw: '50.00' });
  price = await createPrice(t, { descEn: 'Standard DC' });
  both = `merchantId=${bangkok.id}&merchantId=${chiangMai.id}`;
  const created = [
    await post(
      form({
        id: 'BKK-SIAM-01',
        nameEn: 'Siam DC 1',
        nameTh: 'สยาม ดีซี 1',
        connectors: [
          connector(9102, { nameEn: 'CCS2 right', maxPowerKw: 120.5, judjodId: 7, oldQr: 'QR-OLD' }),
          connector(9101, { nameEn: 'CHAdeMO left', connectorTypeId: 3, maxPowerKw: 50 }),
        ],
      }),
    ),
    await post(
      form({
        id: 'BKK-SILOM-01',
        nameEn: 'Silom AC',
        nameTh: 'สีลม เอซี',
        landlordId: silom.id,
        chargerBrandId: ac.id,
        connectors: [connector(9201, { nameEn: 'Type 2', connectorTypeId: 2, maxPowerKw: 7.4 })],
      }),
    ),
    await post(
      form({
        id: 'CNX-NIM-01',
        nameEn: 'Nimman AC',
        nameTh: 'นิมมาน',
        merchantId: chiangMai.id,
        landlordId: nimman.id,
        chargerBrandId: ac.id,
        connectors: [connector(9301, { nameEn: 'Nimman plug', connectorTypeId: 2, maxPowerKw: 22 })],
      }),
    ),
  ];
  for (const response of created) expect(response.body).toMatchObject({ message: 'Success' });
  expect((await patch('CNX-NIM-01', { active: false })).status).toBe(200);
});
afterAll(() => t.close());

describe('GET /api/charger', () => {
  it('answers a page of chargers with their site, cluster, brand and connectors', async () => {
    const response = await list(`${both}&sort=id`);
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(3);
    expect(ids(response.body)).toEqual(['BKK-SIAM-01', 'BKK-SILOM-01', 'CNX-NIM-01']);
    expect(response.body.chargers[0]).toEqual({
      id: 'BKK-SIAM-01',
      nameEn: 'Siam DC 1',
      nameTh: 'สยาม ดีซี 1',
      merchantId: bangkok.id,
      merchantNameEn: 'Bangkok Cluster',
      landlordId: siam.id,
      landlordNameEn: 'Siam Paragon',
      chargerBrandId: dc.id,
      chargerBrandName: 'ABB DC',
      powerType: 'DC',
      minPowerKw: 50,
      active: true,
      online: false,
      lastSeenAt: null,
      vendor: null,
      model: null,
      firmwareVersion: null,
      hasOcppPassword: false,
      ocppProtocol: 'auto',
      protocol: null,
      maxPowerKw: null,
      connectors: [
        {
          id: 9101,
          token: 'token-9101',
          nameEn: 'CHAdeMO left',
          nameTh: 'หัวชาร์จ 9101',
          connectorTypeId: 3,
          connectorTypeName: 'CHAdeMO',
          judjodId: null,
          maxPowerKw: 50,
          oldQr: null,
          priceId: price.id,
          status: 'UNKNOWN',
          ocppConnectorId: 2,
          errorCode: null,
          statusAt: null,
        },
        {
          id: 9102,
          token: 'token-9102',
          nameEn: 'CCS2 right',
          nameTh: 'หัวชาร์จ 9102',
          connectorTypeId: 4,
          connectorTypeName: 'CCS2',
          judjodId: 7,
          maxPowerKw: 120.5,
          oldQr: 'QR-OLD',
          priceId: price.id,
          status: 'UNKNOWN',
          ocppConnectorId: 1,
          errorCode: null,
          statusAt: null,
        },
      ],
    });
    expect(response.body.chargers[2]).toMatchObject({ id: 'CNX-NIM-01', active: false, minPowerKw: 7.4 });
  });

  it.each([
    ['id=siam', ['BKK-SIAM-01']],
    ['id=BKK', ['BKK-SIAM-01', 'BKK-SILOM-01']],
    ['id=%25', []],
    ['name=silom%20ac', ['BKK-SILOM-01']],
    ['name=นิมมาน', ['CNX-NIM-01']],
    ['connectorId=9201', ['BKK-SILOM-01']],
    ['connectorId=9999', []],
    ['connectorName=chademo', ['BKK-SIAM-01']],
    ['connectorName=หัวชาร์จ%209301', ['CNX-NIM-01']],
    ['merchantId=0', null],
  ])('filters by %s', async (query, expected) => {
    const response = await list(`${both}&sort=id&${query}`);
    if (expected === null) {
      expect(response.status).toBe(400);
      return;
    }
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual(expected);
    expect(response.body.total).toBe(expected.length);
  });

  it('takes repeated cluster, site and brand filters', async () => {
    expect(ids((await list(`merchantId=${chiangMai.id}`)).body)).toEqual(['CNX-NIM-01']);
    expect(ids((await list(`${both}&landlordId=${siam.id}&landlordId=${nimman.id}&sort=id`)).body)).toEqual([
      'BKK-SIAM-01',
      'CNX-NIM-01',
    ]);
    expect(ids((await list(`${both}&chargerBrandId=${ac.id}&sort=id`)).body)).toEqual([
      'BKK-SILOM-01',
      'CNX-NIM-01',
    ]);
    expect(
      ids((await list(`${both}&chargerBrandId=${ac.id}&chargerBrandId=${dc.id}&sort=id`)).body),
    ).toHaveLength(3);
  });

  it('sorts by a whitelisted column, pages, and refuses other sort keys', async () => {
    expect(ids((await list(`${both}&sort=landlordNameEn&order=desc`)).body)).toEqual([
      'BKK-SILOM-01',
      'BKK-SIAM-01',
      'CNX-NIM-01',
    ]);
    expect(ids((await list(`${both}&sort=chargerBrandName`)).body)).toEqual([
      'BKK-SIAM-01',
      'BKK-SILOM-01',
      'CNX-NIM-01',
    ]);
    expect(ids((await list(`${both}&sort=merchantNameEn&order=desc`)).body)[0]).toBe('CNX-NIM-01');
    const page = await list(`${both}&sort=id&size=1&page=2`);
    expect(page.body.total).toBe(3);
    expect(ids(page.body)).toEqual(['BKK-SILOM-01']);
    const refused = await list('sort=token');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/query\.sort/);
  });

  it('answers mode=dropdown with ids and names', async () => {
    const response = await list(`mode=dropdown&merchantId=${chiangMai.id}`);
    expect(response.body).toEqual({ chargers: [{ id: 'CNX-NIM-01', nameEn: 'Nimman AC' }] });
  });
});

describe('GET /api/charger/{id}', () => {
  it('answers the charger with its connectors, 404 for an unknown id', async () => {
    const response = await t.call('GET', '/api/charger/BKK-SILOM-01', { token: admin });
    expect(response.status).toBe(200);
    expect(response.body.charger).toMatchObject({
      id: 'BKK-SILOM-01',
      landlordId: silom.id,
      connectors: [{ id: 9201, connectorTypeName: 'Type 2', maxPowerKw: 7.4 }],
    });
    expect((await t.call('GET', '/api/charger/NOPE', { token: admin })).status).toBe(404);
  });
});

describe('data scope', () => {
  it.each([
    ['merchant', () => ({ merchantId: bangkok.id }), ['BKK-SIAM-01', 'BKK-SILOM-01']],
    ['landlord', () => ({ landlordId: siam.id }), ['BKK-SIAM-01']],
    ['party', () => ({ partyId: group.id }), ['BKK-SILOM-01']],
    ['station', () => ({ partyId: group.id }), ['BKK-SILOM-01']],
    ['merchant', () => ({ merchantId: null }), []],
    ['callcenter', () => ({}), ['BKK-SIAM-01', 'BKK-SILOM-01', 'CNX-NIM-01']],
  ] as const)('%s sees only its chargers (%#)', async (role, link, expected) => {
    const { token } = await signedInUser(t, { role, ...link() });
    const response = await list(`sort=id&${both}`, token);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual(expected);
    expect(response.body.total).toBe(expected.length);
    // Filters never widen the scope; the dropdown and the export follow it too.
    expect(ids((await list(`merchantId=${chiangMai.id}&landlordId=${nimman.id}`, token)).body)).toEqual(
      expected.filter((id) => id.startsWith('CNX')),
    );
    expect(ids((await list('mode=dropdown', token)).body).sort()).toEqual(expected);
    if (!(expected as readonly string[]).includes('CNX-NIM-01')) {
      expect((await list(`mode=xlsx&landlordId=${nimman.id}`, token)).status).toBe(404);
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { active: true }],
        ['DELETE', undefined],
      ] as const) {
        const response = await t.call(method, '/api/charger/CNX-NIM-01', { token, body });
        expect(response.status, method).toBe(404);
      }
    }
  });

  it('lets a scoped user create only in a site it sees', async () => {
    const { token } = await signedInUser(t, { role: 'merchant', merchantId: bangkok.id });
    // Outside the scope, as for a site that does not exist: 404 (docs/permissions.md).
    const outside = await post(form({ id: 'SCOPE-1', landlordId: nimman.id, connectors: [] }), token);
    expect(outside.status).toBe(404);
    expect(outside.body).toEqual({ message: 'No such site' });
    const missing = await post(form({ id: 'SCOPE-1', landlordId: 999_999, connectors: [] }), token);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'No such site' });
    const inside = await post(form({ id: 'SCOPE-1', landlordId: silom.id, connectors: [] }), token);
    expect(inside.body).toEqual({ message: 'Success', id: 'SCOPE-1' });
    const moved = await patch(
      'SCOPE-1',
      form({ id: 'SCOPE-1', landlordId: nimman.id, connectors: [] }),
      token,
    );
    expect(moved.status).toBe(404);
    expect(moved.body).toEqual({ message: 'No such site' });
  });

  it("puts a landlord user's charger in its own site, whatever the body says", async () => {
    const { token } = await signedInUser(t, { role: 'landlord', landlordId: siam.id });
    const created = await post(
      form({ id: 'SCOPE-2', landlordId: undefined, merchantId: undefined, connectors: [] }),
      token,
    );
    expect(created.status).toBe(200);
    const detail = await t.call('GET', '/api/charger/SCOPE-2', { token });
    expect(detail.body.charger).toMatchObject({ landlordId: siam.id, merchantId: bangkok.id });
  });

  it('refuses a site outside the chosen cluster', async () => {
    const response = await post(form({ id: 'SCOPE-3', merchantId: chiangMai.id, landlordId: siam.id }));
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('body.landlordId: The site must belong to the chosen cluster');
  });
});

describe('validation', () => {
  /** Built when the case runs: the price exists only then. */
  const withConnector = (overrides: Record<string, unknown>) => () => ({
    connectors: [connector(8101, overrides)],
  });
  it.each([
    ['id', { id: undefined }, 'body.id: Charger Name (EN) is required.'],
    ['id', { id: '   ' }, 'body.id: Charger Name (EN) is required.'],
    [
      'id',
      { id: 'BAD ID/1' },
      'body.id: Charger ID may only contain letters, digits, ".", "_", "-" and "~".',
    ],
    ['id', { id: 'X'.repeat(49) }, 'body.id: Please enter no more than 48 characters.'],
    ['nameEn', { nameEn: ' ' }, 'body.nameEn: Charger Name (EN) is required.'],
    ['nameTh', { nameTh: undefined }, 'body.nameTh: Charger Name (TH) is required.'],
    ['nameEn', { nameEn: 'x'.repeat(256) }, 'body.nameEn: Please enter no more than 255 characters.'],
    ['landlordId', { landlordId: undefined }, 'body.landlordId: Site Name is required.'],
    ['landlordId', { landlordId: null }, 'body.landlordId: Site Name is required.'],
    ['chargerBrandId', { chargerBrandId: undefined }, 'body.chargerBrandId: Charger Brand is required.'],
    ['connector id', withConnector({ id: undefined }), 'body.connectors.0.id: Connector ID is required.'],
    [
      'connector id',
      withConnector({ id: 1.5 }),
      'body.connectors.0.id: Connector ID must be a whole number of 1 or more.',
    ],
    [
      'connector id',
      withConnector({ id: 0 }),
      'body.connectors.0.id: Connector ID must be a whole number of 1 or more.',
    ],
    [
      'judjodId',
      withConnector({ judjodId: -1 }),
      'body.connectors.0.judjodId: Judjod Id must be a whole number of 0 or more.',
    ],
    [
      'judjodId',
      withConnector({ judjodId: 1.5 }),
      'body.connectors.0.judjodId: Judjod Id must be a whole number of 0 or more.',
    ],
    ['token', withConnector({ token: '  ' }), 'body.connectors.0.token: Token is required.'],
    [
      'token',
      withConnector({ token: 't'.repeat(256) }),
      'body.connectors.0.token: Please enter no more than 255 characters.',
    ],
    ['nameEn', withConnector({ nameEn: '' }), 'body.connectors.0.nameEn: Connector Name (EN) is required.'],
    ['nameTh', withConnector({ nameTh: ' ' }), 'body.connectors.0.nameTh: Connector Name (TH) is required.'],
    [
      'connectorTypeId',
      withConnector({ connectorTypeId: undefined }),
      'body.connectors.0.connectorTypeId: Connector Type is required.',
    ],
    [
      'maxPowerKw',
      withConnector({ maxPowerKw: undefined }),
      'body.connectors.0.maxPowerKw: Charging Speed is required.',
    ],
    [
      'maxPowerKw',
      withConnector({ maxPowerKw: 0 }),
      'body.connectors.0.maxPowerKw: Charging Speed must be at least 0.01.',
    ],
    [
      'maxPowerKw',
      withConnector({ maxPowerKw: 1.234 }),
      'body.connectors.0.maxPowerKw: Charging Speed must have at most 2 decimals.',
    ],
    [
      'maxPowerKw',
      withConnector({ maxPowerKw: 10_000_000 }),
      'body.connectors.0.maxPowerKw: Charging Speed must be at most 9,999,999.99.',
    ],
    ['priceId', withConnector({ priceId: undefined }), 'body.connectors.0.priceId: Price Code is required.'],
    ['oldQr', withConnector({ oldQr: '   ' }), 'body.connectors.0.oldQr: Old QR is not whitespace'],
    [
      'oldQr',
      withConnector({ oldQr: 'q'.repeat(256) }),
      'body.connectors.0.oldQr: Please enter no more than 255 characters.',
    ],
    [
      'connector ids',
      () => ({ connectors: [connector(8201), connector(8201)] }),
      'body.connectors: Connector IDs must be unique.',
    ],
  ])('%s: %j', async (_field, overrides, message) => {
    const extra = typeof overrides === 'function' ? overrides() : overrides;
    const response = await post(form({ id: 'VALID-1', ...extra }));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message });
  });

  it.each([
    ['chargerBrandId', { chargerBrandId: 999_999 }, 'No such charger brand'],
    ['connectorTypeId', withConnector({ connectorTypeId: 99 }), 'No such connector type'],
    ['priceId', withConnector({ priceId: 999_999 }), 'No such price'],
  ])('answers 404 to a %s that does not exist', async (_field, overrides, message) => {
    const extra = typeof overrides === 'function' ? overrides() : overrides;
    const response = await post(form({ id: 'VALID-1', ...extra }));
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message });
  });

  it('stores an empty oldQr as null and trims the texts', async () => {
    const response = await post(
      form({
        id: ' TRIM-1 ',
        nameEn: ' Trimmed ',
        connectors: [connector(8301, { oldQr: '', token: ' t ' })],
      }),
    );
    expect(response.body).toEqual({ message: 'Success', id: 'TRIM-1' });
    const detail = await t.call('GET', '/api/charger/TRIM-1', { token: admin });
    expect(detail.body.charger).toMatchObject({
      nameEn: 'Trimmed',
      connectors: [{ id: 8301, oldQr: null, token: 't' }],
    });
  });
});

describe('duplicate ids', () => {
  it('answers 409 for a taken charger id or connector id', async () => {
    const charger = await post(form({ id: 'BKK-SIAM-01', connectors: [] }));
    expect(charger.status).toBe(409);
    expect(charger.body).toEqual({ message: 'Charger ID BKK-SIAM-01 already exists.' });
    const taken = await post(form({ id: 'DUP-1', connectors: [connector(9201)] }));
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ message: 'Connector ID 9201 already exists.' });
    expect((await t.call('GET', '/api/charger/DUP-1', { token: admin })).status).toBe(404);
  });
});

describe('PATCH /api/charger/{id}', () => {
  const base = () =>
    form({
      id: 'EDIT-1',
      connectors: [connector(8401), connector(8402, { connectorTypeId: 2, maxPowerKw: 22 })],
    });
  beforeAll(async () => {
    expect((await post(base())).status).toBe(200);
    await t.database.db.update(connectors).set({ status: 'CHARGING' }).where(eq(connectors.id, 8401));
  });

  it('saves the form: existing connectors updated (status kept), new ones added', async () => {
    const edited = form({
      id: 'EDIT-1',
      nameEn: 'Edited',
      landlordId: silom.id,
      chargerBrandId: ac.id,
      connectors: [
        connector(8401, { nameEn: 'Renamed' }),
        connector(8402),
        connector(8403, { maxPowerKw: 7.4 }),
      ],
    });
    // The status is the charger's, never the form's: a row that sends it (or any answer-only key) is refused.
    const withStatus = await patch('EDIT-1', {
      ...edited,
      connectors: [{ ...edited.connectors[0], status: 'FAULTED' }, ...edited.connectors.slice(1)],
    });
    expect(withStatus.status).toBe(400);
    expect(withStatus.body).toEqual({ message: 'body.connectors.0: Unrecognized key: "status"' });
    const response = await patch('EDIT-1', edited);
    expect(response.body).toEqual({ message: 'Success' });
    const { charger } = (await t.call('GET', '/api/charger/EDIT-1', { token: admin })).body;
    expect(charger).toMatchObject({ nameEn: 'Edited', landlordId: silom.id, chargerBrandName: 'Wallbox AC' });
    expect(charger.connectors).toMatchObject([
      { id: 8401, nameEn: 'Renamed', status: 'CHARGING' },
      { id: 8402, connectorTypeId: 4, maxPowerKw: 120 },
      { id: 8403, maxPowerKw: 7.4, status: 'UNKNOWN' },
    ]);
  });

  it('refuses to drop an existing connector, to change the id, or to take a used connector id', async () => {
    const dropped = await patch(
      'EDIT-1',
      form({ id: 'EDIT-1', connectors: [connector(8401), connector(8403)] }),
    );
    expect(dropped.status).toBe(400);
    expect(dropped.body).toEqual({ message: "body.connectors: Connector 8402 can't be removed" });
    const renamed = await patch('EDIT-1', form({ id: 'EDIT-2', connectors: [] }));
    expect(renamed.status).toBe(400);
    expect(renamed.body).toEqual({ message: "body.id: The charger id can't change" });
    const taken = await patch(
      'EDIT-1',
      form({
        id: 'EDIT-1',
        connectors: [connector(8401), connector(8402), connector(8403), connector(9101)],
      }),
    );
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ message: 'Connector ID 9101 already exists.' });
    expect((await patch('NOPE', form({ id: 'NOPE' }))).status).toBe(404);
  });

  it('switches active alone', async () => {
    expect((await patch('EDIT-1', { active: false })).body).toEqual({ message: 'Success' });
    expect((await t.call('GET', '/api/charger/EDIT-1', { token: admin })).body.charger.active).toBe(false);
    expect((await patch('EDIT-1', { active: 'no' })).status).toBe(400);
  });
});

describe('DELETE /api/charger/{id}', () => {
  it('refuses an active charger (409) and deletes an inactive one with its connectors', async () => {
    expect((await post(form({ id: 'DEL-1', connectors: [connector(8501)] }))).status).toBe(200);
    const active = await t.call('DELETE', '/api/charger/DEL-1', { token: admin });
    expect(active.status).toBe(409);
    expect(active.body).toEqual({ message: "Can't delete an active item: deactivate it first" });
    await patch('DEL-1', { active: false });
    expect((await t.call('DELETE', '/api/charger/DEL-1', { token: admin })).body).toEqual({
      message: 'Success',
    });
    expect((await t.call('GET', '/api/charger/DEL-1', { token: admin })).status).toBe(404);
    const left = await t.database.db.select().from(connectors).where(eq(connectors.id, 8501));
    expect(left).toEqual([]);
    expect((await t.call('DELETE', '/api/charger/DEL-1', { token: admin })).status).toBe(404);
  });

  it('makes the brand and price it used deletable again (409 while used)', async () => {
    const brand = await createChargerBrand(t, { active: false });
    const onlyPrice = await createPrice(t, { active: false });
    await post(
      form({
        id: 'DEL-2',
        chargerBrandId: brand.id,
        connectors: [connector(8601, { priceId: onlyPrice.id })],
      }),
    );
    expect((await t.call('DELETE', `/api/charger-brand/${brand.id}`, { token: admin })).status).toBe(409);
    expect((await t.call('DELETE', `/api/price/${onlyPrice.id}`, { token: admin })).status).toBe(409);
    await patch('DEL-2', { active: false });
    expect((await t.call('DELETE', '/api/charger/DEL-2', { token: admin })).status).toBe(200);
    expect((await t.call('DELETE', `/api/charger-brand/${brand.id}`, { token: admin })).status).toBe(200);
    expect((await t.call('DELETE', `/api/price/${onlyPrice.id}`, { token: admin })).status).toBe(200);
  });
});

describe('GET /api/charger?mode=xlsx', () => {
  it('streams one line per connector, in the list order', async () => {
    const response = await fetch(`${t.url}/api/charger?mode=xlsx&${both}&sort=id`, {
      headers: { 'x-access-token': admin },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/filename="Charger_\d{14}\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const rows = workbook.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0]?.slice(1, 4)).toEqual(['Cluster Name', 'Site Name', 'Charger Id']);
    const lines = rows.slice(1).map((row) => [row[3], row[10]]);
    expect(lines.filter(([id]) => String(id).startsWith('BKK-SI') || id === 'CNX-NIM-01')).toEqual([
      ['BKK-SIAM-01', 9101],
      ['BKK-SIAM-01', 9102],
      ['BKK-SILOM-01', 9201],
      ['CNX-NIM-01', 9301],
    ]);
    const siamRow = rows.find((row) => row[10] === 9102)!;
    expect(siamRow.slice(1)).toEqual([
      'Bangkok Cluster',
      'Siam Paragon',
      'BKK-SIAM-01',
      'Siam DC 1',
      'สยาม ดีซี 1',
      'ABB DC',
      'DC',
      50,
      true,
      9102,
      'CCS2 right',
      'หัวชาร์จ 9102',
      'CCS2',
      120.5,
      7,
      price.id,
      'Standard DC',
      'UNKNOWN',
    ]);
  });

  it("answers 404 'No matched charger found' when nothing matches", async () => {
    const response = await list('mode=xlsx&id=nothing-like-this');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No matched charger found' });
  });
});

describe('permissions', () => {
  it('refuses roles without the charger menu (403) and callers without a session (401)', async () => {
    const { token } = await signedInUser(t, { role: 'marketting' });
    expect((await list('', token)).status).toBe(403);
    expect((await post(form({ id: 'MKT-1' }), token)).status).toBe(403);
    expect((await t.call('GET', '/api/charger/BKK-SIAM-01', { token })).status).toBe(403);
    expect((await t.call('GET', '/api/charger')).status).toBe(401);
    expect((await t.call('POST', '/api/charger', { body: form() })).status).toBe(401);
  });

  it('lists the connector types to every role', async () => {
    const { token } = await signedInUser(t, { role: 'marketting' });
    const response = await t.call('GET', '/api/connector-type', { token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      connectorTypes: [
        { id: 1, name: 'Type 1' },
        { id: 2, name: 'Type 2' },
        { id: 3, name: 'CHAdeMO' },
        { id: 4, name: 'CCS2' },
        { id: 5, name: 'GB/T' },
      ],
    });
    expect((await t.call('GET', '/api/connector-type')).status).toBe(401);
  });
});

describe('OCPP password', () => {
  const hasPassword = async (id: string) =>
    (await t.call('GET', `/api/charger/${id}`, { token: admin })).body.charger.hasOcppPassword;

  it('is set, kept when absent, removed with null, and checked for length', async () => {
    const secret = 'a-long-enough-secret-01';
    expect(
      (await post(form({ id: 'PW-01', connectors: [connector(8801)], ocppPassword: secret }))).status,
    ).toBe(200);
    expect(await hasPassword('PW-01')).toBe(true);
    const detail = await t.call('GET', '/api/charger/PW-01', { token: admin });
    expect(JSON.stringify(detail.body)).not.toContain(secret);

    expect((await patch('PW-01', form({ id: 'PW-01', connectors: [connector(8801)] }))).status).toBe(200);
    expect(await hasPassword('PW-01')).toBe(true);
    expect(
      (await patch('PW-01', form({ id: 'PW-01', connectors: [connector(8801)], ocppPassword: null }))).status,
    ).toBe(200);
    expect(await hasPassword('PW-01')).toBe(false);

    const short = await patch(
      'PW-01',
      form({ id: 'PW-01', connectors: [connector(8801)], ocppPassword: 'short' }),
    );
    expect(short.status).toBe(400);
    expect(short.body.message).toContain(
      'OCPP Password must be 16 to 40 printable characters without spaces.',
    );
    const spaced = await post(form({ id: 'PW-02', connectors: [], ocppPassword: 'has a space in it 1234' }));
    expect(spaced.status).toBe(400);
    expect(t.logs()).not.toContain(secret);
  });
});
