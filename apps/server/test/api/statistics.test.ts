import type { PaymentItem, StatFigures, StatisticsResponse, StatisticsRow } from '@ev/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorTypes, promotionCodes, promotionRedemptions } from '../../src/db/schema/index.ts';
import { createBooking } from '../helpers/bookings.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers } from '../helpers/ocpp.ts';
import { createPromotion, readSheet } from '../helpers/promotions.ts';
import { bkk, createPayment } from '../helpers/statistics.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * GET /api/statistics and its export (issue 35 §2) through real HTTP on a data set with known figures: two
 * sites of two clusters, two connectors each, four sessions in March and April 2026 (Bangkok), three payments
 * (a discount code and points on one, a refund made in April of a March payment, a failed refund), and the
 * bookings every measure must leave out (deleted, cancelled before starting).
 */
let t: TestApp;
let admin: string;
let siteUserA: string;
let clusterUserB: string;
let place: { a: Awaited<ReturnType<typeof chargerPlace>>; b: Awaited<ReturnType<typeof chargerPlace>> };
let connectorA1: number;
let promotionId: number;
let typeName: string;

const DAY = 86_400;
const FROM = bkk('2026-03-01T00:00');
const TO = bkk('2026-05-01T00:00');
const RANGE = `from=${encodeURIComponent(FROM.toISOString())}&to=${encodeURIComponent(TO.toISOString())}`;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  place = { a: await chargerPlace(t), b: await chargerPlace(t) };
  const [a] = await createChargers(t, admin, place.a, ['STAT-A1']);
  const [b] = await createChargers(t, admin, place.b, ['STAT-B1']);
  siteUserA = (await signedInUser(t, { role: 'landlord', landlordId: place.a.site.id })).token;
  clusterUserB = (await signedInUser(t, { role: 'merchant', merchantId: place.b.merchant.id })).token;
  const [a1, a2] = a!.connectorIds as [number, number];
  connectorA1 = a1;
  const [b1, b2] = b!.connectorIds as [number, number];
  const [type] = await t.database.db.select().from(connectorTypes).where(eq(connectorTypes.id, 4));
  typeName = type!.name;

  // Site A, Monday 2 March: 1 h charging, 10 min cable in, 10 kWh, paid with a discount code and points.
  const one = await createBooking(t, a1, 'paid', {
    createdAt: bkk('2026-03-02T07:55'),
    startTime: bkk('2026-03-02T08:00'),
    stopTime: bkk('2026-03-02T09:00'),
    avaliableAt: bkk('2026-03-02T09:10'),
    energyWh: 10_000,
    paymentMethod: 'credit',
  });
  const p1 = await createPayment(t, one.id, bkk('2026-03-02T09:15'), {
    amount: '70.00',
    discount: '20.00',
    point: '10.00',
  });
  const promotion = await createPromotion(t, admin, {
    code: `STATX${Date.now().toString(36).toUpperCase()}`,
  });
  promotionId = promotion.id;
  const [code] = await t.database.db
    .select()
    .from(promotionCodes)
    .where(eq(promotionCodes.promotionId, promotionId));
  await t.database.db.insert(promotionRedemptions).values({
    userId: one.userId!,
    codeId: code!.id,
    promotionId,
    bookingId: one.id,
    paymentId: p1.id,
    discount: '20.00',
  });
  // Site A, started 23:30 on 2 March, stopped after midnight (its day is its start's), cable out at once;
  // paid at 01:00 on 3 March by QR, 20 THB of it refunded a month later (still March's payment).
  const two = await createBooking(t, a2, 'paid', {
    createdAt: bkk('2026-03-02T23:25'),
    startTime: bkk('2026-03-02T23:30'),
    stopTime: bkk('2026-03-03T00:30'),
    avaliableAt: bkk('2026-03-03T00:30'),
    energyWh: 5_000,
    paymentMethod: 'qr',
    totalAmount: '50.00',
  });
  await createPayment(t, two.id, bkk('2026-03-03T01:00'), {
    amount: '50.00',
    refund: { amount: '20.00', at: bkk('2026-04-02T10:00') },
  });
  // Site B, 3 March: 30 min plugged in, no energy (a failed plug-in), unpaid.
  await createBooking(t, b1, 'stopped', {
    createdAt: bkk('2026-03-03T09:55'),
    startTime: bkk('2026-03-03T10:00'),
    stopTime: bkk('2026-03-03T10:30'),
    avaliableAt: bkk('2026-03-03T10:40'),
    energyWh: 0,
  });
  // Site B, 1 April: 2 h, 20 kWh, paid 150 THB; a refund the provider refused counts for nothing.
  const four = await createBooking(t, b2, 'paid', {
    createdAt: bkk('2026-04-01T11:55'),
    startTime: bkk('2026-04-01T12:00'),
    stopTime: bkk('2026-04-01T14:00'),
    avaliableAt: bkk('2026-04-01T14:00'),
    energyWh: 20_000,
    paymentMethod: 'credit',
    totalAmount: '150.00',
  });
  await createPayment(t, four.id, bkk('2026-04-01T14:05'), {
    amount: '150.00',
    refund: { status: 'failed' },
  });
  // Left out everywhere: a deleted session, and a booking cancelled before it started.
  await createBooking(t, a1, 'charging', {
    createdAt: bkk('2026-03-02T10:00'),
    startTime: bkk('2026-03-02T10:05'),
    energyWh: 99_999,
    deletedAt: bkk('2026-03-02T10:30'),
  });
  await createBooking(t, a2, 'cancelled', { createdAt: bkk('2026-03-04T10:00') });
});
afterAll(() => t.close());

async function stats(query: string, token = admin): Promise<StatisticsResponse> {
  const response = await t.call('GET', `/api/statistics?${RANGE}&${query}`, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as StatisticsResponse;
}

const ZERO: StatFigures = {
  energyWh: 0,
  revenue: 0,
  sessions: 0,
  chargingSeconds: 0,
  idleSeconds: 0,
  utilisation: 0,
  discount: 0,
  point: 0,
  refund: 0,
};
/** Figures with the utilisation of `connectors` over `days` whole days. */
const figures = (part: Partial<StatFigures>, connectors: number | null, days: number): StatFigures => {
  const all = { ...ZERO, ...part };
  return {
    ...all,
    utilisation: connectors === null ? null : all.chargingSeconds / (connectors * days * DAY),
  };
};

const MARCH_2 = { energyWh: 15_000, sessions: 2, chargingSeconds: 7200, idleSeconds: 600 };
const MARCH_2_PAID = { revenue: 70, discount: 20, point: 10 };
const MARCH_3 = { energyWh: 0, sessions: 1, chargingSeconds: 1800, idleSeconds: 600 };
const MARCH_3_PAID = { revenue: 30, refund: 20 };
const APRIL_1 = { energyWh: 20_000, sessions: 1, chargingSeconds: 7200, revenue: 150 };
const SITE_A_MARCH = { ...MARCH_2, ...MARCH_2_PAID, revenue: 100, refund: 20 };
const SITE_B_MARCH = MARCH_3;

const byPeriod = (rows: StatisticsRow[]) => new Map(rows.map((row) => [`${row.period}|${row.key}`, row]));
const strip = ({ period: _p, key: _k, label: _l, ...rest }: StatisticsRow) => rest;

describe('GET /api/statistics', () => {
  it('by day: every Bangkok day of the range, a session on its start’s day, a payment on its own', async () => {
    const { rows, totals } = await stats('period=day');
    expect(rows).toHaveLength(61);
    expect(rows[0]!.period).toBe('2026-03-01');
    expect(rows.at(-1)!.period).toBe('2026-04-30');
    const days = byPeriod(rows);
    expect(strip(days.get('2026-03-01|null')!)).toEqual(figures({}, 4, 1));
    expect(strip(days.get('2026-03-02|null')!)).toEqual(figures({ ...MARCH_2, ...MARCH_2_PAID }, 4, 1));
    expect(strip(days.get('2026-03-03|null')!)).toEqual(figures({ ...MARCH_3, ...MARCH_3_PAID }, 4, 1));
    expect(strip(days.get('2026-04-01|null')!)).toEqual(figures(APRIL_1, 4, 1));
    // The April refund belongs to the March payment: 2 April has nothing.
    expect(strip(days.get('2026-04-02|null')!)).toEqual(figures({}, 4, 1));
    expect(days.get('2026-03-02|null')).toMatchObject({ key: null, label: null });
    expect(totals).toEqual(
      figures(
        {
          energyWh: 35_000,
          sessions: 4,
          chargingSeconds: 16_200,
          idleSeconds: 1200,
          revenue: 250,
          discount: 20,
          point: 10,
          refund: 20,
        },
        4,
        61,
      ),
    );
  });

  it('by week (ISO, Monday first) and by year', async () => {
    const weeks = byPeriod((await stats('period=week')).rows);
    // 1 March 2026 is a Sunday: its week began on Monday 23 February, cut to the range (one day).
    expect(strip(weeks.get('2026-02-23|null')!)).toEqual(figures({}, 4, 1));
    expect(strip(weeks.get('2026-03-02|null')!)).toEqual(
      figures(
        {
          energyWh: 15_000,
          sessions: 3,
          chargingSeconds: 9000,
          idleSeconds: 1200,
          ...MARCH_2_PAID,
          revenue: 100,
          refund: 20,
        },
        4,
        7,
      ),
    );
    const years = (await stats('period=year')).rows;
    expect(years).toHaveLength(1);
    expect(years[0]).toMatchObject({ period: '2026-01-01', energyWh: 35_000, revenue: 250 });
  });

  it('by month, split none and by cluster, site, charger and connector type', async () => {
    const none = byPeriod((await stats('period=month')).rows);
    expect([...none.keys()]).toEqual(['2026-03-01|null', '2026-04-01|null']);
    const march = { energyWh: 15_000, sessions: 3, chargingSeconds: 9000, idleSeconds: 1200 };
    expect(strip(none.get('2026-03-01|null')!)).toEqual(
      figures({ ...march, revenue: 100, discount: 20, point: 10, refund: 20 }, 4, 31),
    );
    expect(strip(none.get('2026-04-01|null')!)).toEqual(figures(APRIL_1, 4, 30));

    const splits = [
      [
        'merchant',
        place.a.merchant.id,
        place.b.merchant.id,
        place.a.merchant.nameEn,
        place.b.merchant.nameEn,
      ],
      ['landlord', place.a.site.id, place.b.site.id, place.a.site.nameEn, place.b.site.nameEn],
      ['charger', 'STAT-A1', 'STAT-B1', 'Charger STAT-A1', 'Charger STAT-B1'],
    ] as const;
    for (const [split, a, b, labelA, labelB] of splits) {
      const { rows, totals } = await stats(`period=month&split=${split}`);
      expect(
        rows.map((row) => [row.period, row.key, row.label]),
        split,
      ).toEqual([
        ['2026-03-01', String(a), labelA],
        ['2026-03-01', String(b), labelB],
        ['2026-04-01', String(b), labelB],
      ]);
      expect(rows.map(strip), split).toEqual([
        figures(SITE_A_MARCH, 2, 31),
        figures(SITE_B_MARCH, 2, 31),
        figures(APRIL_1, 2, 30),
      ]);
      expect(totals.revenue, split).toBe(250);
    }

    const types = (await stats('period=month&split=connectorType')).rows;
    expect(types.map((row) => [row.period, row.key, row.label])).toEqual([
      ['2026-03-01', '4', typeName],
      ['2026-04-01', '4', typeName],
    ]);
    expect(types.map(strip)).toEqual([
      strip(none.get('2026-03-01|null')!),
      strip(none.get('2026-04-01|null')!),
    ]);
  });

  it('by payment method and by promotion: no utilisation, a session and its payment under one key', async () => {
    const methods = await stats('period=month&split=paymentMethod');
    expect(methods.rows.map((row) => [row.period, row.key, row.label])).toEqual([
      ['2026-03-01', null, null],
      ['2026-03-01', 'credit', 'Credit / Debit Card'],
      ['2026-03-01', 'qr', 'QR Promptpay'],
      ['2026-04-01', 'credit', 'Credit / Debit Card'],
    ]);
    expect(methods.rows.map(strip)).toEqual([
      figures(MARCH_3, null, 31),
      figures(
        { energyWh: 10_000, sessions: 1, chargingSeconds: 3600, idleSeconds: 600, ...MARCH_2_PAID },
        null,
        31,
      ),
      figures({ energyWh: 5000, sessions: 1, chargingSeconds: 3600, ...MARCH_3_PAID }, null, 31),
      figures(APRIL_1, null, 30),
    ]);
    // The totals keep the utilisation of every connector in scope.
    expect(methods.totals.utilisation).toBe(16_200 / (4 * 61 * DAY));

    const promotions = await stats('period=month&split=promotion');
    expect(promotions.rows.map((row) => [row.period, row.key, row.label])).toEqual([
      ['2026-03-01', null, null],
      ['2026-03-01', String(promotionId), 'Promotion'],
      ['2026-04-01', null, null],
    ]);
    expect(promotions.rows.map(strip)).toEqual([
      figures(
        { energyWh: 5000, sessions: 2, chargingSeconds: 5400, idleSeconds: 600, ...MARCH_3_PAID },
        null,
        31,
      ),
      figures(
        { energyWh: 10_000, sessions: 1, chargingSeconds: 3600, idleSeconds: 600, ...MARCH_2_PAID },
        null,
        31,
      ),
      figures(APRIL_1, null, 30),
    ]);
  });

  it('takes the Booking Report’s filters: charger (partly), connector, site, cluster, payment method', async () => {
    const site = await stats(`period=month&landlordId=${place.a.site.id}`);
    expect(site.totals).toEqual(figures(SITE_A_MARCH, 2, 61));
    expect((await stats(`period=month&merchantId=${place.b.merchant.id}`)).totals.energyWh).toBe(20_000);
    expect((await stats('period=month&chargerId=stat-a')).totals).toEqual(figures(SITE_A_MARCH, 2, 61));
    expect((await stats(`period=month&connectorId=${connectorA1}`)).totals).toEqual(
      figures(
        { energyWh: 10_000, sessions: 1, chargingSeconds: 3600, idleSeconds: 600, ...MARCH_2_PAID },
        1,
        61,
      ),
    );
    expect((await stats('period=month&paymentMethod=qr')).totals).toEqual(
      figures({ energyWh: 5000, sessions: 1, chargingSeconds: 3600, ...MARCH_3_PAID }, 4, 61),
    );
  });

  it('is scoped: a site user and a cluster user see their own; a filter outside the scope matches nothing', async () => {
    const site = await stats('period=month', siteUserA);
    expect(site.rows.map(strip)).toEqual([figures(SITE_A_MARCH, 2, 31), figures({}, 2, 30)]);
    expect(site.totals).toEqual(figures(SITE_A_MARCH, 2, 61));
    const bySite = await stats('period=month&split=landlord', siteUserA);
    expect(bySite.rows.map((row) => row.key)).toEqual([String(place.a.site.id)]);
    const cluster = await stats('period=month', clusterUserB);
    expect(cluster.totals).toEqual(
      figures({ ...SITE_B_MARCH, ...APRIL_1, idleSeconds: 600, chargingSeconds: 9000, sessions: 2 }, 2, 61),
    );

    // As the Booking Report: the filter narrows within the scope, never beyond (its report answers 404).
    const outside = await stats(`period=month&landlordId=${place.b.site.id}`, siteUserA);
    expect(outside.totals).toEqual({ ...ZERO, utilisation: null });
    expect(outside.rows.map(strip)).toEqual([
      { ...ZERO, utilisation: null },
      { ...ZERO, utilisation: null },
    ]);
    const report = await fetch(
      `${t.url}/api/report/booking?landlordId=${place.b.site.id}&paymentAfter=${encodeURIComponent(FROM.toISOString())}`,
      { headers: { 'X-ACCESS-TOKEN': siteUserA } },
    );
    expect(report.status).toBe(404);
  });

  it('refuses a missing, reversed or too long range and an unknown period or split with 400 {message}', async () => {
    const bad = [
      `to=${encodeURIComponent(TO.toISOString())}`,
      `from=${encodeURIComponent(FROM.toISOString())}`,
      `from=${encodeURIComponent(TO.toISOString())}&to=${encodeURIComponent(FROM.toISOString())}`,
      `from=${encodeURIComponent(FROM.toISOString())}&to=${encodeURIComponent(FROM.toISOString())}`,
      `from=2020-01-01T00:00:00.000Z&to=2026-01-01T00:00:00.000Z`,
      `${RANGE}&split=site`,
      `${RANGE}&period=quarter`,
      'from=yesterday&to=today',
    ];
    for (const query of bad) {
      const response = await t.call('GET', `/api/statistics?${query}`, { token: admin });
      expect(response.status, query).toBe(400);
      expect(typeof response.body.message, query).toBe('string');
      const sheet = await t.call('GET', `/api/statistics/export?${query}`, { token: admin });
      expect(sheet.status, query).toBe(400);
    }
    expect((await t.call('GET', `/api/statistics?${RANGE}`)).status).toBe(401);
  });
});

describe('GET /api/statistics/export', () => {
  it('is the table: Statistics_{timestamp}.xlsx, one row a period and key, Thai dates, kWh, baht', async () => {
    const query = `${RANGE}&period=month&split=landlord`;
    const json = await stats('period=month&split=landlord');
    const sheet = await readSheet(t, `/api/statistics/export?${query}`, admin);
    expect(sheet.status).toBe(200);
    expect(sheet.fileName).toMatch(/^Statistics_\d{14}\.xlsx$/);
    expect(sheet.header).toEqual([
      'Period',
      'Site Name',
      'Energy (kWh)',
      'Revenue (THB)',
      'Sessions',
      'Charging (hh:mm:ss)',
      'Idle (hh:mm:ss)',
      'Utilisation (%)',
      'Discount (THB)',
      'Green Point (THB)',
      'Refund (THB)',
    ]);
    expect(sheet.rows).toHaveLength(json.rows.length);
    expect(sheet.rows[0]).toEqual({
      Period: '01/03/2569',
      'Site Name': place.a.site.nameEn,
      'Energy (kWh)': 15,
      'Revenue (THB)': 100,
      Sessions: 2,
      'Charging (hh:mm:ss)': '02:00:00',
      'Idle (hh:mm:ss)': '00:10:00',
      'Utilisation (%)': Math.round((7200 / (2 * 31 * DAY)) * 10_000) / 100,
      'Discount (THB)': 20,
      'Green Point (THB)': 10,
      'Refund (THB)': 20,
    });
    json.rows.forEach((row, i) => {
      expect(sheet.rows[i]).toMatchObject({
        'Site Name': row.label,
        'Energy (kWh)': row.energyWh / 1000,
        'Revenue (THB)': row.revenue,
        Sessions: row.sessions,
        'Discount (THB)': row.discount,
        'Green Point (THB)': row.point,
        'Refund (THB)': row.refund,
      });
    });
    const none = await readSheet(
      t,
      `/api/statistics/export?${RANGE}&split=landlord&landlordId=${place.b.site.id}`,
      siteUserA,
    );
    expect(none).toMatchObject({ status: 404, message: 'No matched data found' });
    const days = await readSheet(t, `/api/statistics/export?${RANGE}`, siteUserA);
    expect(days.rows).toHaveLength(61);
    expect(days.header).not.toContain('Site Name');
    expect(days.rows[1]).toMatchObject({ Period: '02/03/2569', 'Energy (kWh)': 15, 'Revenue (THB)': 70 });
  });
});

describe('money against the Booking Report and the payment list', () => {
  /** The report's money columns summed: Raw where the role may have it, else Processed (a site user). */
  async function reportMoney(query: string, token: string, raw: boolean) {
    const sheet = await readSheet(
      t,
      `/api/report/booking?style=${raw ? 'raw' : 'processed'}&${query}`,
      token,
    );
    expect(sheet.status).toBe(200);
    const satang = (value: unknown) => Math.round(Number(value ?? 0) * 100);
    const sum = (field: string) => sheet.rows.reduce((total, row) => total + satang(row[field]), 0);
    const discount = sum(raw ? 'discount' : 'Discount (THB)');
    const point = sum(raw ? 'point' : 'Green Point (THB)');
    const refund = sum(raw ? 'refundAmount' : 'Refund (THB)');
    // The report's total is the booking's, before the discount and the points came off.
    const revenue = sum(raw ? 'totalAmount' : 'Total (THB)') - discount - point - refund;
    return { revenue, discount, point, refund, rows: sheet.rows.length };
  }
  const satangOf = (totals: StatFigures) => ({
    revenue: Math.round(totals.revenue * 100),
    discount: Math.round(totals.discount * 100),
    point: Math.round(totals.point * 100),
    refund: Math.round(totals.refund * 100),
  });
  const between = (from: Date, to: Date) =>
    `paymentAfter=${encodeURIComponent(from.toISOString())}&paymentBefore=${encodeURIComponent(new Date(to.getTime() - 1).toISOString())}`;

  it('agrees to the satang for the same payments, with real payments and refunds through the API', async () => {
    // A payment and a partial refund made now through the staff API, as a member's would be.
    const place3 = await chargerPlace(t);
    const [c] = await createChargers(t, admin, place3, ['STAT-C1']);
    const booking = await createBooking(t, c!.connectorIds[0]!, 'stopped');
    expect((await t.call('POST', `/api/booking/${booking.id}/pay`, { token: admin })).status).toBe(200);
    const paid = (await t.call('GET', `/api/payment?bookingId=${booking.id}`, { token: admin })).body
      .payments[0] as PaymentItem;
    const refund = await t.call('POST', `/api/payment/${paid.id}/refund`, {
      token: admin,
      body: { amount: 12.34 },
    });
    expect(refund.status).toBe(200);

    const from = FROM;
    const to = new Date(Date.now() + 60_000);
    const range = `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
    const cases: Array<[string, string, string]> = [
      ['', '', admin],
      [`landlordId=${place.a.site.id}`, `landlordId=${place.a.site.id}`, admin],
      ['paymentMethod=credit', 'paymentMethod=credit', admin],
      ['chargerId=STAT-', 'chargerId=STAT-', admin],
      ['', '', siteUserA],
      ['', '', clusterUserB],
    ];
    for (const [filters, reportFilters, token] of cases) {
      const response = await t.call('GET', `/api/statistics?${range}&period=month&${filters}`, { token });
      expect(response.status).toBe(200);
      const money = await reportMoney(`${between(from, to)}&${reportFilters}`, token, token !== siteUserA);
      expect(satangOf(response.body.totals), `${filters} ${token === admin ? 'admin' : 'scoped'}`).toEqual({
        revenue: money.revenue,
        discount: money.discount,
        point: money.point,
        refund: money.refund,
      });
    }
    const all = (await t.call('GET', `/api/statistics?${range}&period=month`, { token: admin })).body
      .totals as StatFigures;
    expect(satangOf(all).refund).toBe(2000 + 1234);

    // The payment list: what was paid less what was refunded of it.
    const list = await t.call(
      'GET',
      `/api/payment?createdAfter=${encodeURIComponent(from.toISOString())}&createdBefore=${encodeURIComponent(to.toISOString())}&size=100`,
      { token: admin },
    );
    const payments = list.body.payments as PaymentItem[];
    const listed = payments.reduce(
      (sum, payment) =>
        sum +
        Math.round(payment.amount * 100) -
        (payment.refundedAt ? Math.round((payment.refundAmount ?? 0) * 100) : 0),
      0,
    );
    expect(satangOf(all).revenue).toBe(listed);
    expect(satangOf(all).discount).toBe(payments.reduce((sum, p) => sum + Math.round(p.discount * 100), 0));
    expect(satangOf(all).point).toBe(payments.reduce((sum, p) => sum + Math.round(p.point * 100), 0));
  });
});
