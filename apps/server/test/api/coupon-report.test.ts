import { USER_PROMOTION_MESSAGES } from '@ev/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  landlords,
  merchants,
  payments,
  pointRates,
  promotionRedemptions,
  users,
} from '../../src/db/schema/index.ts';
import { movePoints } from '../../src/modules/promotion/redeem.ts';
import { createBooking } from '../helpers/bookings.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers } from '../helpers/ocpp.ts';
import {
  bulkRedemptions,
  createPromotion,
  memberWithSession,
  pointCode,
  privateStation,
  readSheet,
  redeem,
} from '../helpers/promotions.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * GET /api/report/user-promotion (the Coupon&point report, issue 21) through real HTTP: one row per redemption
 * of each type, every filter, the redeem dates in Asia/Bangkok, the roles, and batches read by keyset.
 */
let t: TestApp;
let admin: string;
let north: Awaited<ReturnType<typeof chargerPlace>>;
let south: Awaited<ReturnType<typeof chargerPlace>>;
type Member = Awaited<ReturnType<typeof memberWithSession>>['user'];
let mali: Member;
let niran: Member;
let somchai: Member;
let northBookingId: number;
let northConnectorId: number;
let southBookingId: number;
const REPORT = '/api/report/user-promotion';
// 17:30 UTC is 00:30 the next day in Bangkok: the report must show the Bangkok date.
const POINT_REDEEMED = new Date('2026-03-14T17:30:00.000Z');

async function place(name: string) {
  const created = await chargerPlace(t);
  await t.database.db
    .update(merchants)
    .set({ nameEn: `${name} Cluster` })
    .where(eq(merchants.id, created.merchant.id));
  await t.database.db
    .update(landlords)
    .set({ nameEn: `${name} Site` })
    .where(eq(landlords.id, created.site.id));
  return created;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  north = await place('North');
  south = await place('South');
  const northConnector = (await createChargers(t, admin, north, ['COUPON-N']))[0]!.connectorIds[0]!;
  northConnectorId = northConnector;
  const southConnector = (await createChargers(t, admin, south, ['COUPON-S']))[0]!.connectorIds[0]!;

  await createPromotion(t, admin, { code: 'TENOFF', nameEn: 'Ten off', nameTh: 'ลดสิบ' });
  await createPromotion(t, admin, {
    code: 'SOUTHONLY',
    nameEn: 'South only',
    nameTh: 'เฉพาะใต้',
    internal: true,
    landlordIds: [south.site.id],
  });
  await createPromotion(t, admin, {
    code: 'FORTY',
    nameEn: 'Forty points',
    nameTh: 'สี่สิบแต้ม',
    ...pointCode(40),
  });
  await createPromotion(t, admin, {
    code: 'PRIVNS',
    nameEn: 'Private NS',
    nameTh: 'ส่วนตัว',
    ...privateStation([south.site.id, north.site.id]),
  });

  const m = await memberWithSession(t, 'Mali');
  const n = await memberWithSession(t, 'Niran');
  const s = await memberWithSession(t, 'Somchai');
  [mali, niran, somchai] = [m.user, n.user, s.user];
  for (const [index, member] of [mali, niran, somchai].entries()) {
    member.tel = `089999${1000 + index}`;
    await t.database.db.update(users).set({ tel: member.tel }).where(eq(users.id, member.id));
  }
  northBookingId = (await createBooking(t, northConnector, 'stopped', { userId: mali.id })).id;
  southBookingId = (await createBooking(t, southConnector, 'charging', { userId: niran.id })).id;

  const tenOff = await redeem(t, m.token, { code: 'TENOFF', bookingId: northBookingId });
  await redeem(t, n.token, { code: 'southonly', bookingId: southBookingId });
  const points = await redeem(t, m.token, { code: 'FORTY' });
  await redeem(t, s.token, { code: 'PRIVNS', licensePlate: 'กก 9999' });
  // The discount once taken off at payment; the point code redeemed in March.
  await t.database.db
    .update(promotionRedemptions)
    .set({ discount: '12.50' })
    .where(eq(promotionRedemptions.id, tenOff.id));
  await t.database.db
    .update(promotionRedemptions)
    .set({ createdAt: POINT_REDEEMED })
    .where(eq(promotionRedemptions.id, points.id));
});
afterAll(() => t.close());

const report = (query = '', token = admin) => readSheet(t, `${REPORT}?${query}`, token);

/** The codes of the report's rows, in order. */
async function codes(query: string) {
  const sheet = await report(query);
  if (sheet.status === 404) return [];
  expect(sheet.status, sheet.message).toBe(200);
  return sheet.rows.map((row) => row.Code);
}

describe('GET /api/report/user-promotion', () => {
  it('streams Coupon-Point-Report_{timestamp}.xlsx: one row per redemption of each type, oldest first', async () => {
    const sheet = await report();
    expect(sheet.status).toBe(200);
    expect(sheet.fileName).toMatch(/^Coupon-Point-Report_\d{14}\.xlsx$/);
    expect(sheet.header).toEqual([
      'Name',
      'Surname',
      'Email',
      'Mobile Number',
      'Code',
      'Type',
      'Promotion Name (EN)',
      'Promotion Name (TH)',
      'Site Name',
      'Booking ID',
      'Discount (THB)',
      'Point',
      'License Plate',
      'Redeem Date',
      'Invoice No',
      'Refund (THB)',
      'Credit Note No',
      'Point Returned',
    ]);
    const base = {
      Surname: 'Driver',
      'Booking ID': null,
      'Discount (THB)': null,
      Point: null,
      'Invoice No': null,
      'Refund (THB)': null,
      'Credit Note No': null,
      'Point Returned': null,
    };
    expect(sheet.rows).toEqual([
      {
        ...base,
        Name: 'Mali',
        Email: mali.email,
        'Mobile Number': mali.tel,
        Code: 'FORTY',
        Type: 'Point Code',
        'Promotion Name (EN)': 'Forty points',
        'Promotion Name (TH)': 'สี่สิบแต้ม',
        // A public code on no booking applies anywhere.
        'Site Name': 'All sites',
        Point: 40,
        'License Plate': null,
        'Redeem Date': '15/03/2569 00:30:00',
      },
      {
        ...base,
        Name: 'Mali',
        Email: mali.email,
        'Mobile Number': mali.tel,
        Code: 'TENOFF',
        Type: 'Promotion Code',
        'Promotion Name (EN)': 'Ten off',
        'Promotion Name (TH)': 'ลดสิบ',
        // A discount on a booking is at the booking's site, public or not.
        'Site Name': 'North Site',
        'Booking ID': northBookingId,
        'Discount (THB)': 12.5,
        'License Plate': null,
        'Redeem Date': expect.stringMatching(/^\d{2}\/\d{2}\/2569 \d{2}:\d{2}:\d{2}$/),
      },
      expect.objectContaining({
        ...base,
        Name: 'Niran',
        Code: 'SOUTHONLY',
        Type: 'Promotion Code',
        'Site Name': 'South Site',
        'Booking ID': southBookingId,
        // Not paid yet: no discount taken off.
        'Discount (THB)': null,
      }),
      expect.objectContaining({
        ...base,
        Name: 'Somchai',
        Email: somchai.email,
        Code: 'PRIVNS',
        Type: 'Private Station Code',
        'Promotion Name (EN)': 'Private NS',
        // The promotion's sites by name.
        'Site Name': 'North Site, South Site',
        'License Plate': 'กก 9999',
      }),
    ]);
  });

  it('filters by name, surname, email, mobile number and code, partly and whatever the case', async () => {
    expect(await codes('firstName=MAL')).toEqual(['FORTY', 'TENOFF']);
    expect(await codes('lastName=rive&firstName=%20niran')).toEqual(['SOUTHONLY']);
    expect(await codes(`email=${encodeURIComponent(somchai.email.slice(0, 8).toUpperCase())}`)).toEqual([
      'PRIVNS',
    ]);
    expect(await codes(`tel=${niran.tel!.slice(-5)}`)).toEqual(['SOUTHONLY']);
    expect(await codes('code=off')).toEqual(['TENOFF']);
    expect(await codes('code=o')).toEqual(['FORTY', 'TENOFF', 'SOUTHONLY']);
    // % and _ match themselves.
    expect(await codes('code=%25')).toEqual([]);
    expect(await codes('firstName=M_li')).toEqual([]);
  });

  it('filters by cluster and site where each redemption applies (a point code is at no site)', async () => {
    expect(await codes(`merchantId=${north.merchant.id}`)).toEqual(['TENOFF', 'PRIVNS']);
    expect(await codes(`merchantId=${south.merchant.id}`)).toEqual(['SOUTHONLY', 'PRIVNS']);
    expect(await codes(`landlordId=${north.site.id}`)).toEqual(['TENOFF', 'PRIVNS']);
    expect(await codes(`landlordId=${north.site.id}&landlordId=${south.site.id}`)).toEqual([
      'TENOFF',
      'SOUTHONLY',
      'PRIVNS',
    ]);
    expect(
      await codes(`merchantId=${north.merchant.id}&merchantId=${south.merchant.id}&firstName=mali`),
    ).toEqual(['TENOFF']);
  });

  it('filters by redeem date (instants from the form, Bangkok days)', async () => {
    const day = 'createdAfter=2026-03-15T00:00:00.000%2B07:00&createdBefore=2026-03-15T23:59:59.999%2B07:00';
    expect(await codes(day)).toEqual(['FORTY']);
    expect(await codes('createdAfter=2026-03-16T00:00:00.000%2B07:00')).toEqual([
      'TENOFF',
      'SOUTHONLY',
      'PRIVNS',
    ]);
    // The exact instant is inside either bound.
    expect(
      await codes(
        `createdAfter=${POINT_REDEEMED.toISOString()}&createdBefore=${POINT_REDEEMED.toISOString()}`,
      ),
    ).toEqual(['FORTY']);
  });

  it("answers 404 'No matched discount found' when none match, 400 for a bad date or id", async () => {
    const none = await report('createdBefore=2026-03-14T23:59:59.999%2B07:00');
    expect(none).toMatchObject({ status: 404, message: USER_PROMOTION_MESSAGES.reportNotFound });
    expect((await report('firstName=nobody')).status).toBe(404);
    for (const query of [
      'createdAfter=14/03/2026',
      'createdBefore=2026-13-40T00:00:00Z',
      'createdAfter=2026-03-14',
      'merchantId=abc',
      'landlordId=0',
    ]) {
      const bad = await report(query);
      expect(bad.status, query).toBe(400);
      expect(bad.message, query).toMatch(/^querystring\./);
    }
  });

  it('is for admin and marketting (whole network); 403 for the other roles', async () => {
    const marketting = (await signedInUser(t, { role: 'marketting' })).token;
    expect((await report('', marketting)).rows).toHaveLength(4);
    for (const role of ['station', 'callcenter', 'merchant', 'party', 'landlord'] as const) {
      const token = (await signedInUser(t, { role })).token;
      expect((await report('', token)).status, role).toBe(403);
    }
  });

  it('reads batch after batch by the last row, ties broken by id (5,003 redemptions at one instant)', async () => {
    const { id } = await createPromotion(t, admin, { code: 'BULKREPORT', nameEn: 'Bulk', ...pointCode(1) });
    await bulkRedemptions(t, id, 'BULKREPORT', 5003, 'Bulk');
    const started = performance.now();
    const sheet = await report('code=bulkreport');
    const seconds = (performance.now() - started) / 1000;
    const got = sheet.rows.map((row) => row.Name);
    expect(got).toHaveLength(5003);
    expect(new Set(got).size).toBe(5003);
    expect(got[0]).toBe('Bulk00001');
    expect(got.at(-1)).toBe('Bulk05003');
    expect(got).toEqual([...got].sort());
    console.info(`coupon report: 5,003 rows in ${seconds.toFixed(2)} s (written and read back)`);
  });

  it('shows the green points a payment redeemed, and what its refund gave back, beside the codes', async () => {
    await t.database.db.insert(pointRates).values({
      fromBaht: '25.00',
      toPoint: '1.00',
      fromPoint: '100.00',
      toBaht: '10.00',
      validFrom: new Date(Date.now() - 3_600_000),
    });
    const { user, token } = await memberWithSession(t, 'Payer');
    await t.database.db.transaction((tx) =>
      movePoints(tx, { userId: user.id, kind: 'code', points: 500, source: `test:payer:${user.id}` }),
    );
    await createPromotion(t, admin, {
      code: 'PAYDAY',
      nameEn: 'Pay day',
      discountPercent: 0,
      discountBaht: 15,
    });
    const booking = await createBooking(t, northConnectorId, 'stopped', { userId: user.id });
    await redeem(t, token, { code: 'payday', bookingId: booking.id });
    // 100.00 - 15.00 - 300 points (30.00) = 55.00
    const paid = await t.call('POST', `/api/member/booking/${booking.id}/pay`, {
      token,
      body: { method: 'credit', amount: 55, point: 300 },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const [payment] = await t.database.db.select().from(payments).where(eq(payments.bookingId, booking.id));
    const refunded = await t.call('POST', `/api/payment/${payment!.id}/refund`, {
      token: admin,
      body: { amount: 55 },
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const [after] = await t.database.db.select().from(payments).where(eq(payments.id, payment!.id));
    const paidRows = {
      'Site Name': 'North Site',
      'Booking ID': booking.id,
      'Invoice No': payment!.invoiceNo,
      'Refund (THB)': 55,
      'Credit Note No': after!.creditNoteNo,
    };
    const sheet = await report(`email=${encodeURIComponent(user.email!)}`);
    expect(sheet.rows).toEqual([
      expect.objectContaining({
        ...paidRows,
        Code: 'PAYDAY',
        Type: 'Promotion Code',
        'Discount (THB)': 15,
        Point: null,
        'Point Returned': null,
      }),
      expect.objectContaining({
        ...paidRows,
        Code: null,
        Type: 'Green Point',
        'Promotion Name (EN)': null,
        'Discount (THB)': 30,
        Point: -300,
        // A full refund gives the redeemed points back.
        'Point Returned': 300,
      }),
    ]);
    // A code filter matches codes only; a site filter matches the payment's site.
    expect((await report(`email=${encodeURIComponent(user.email!)}&code=payday`)).rows).toHaveLength(1);
    expect(
      (await report(`email=${encodeURIComponent(user.email!)}&landlordId=${south.site.id}`)).status,
    ).toBe(404);
    expect(
      (await report(`email=${encodeURIComponent(user.email!)}&landlordId=${north.site.id}`)).rows,
    ).toHaveLength(2);
  });
});
