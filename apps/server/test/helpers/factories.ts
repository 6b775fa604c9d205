import type { AdminRole } from '@ev/shared';
import { eq } from 'drizzle-orm';
import {
  chargerBrands,
  chargers,
  connectors,
  landlordBusinessHours,
  landlords,
  merchants,
  pages,
  parties,
  partyLandlords,
  prices,
  users,
} from '../../src/db/schema/index.ts';
import { hashPassword } from '../../src/lib/password.ts';
import type { TestApp } from './test-app.ts';

let sequence = 0;
const unique = () => `${Date.now().toString(36)}${(sequence++).toString(36)}`;

/** One hash reused by every factory user: scrypt is deliberately slow. */
let cachedHash: Promise<string> | null = null;
export const FACTORY_PASSWORD = 'Factory123';
const factoryHash = () => {
  cachedHash ??= hashPassword(FACTORY_PASSWORD);
  return cachedHash;
};

export interface UserOverrides {
  role?: AdminRole;
  email?: string;
  active?: boolean;
  firstName?: string;
  lastName?: string;
  merchantId?: number | null;
  partyId?: number | null;
  landlordId?: number | null;
  type?: 'admin' | 'mobile';
}

export async function createUser(t: TestApp, overrides: UserOverrides = {}) {
  const [user] = await t.database.db
    .insert(users)
    .values({
      type: overrides.type ?? 'admin',
      email: overrides.email ?? `user-${unique()}@example.com`,
      passHash: await factoryHash(),
      firstName: overrides.firstName ?? 'Test',
      lastName: overrides.lastName ?? 'User',
      adminRole: overrides.type === 'mobile' ? null : (overrides.role ?? 'admin'),
      active: overrides.active ?? true,
      merchantId: overrides.merchantId ?? null,
      partyId: overrides.partyId ?? null,
      landlordId: overrides.landlordId ?? null,
    })
    .returning();
  return { ...user!, pass: FACTORY_PASSWORD };
}

/** Creates a user and signs it in through the real login call; returns the user and its token. */
export async function signedInUser(t: TestApp, overrides: UserOverrides = {}) {
  const user = await createUser(t, overrides);
  const token =
    overrides.type === 'mobile'
      ? await memberLogin(t, user.email, user.pass)
      : await login(t, user.email, user.pass);
  return { user, token };
}

/** A member (mobile user) signing in through the member API. */
export async function memberLogin(t: TestApp, email: string, pass: string): Promise<string> {
  const response = await t.call('POST', '/api/member/login', { body: { email, pass } });
  if (response.status !== 200)
    throw new Error(`member login failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.accessToken;
}

export async function login(t: TestApp, email: string, pass: string): Promise<string> {
  const response = await t.call('POST', '/api/auth/login', { body: { email, pass, type: 'admin' } });
  if (response.status !== 200)
    throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.accessToken;
}

export async function createLegalPage(
  t: TestApp,
  type: 'terms' | 'privacy',
  overrides: Partial<typeof pages.$inferInsert> = {},
) {
  const [page] = await t.database.db
    .insert(pages)
    .values({
      type,
      titleEn: `${type} ${unique()}`,
      titleTh: `${type} TH`,
      detailEn: `<p>${type} EN</p>`,
      detailTh: `<p>${type} TH</p>`,
      active: true,
      publishedAt: new Date(),
      ...overrides,
    })
    .returning();
  return page!;
}

/** A tutorial (page of type guide), active and not displayed unless told. */
export async function createGuide(t: TestApp, overrides: Partial<typeof pages.$inferInsert> = {}) {
  const [page] = await t.database.db
    .insert(pages)
    .values({
      type: 'guide',
      titleEn: `Tutorial ${unique()}`,
      titleTh: 'บทเรียน',
      detailEn: '<p>Tutorial EN</p>',
      detailTh: '<p>Tutorial TH</p>',
      active: true,
      ...overrides,
    })
    .returning();
  return page!;
}

export async function createMerchant(t: TestApp, overrides: Partial<typeof merchants.$inferInsert> = {}) {
  const [merchant] = await t.database.db
    .insert(merchants)
    .values({ nameEn: `Cluster ${unique()}`, nameTh: 'คลัสเตอร์', internal: false, ...overrides })
    .returning();
  return merchant!;
}

export async function createLandlord(
  t: TestApp,
  merchantId: number,
  overrides: Partial<typeof landlords.$inferInsert> = {},
  hours: Array<{ dayOfWeek: number; openTime: string; closeTime: string }> = [],
) {
  const [landlord] = await t.database.db
    .insert(landlords)
    .values({
      merchantId,
      nameEn: `Site ${unique()}`,
      nameTh: 'สถานี',
      latitude: 13.7563,
      longitude: 100.5018,
      businessHoursType: hours.length > 0 ? 'period' : '24H',
      ...overrides,
    })
    .returning();
  if (hours.length > 0) {
    await t.database.db
      .insert(landlordBusinessHours)
      .values(hours.map((hour) => ({ ...hour, landlordId: landlord!.id })));
  }
  return landlord!;
}

export async function createParty(
  t: TestApp,
  landlordIds: number[],
  overrides: Partial<typeof parties.$inferInsert> = {},
) {
  const [party] = await t.database.db
    .insert(parties)
    .values({ nameEn: `Group ${unique()}`, nameTh: 'กลุ่ม', ...overrides })
    .returning();
  if (landlordIds.length > 0) {
    await t.database.db
      .insert(partyLandlords)
      .values(landlordIds.map((landlordId) => ({ partyId: party!.id, landlordId })));
  }
  return party!;
}

export async function createChargerBrand(
  t: TestApp,
  overrides: Partial<typeof chargerBrands.$inferInsert> = {},
) {
  const [brand] = await t.database.db
    .insert(chargerBrands)
    .values({ name: `Brand ${unique()}`, powerType: 'DC', minPowerKw: '50.00', ...overrides })
    .returning();
  return brand!;
}

export async function createPrice(t: TestApp, overrides: Partial<typeof prices.$inferInsert> = {}) {
  const [price] = await t.database.db
    .insert(prices)
    .values({
      descEn: `Price ${unique()}`,
      descTh: 'ราคา',
      method: 'KW',
      calculateMethod: 'BAHT_HRS',
      bahtPerKwh: '7.50',
      ...overrides,
    })
    .returning();
  return price!;
}

/**
 * A charger at a site with one connector: what makes a brand or a price "used". Ids are unique per call;
 * connector ids come from the sequence too.
 */
export async function createCharger(
  t: TestApp,
  { landlordId, chargerBrandId, priceId }: { landlordId: number; chargerBrandId: number; priceId: number },
) {
  const [site] = await t.database.db
    .select({ merchantId: landlords.merchantId })
    .from(landlords)
    .where(eq(landlords.id, landlordId));
  const [charger] = await t.database.db
    .insert(chargers)
    .values({
      id: `CP-${unique()}`,
      nameEn: 'Test charger',
      nameTh: 'เครื่องชาร์จทดสอบ',
      merchantId: site!.merchantId,
      landlordId,
      chargerBrandId,
    })
    .returning();
  const [connector] = await t.database.db
    .insert(connectors)
    .values({
      id: 100_000 + Math.floor(Math.random() * 1_000_000_000),
      chargerId: charger!.id,
      ocppConnectorId: 1,
      token: `tok-${unique()}`,
      nameEn: 'Connector 1',
      nameTh: 'หัวชาร์จ 1',
      connectorTypeId: 4,
      maxPowerKw: '120.00',
      priceId,
    })
    .returning();
  return { charger: charger!, connector: connector! };
}
