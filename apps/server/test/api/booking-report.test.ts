import { BOOKING_MESSAGES, type BookingItem, type PaymentItem } from '@ev/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking } from '../helpers/bookings.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: string;
let siteUser: string;
let connectorId: number;
let paidId: number;
let otherId: number;
// 17:30 UTC is 00:30 the next day in Bangkok: the report must show the Bangkok date.
const CREATED = new Date('2026-03-14T17:30:00.000Z');

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  const place = await chargerPlace(t);
  const other = await chargerPlace(t);
  connectorId = (await createChargers(t, admin, place, ['REPORT-01']))[0]!.connectorIds[0]!;
  const otherConnector = (await createChargers(t, admin, other, ['REPORT-02']))[0]!.connectorIds[0]!;
  siteUser = (await signedInUser(t, { role: 'landlord', landlordId: place.site.id })).token;
  const paid = await createBooking(t, connectorId, 'paid', {
    createdAt: CREATED,
    startTime: new Date(CREATED.getTime() + 60_000),
    stopTime: new Date(CREATED.getTime() + 60_000 + 3_723_000),
    avaliableAt: new Date(CREATED.getTime() + 60_000 + 3_723_000 + 600_000),
  });
  paidId = paid.id;
  otherId = (await createBooking(t, otherConnector, 'stopped', { createdAt: CREATED })).id;
});
afterAll(() => t.close());

async function report(query: string, token = admin) {
  const response = await fetch(`${t.url}/api/report/booking?${query}`, {
    headers: { 'X-ACCESS-TOKEN': token },
  });
  if (response.status !== 200) {
    return { status: response.status, body: (await response.json()) as { message: string }, rows: [] };
  }
  expect(response.headers.get('content-disposition')).toMatch(/filename="Booking-Report_\d{14}\.xlsx"/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as never);
  const sheet = workbook.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
  const rows: Array<Record<string, unknown>> = [];
  for (let n = 2; n <= sheet.rowCount; n++) {
    const values = (sheet.getRow(n).values as unknown[]).slice(1);
    rows.push(Object.fromEntries(header.map((name, i) => [name, values[i] ?? null])));
  }
  return { status: 200, body: { message: '' }, rows };
}

const day = 'createdAfter=2026-03-14T00:00:00.000%2B07:00&createdBefore=2026-03-15T23:59:59.999%2B07:00';

describe('the booking report', () => {
  it('Processed: Thai dates in Asia/Bangkok, hh:mm:ss, labels and baht', async () => {
    const { rows } = await report(`${day}&connectorId=${connectorId}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      'Booking ID': paidId,
      'Service Date': '15/03/2569 00:30:00',
      Start: '15/03/2569 00:31:00',
      Duration: '01:02:03',
      'Energy (kWh)': 12,
      'By Power (THB)': 90,
      'By Penalty (THB)': 10,
      'Total (THB)': 100,
      'Payment Method': 'Credit / Debit Card',
      Status: 'Paid',
    });
  });

  it('Raw: ISO instants, Wh, seconds and codes under the API names', async () => {
    const { rows } = await report(`${day}&connectorId=${connectorId}&style=raw`);
    expect(rows[0]).toMatchObject({
      id: paidId,
      createdAt: CREATED.toISOString(),
      durationSeconds: 3723,
      totalEnergyWh: 12_000,
      totalAmount: 100,
      paymentMethod: 'credit',
      status: 'paid',
    });
  });

  it('is scoped: a site user gets its own site only, and Processed only', async () => {
    const { rows } = await report(day, siteUser);
    expect(rows.map((row) => row['Booking ID'])).toEqual([paidId]);
    const raw = await report(`${day}&style=raw`, siteUser);
    expect(raw.status).toBe(403);
    expect(raw.body.message).toBe('Style Raw is not allowed for your role');
  });

  it('answers 404 with the spec text when nothing matches, and 400 for a bad date', async () => {
    const none = await report('createdAfter=2030-01-01T00:00:00.000Z');
    expect(none.status).toBe(404);
    expect(none.body.message).toBe(BOOKING_MESSAGES.reportNotFound);
    const unpaidOnly = await report(`${day}&bookingId=${otherId}&paymentAfter=2026-01-01T00:00:00.000Z`);
    expect(unpaidOnly.rows.map((row) => row['Booking ID'])).not.toContain(otherId);
    expect((await report('createdAfter=14/03/2026')).status).toBe(400);
    expect((await report('style=fancy')).status).toBe(400);
  });
});

describe('every column against the list', () => {
  it('matches GET /api/booking and GET /api/payment for priced, overridden, refunded, live and cancelled rows', async () => {
    const place = await chargerPlace(t);
    const connector = (await createChargers(t, admin, place, ['REPORT-03']))[0]!.connectorIds[0]!;
    const at = (minutes: number) => new Date(CREATED.getTime() + minutes * 60_000);
    const overridden = await createBooking(t, connector, 'stopped', {
      createdAt: at(1),
      adminPriceByPower: '50.00',
      totalAmount: '60.00',
    });
    const flat = await createBooking(t, connector, 'stopped', {
      createdAt: at(2),
      adminAmount: '33.25',
      totalAmount: '33.25',
    });
    const refunded = await createBooking(t, connector, 'stopped', { createdAt: at(3) });
    expect((await t.call('POST', `/api/booking/${refunded.id}/pay`, { token: admin })).status).toBe(200);
    const [payment] = (
      (await t.call('GET', `/api/payment?bookingId=${refunded.id}`, { token: admin })).body as {
        payments: PaymentItem[];
      }
    ).payments;
    expect(
      (await t.call('POST', `/api/payment/${payment!.id}/refund`, { token: admin, body: { amount: 30 } }))
        .status,
    ).toBe(200);
    const live = await createBooking(t, connector, 'charging', {
      createdAt: at(4),
      startTime: at(5),
      soc: 42,
    });
    const cancelled = await createBooking(t, connector, 'cancelled', { createdAt: at(6) });

    const list = (
      await t.call('GET', `/api/booking?${day}&connectorId=${connector}&sort=createdAt&order=asc`, {
        token: admin,
      })
    ).body as { bookings: BookingItem[] };
    const items = new Map(list.bookings.map((item) => [item.id, item]));
    const ids = [overridden.id, flat.id, refunded.id, live.id, cancelled.id];
    expect([...items.keys()].sort()).toEqual([...ids].sort());
    const paid = (
      (await t.call('GET', `/api/payment?bookingId=${refunded.id}`, { token: admin })).body as {
        payments: PaymentItem[];
      }
    ).payments[0]!;
    expect(paid.refundAmount).toBe(30);

    const raw = await report(`${day}&connectorId=${connector}&style=raw`);
    expect(raw.rows.map((row) => row.id)).toEqual(ids);
    for (const row of raw.rows) {
      const item = items.get(row.id as number)!;
      expect(row).toMatchObject({
        userId: item.userId,
        firstName: item.firstName,
        lastName: item.lastName,
        email: item.email,
        tel: item.tel,
        merchantId: item.merchantId,
        merchantNameEn: item.merchantNameEn,
        landlordId: item.landlordId,
        landlordNameEn: item.landlordNameEn,
        chargerId: item.chargerId,
        connectorId: item.connectorId,
        connectorTypeId: item.connectorTypeId,
        createdAt: item.createdAt,
        slotStart: item.slotStart,
        slotEnd: item.slotEnd,
        startTime: item.startTime,
        stopTime: item.stopTime,
        avaliableAt: item.avaliableAt,
        fullAt: item.fullAt,
        totalEnergyWh: item.totalEnergyKwh * 1000,
        soc: item.soc,
        priceByPower: item.computed.priceByPower,
        priceByDuration: item.computed.priceByDuration,
        priceByPenalty: item.computed.priceByPenalty,
        adminPriceByPower: item.overrides.priceByPower,
        adminPriceByDuration: item.overrides.priceByDuration,
        adminPriceByPenalty: item.overrides.priceByPenalty,
        adminAmount: item.adminAmount,
        totalAmount: item.totalAmount,
        paymentMethod: item.paymentMethod,
        invoiceNo: item.invoiceNo,
        status: item.status,
      });
      const payment = row.id === refunded.id ? paid : null;
      expect(row).toMatchObject({
        paidAt: payment?.createdAt ?? null,
        refundedAt: payment?.refundedAt ?? null,
        refundAmount: payment?.refundAmount ?? null,
        creditNoteNo: payment?.creditNoteNo ?? null,
      });
    }
    // The overrides and the admin amount as the list shows them; the live row priced now (12 kWh x 7.50).
    expect(raw.rows[0]).toMatchObject({ adminPriceByPower: 50, totalAmount: 60 });
    expect(raw.rows[1]).toMatchObject({ adminAmount: 33.25, totalAmount: 33.25 });
    expect(raw.rows[3]).toMatchObject({ priceByPower: 90, status: 'charging', soc: 42 });

    const processed = await report(`${day}&connectorId=${connector}`);
    for (const row of processed.rows) {
      const item = items.get(row['Booking ID'] as number)!;
      expect(row).toMatchObject({
        'Cluster Name': item.merchantNameEn,
        'Site Name': item.landlordNameEn,
        'Charger Name': item.chargerNameEn,
        Connector: item.connectorNameEn,
        'By Power (THB)': item.priceByPower,
        'By Duration (THB)': item.priceByDuration,
        'By Penalty (THB)': item.priceByPenalty,
        'Overstay (min)': item.computed.overstayMinutes,
        'Total (THB)': item.totalAmount,
        'Invoice No': item.invoiceNo,
      });
    }
    expect(processed.rows[2]).toMatchObject({ 'Refund (THB)': 30, 'Credit Note No': paid.creditNoteNo });
  });
});
