import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChargerBrand,
  createLandlord,
  createMerchant,
  createPrice,
  createUser,
  FACTORY_PASSWORD,
  signedInUser,
} from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Every write body takes the entity's fields and nothing else: an unknown key is a 400 naming it, never
 * dropped with a 'Success' (a PATCH of the form plus `active: false` used to answer 200 and leave the record
 * active). `active` is a field of the entity, honoured on POST and on a PATCH of the whole form.
 */
let t: TestApp;
let admin: string;
let self: { email: string };
let merchant: { id: number };
let site: { id: number };
let brand: { id: number };
let price: { id: number };
let sequence = 0;
const next = () => ++sequence;

beforeAll(async () => {
  t = await startTestApp();
  const signedIn = await signedInUser(t, { role: 'admin' });
  admin = signedIn.token;
  self = signedIn.user;
  merchant = await createMerchant(t);
  site = await createLandlord(t, merchant.id);
  brand = await createChargerBrand(t);
  price = await createPrice(t);
});
afterAll(() => t.close());

const merchantForm = () => ({ nameEn: `Body Cluster ${next()}`, nameTh: 'คลัสเตอร์', internal: false });
const landlordForm = () => ({
  merchantId: merchant.id,
  nameEn: `Body Site ${next()}`,
  nameTh: 'สถานี',
  latitude: 13.75,
  longitude: 100.5,
  businessHoursType: 'period',
  businessHours: [{ dayOfWeek: 2, openTime: '08:00', closeTime: '20:00' }],
});
const partyForm = () => ({ nameEn: `Body Group ${next()}`, nameTh: 'กลุ่ม', landlordIds: [site.id] });
const priceForm = () => ({
  descEn: `Body Price ${next()}`,
  descTh: 'ราคา',
  method: 'KW',
  calculateMethod: 'BAHT_HRS',
  bahtPerKwh: 7.5,
  bahtPerHour: 0,
  penaltyBahtPerMin: 0,
  penaltyDCFullBahtPerMin: 0,
  penaltyDCFullDelayMin: 0,
  overrideWeekdays: [
    { dayOfWeek: 1, validTimeFrom: '22:00', validTimeTo: '23:59', bahtPerKwh: 4.5, bahtPerHour: 0 },
  ],
  overrides: [
    { validFrom: '2027-04-13 00:00', validTo: '2027-04-15 23:59', bahtPerKwh: 3.99, bahtPerHour: 0 },
  ],
});
const brandForm = () => ({ name: `Body Brand ${next()}`, powerType: 'AC', minPowerKw: 7.4 });
const chargerForm = (id = `BODY-${next()}`, connectorId = 62_000 + next()) => ({
  id,
  nameEn: 'Body charger',
  nameTh: 'เครื่องชาร์จ',
  landlordId: site.id,
  chargerBrandId: brand.id,
  connectors: [
    {
      id: connectorId,
      token: `token-${connectorId}`,
      nameEn: 'Connector',
      nameTh: 'หัวชาร์จ',
      connectorTypeId: 4,
      judjodId: null,
      maxPowerKw: 50,
      oldQr: null,
      priceId: price.id,
    },
  ],
});

interface Entity {
  name: string;
  /** Path of the list: POST there, GET/PATCH `${path}/${id}`. */
  path: string;
  /** Key of the record in the GET answer. */
  key: string;
  form: () => Record<string, unknown>;
}

const ENTITIES: Entity[] = [
  { name: 'merchant', path: '/api/merchant', key: 'merchant', form: merchantForm },
  { name: 'landlord', path: '/api/landlord', key: 'landlord', form: landlordForm },
  { name: 'party', path: '/api/party', key: 'party', form: partyForm },
  { name: 'price', path: '/api/price', key: 'price', form: priceForm },
  { name: 'charger-brand', path: '/api/charger-brand', key: 'chargerBrand', form: brandForm },
  { name: 'charger', path: '/api/charger', key: 'charger', form: chargerForm },
];

const call = (method: string, path: string, body?: unknown, token = admin) =>
  t.call(method, path, { token, body });

/** Creates a record of the entity through the API and answers its id. */
async function create(entity: Entity, body = entity.form()): Promise<string> {
  const response = await call('POST', entity.path, body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return String(response.body.id);
}
const activeOf = async (entity: Entity, id: string) => {
  const response = await call('GET', `${entity.path}/${id}`);
  expect(response.status).toBe(200);
  return response.body[entity.key].active as boolean;
};

describe('active is a field of the entity', () => {
  it.each(ENTITIES)('$name: a PATCH of the whole form with active false deactivates it', async (entity) => {
    const form = entity.form();
    const id = await create(entity, form);
    expect(await activeOf(entity, id)).toBe(true);
    const response = await call('PATCH', `${entity.path}/${id}`, { ...form, active: false });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Success' });
    expect(await activeOf(entity, id)).toBe(false);
    // Left out, it keeps the value; sent, it is honoured again.
    expect((await call('PATCH', `${entity.path}/${id}`, form)).status).toBe(200);
    expect(await activeOf(entity, id)).toBe(false);
    expect((await call('PATCH', `${entity.path}/${id}`, { ...form, active: true })).status).toBe(200);
    expect(await activeOf(entity, id)).toBe(true);
  });

  it.each(ENTITIES)('$name: POST honours active, active by default', async (entity) => {
    expect(await activeOf(entity, await create(entity, { ...entity.form(), active: false }))).toBe(false);
    expect(await activeOf(entity, await create(entity, { ...entity.form(), active: true }))).toBe(true);
    expect(await activeOf(entity, await create(entity))).toBe(true);
  });
});

const unknownKey = (key: string, at = 'body') => ({ message: `${at}: Unrecognized key: "${key}"` });

describe('an unknown key in a write body is a 400 naming it', () => {
  it.each(ENTITIES)('$name: POST, PATCH of the form, and PATCH of { active }', async (entity) => {
    const created = await create(entity);
    const form = entity.form();
    const posted = await call('POST', entity.path, { ...form, foo: 1 });
    expect(posted.status).toBe(400);
    expect(posted.body).toEqual(unknownKey('foo'));
    // PATCH takes the form or { active }: the message names the key whichever the body was closer to.
    for (const body of [
      { ...form, foo: 1 },
      { ...form, active: false, foo: 1 },
      { active: false, foo: 1 },
    ]) {
      const response = await call('PATCH', `${entity.path}/${created}`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body, JSON.stringify(body)).toEqual(unknownKey('foo'));
    }
    // A read-only field of the answer is not a field of the form.
    const { id: _id, ...record } = (await call('GET', `${entity.path}/${created}`)).body[entity.key];
    const withId = await call('PATCH', `${entity.path}/${created}`, {
      ...form,
      ...(entity.name === 'charger'
        ? { id: created, connectors: record.connectors }
        : { id: Number(created) }),
    });
    expect(withId.status).toBe(400);
    expect(withId.body.message).toMatch(/^body(\.connectors\.0)?: Unrecognized keys?: /);
    expect(await activeOf(entity, created)).toBe(true);
  });

  it('names an unknown key in a row: connector, business hours, price overrides', async () => {
    const charger = chargerForm();
    const cases: Array<[string, string, unknown, string]> = [
      [
        'POST',
        '/api/charger',
        { ...charger, connectors: [{ ...charger.connectors[0], isNew: true }] },
        'body.connectors.0',
      ],
      [
        'POST',
        '/api/landlord',
        {
          ...landlordForm(),
          businessHours: [{ dayOfWeek: 2, openTime: '08:00', closeTime: '20:00', id: 3 }],
        },
        'body.businessHours.0',
      ],
      [
        'POST',
        '/api/price',
        { ...priceForm(), overrideWeekdays: [{ ...priceForm().overrideWeekdays[0], id: 3 }] },
        'body.overrideWeekdays.0',
      ],
      [
        'POST',
        '/api/price',
        { ...priceForm(), overrides: [{ ...priceForm().overrides[0], id: 3 }] },
        'body.overrides.0',
      ],
    ];
    for (const [method, path, body, at] of cases) {
      const response = await call(method, path, body);
      expect(response.status, at).toBe(400);
      expect(response.body.message, at).toMatch(
        new RegExp(`^${at.replace(/\./g, '\\.')}: Unrecognized key: "(isNew|id)"$`),
      );
    }
  });

  it('users, self, terms, contact, blockers and the sign-in calls', async () => {
    const mobile = await createUser(t, { type: 'mobile' });
    const cases: Array<[method: string, path: string, body: unknown, token?: string | null]> = [
      ['POST', '/api/user', { type: 'mobile', email: 'body-mobile@example.com', foo: 1 }],
      ['PATCH', `/api/user/${mobile.id}`, { type: 'mobile', email: mobile.email, foo: 1 }],
      [
        'POST',
        '/api/user',
        {
          type: 'admin',
          email: 'body-admin@example.com',
          firstName: 'A',
          lastName: 'B',
          adminRole: 'admin',
          foo: 1,
        },
      ],
      ['PATCH', '/api/user/self', { firstName: 'Somchai', lastName: 'Jaidee', foo: 1 }],
      ['PATCH', '/api/user/self', { currentPass: FACTORY_PASSWORD, pass: 'Changed123', foo: 1 }],
      ['POST', '/api/user/self/term-accept', { termsId: null, privacyId: null, foo: 1 }],
      ['PATCH', '/api/contact-us', { line: '@evcharge', foo: 1 }],
      ['POST', '/api/connector/1/open-blocker', { foo: 1 }],
      ['POST', '/api/connector/1/close-blocker', { foo: 1 }],
      ['POST', '/api/auth/login', { email: self.email, pass: FACTORY_PASSWORD, type: 'admin', foo: 1 }, null],
      ['POST', '/api/auth/forgot-password', { email: self.email, type: 'admin', foo: 1 }, null],
      ['POST', '/api/auth/reset-password', { emailToken: 'some-token', pass: 'long-enough', foo: 1 }, null],
      ['POST', '/api/auth/logout', { foo: 1 }],
    ];
    for (const [method, path, body, token = admin] of cases) {
      const response = await t.call(method, path, { body, token: token ?? undefined });
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(response.body, `${method} ${path}`).toEqual(unknownKey('foo'));
    }
    // Nothing was changed by the refused calls (the refused logout kept the session too).
    expect((await call('GET', '/api/user/self')).body.user.firstName).not.toBe('Somchai');
  });
});
