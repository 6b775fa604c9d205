import { BOOKING_MESSAGES } from '@ev/shared';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingEvents, payments } from '../../src/db/schema/index.ts';
import { createBooking } from '../helpers/bookings.ts';
import { createUser, signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: string;
let callcenter: string;
let connectorId: number;
const year = new Date(Date.now() + 7 * 3_600_000).getUTCFullYear();

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  callcenter = (await signedInUser(t, { role: 'callcenter' })).token;
  const place = await chargerPlace(t);
  connectorId = (await createChargers(t, admin, place, ['PAY-01']))[0]!.connectorIds[0]!;
});
afterAll(() => t.close());

/** A stopped booking paid by the staff (manual): its payment row. */
async function paidBooking(overrides: Parameters<typeof createBooking>[3] = {}) {
  const booking = await createBooking(t, connectorId, 'stopped', overrides);
  const paid = await t.call('POST', `/api/booking/${booking.id}/pay`, { token: admin });
  expect(paid.status).toBe(200);
  const [payment] = await t.database.db.select().from(payments).where(eq(payments.bookingId, booking.id));
  return { booking, payment: payment! };
}

const refund = (id: number, amount: unknown, token = admin) =>
  t.call('POST', `/api/payment/${id}/refund`, { token, body: { amount } });

describe('the payment list', () => {
  it('lists payments with the section 2 columns, newest first, for admin only', async () => {
    const { booking, payment } = await paidBooking();
    const response = await t.call('GET', `/api/payment?bookingId=${booking.id}`, { token: admin });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      total: 1,
      payments: [
        {
          id: payment.id,
          invoiceNo: payment.invoiceNo,
          firstName: expect.any(String),
          email: expect.stringContaining('@'),
          merchantNameEn: expect.any(String),
          landlordNameEn: expect.any(String),
          bookingId: booking.id,
          method: 'manual',
          amount: 100,
          refundedAt: null,
        },
      ],
    });
    expect(payment.invoiceNo).toMatch(new RegExp(`^INV-${year}-\\d{6}$`));
    expect((await t.call('GET', '/api/payment', { token: callcenter })).status).toBe(403);
  });

  it('filters by invoice number and method', async () => {
    const { payment } = await paidBooking();
    const found = await t.call(
      'GET',
      `/api/payment?invoiceNo=${payment.invoiceNo.slice(-6)}&paymentMethod=manual`,
      {
        token: admin,
      },
    );
    expect(found.body.payments.map((row: { id: number }) => row.id)).toEqual([payment.id]);
    const none = await t.call('GET', `/api/payment?invoiceNo=${payment.invoiceNo}&paymentMethod=credit`, {
      token: admin,
    });
    expect(none.body.total).toBe(0);
  });

  it('exports Payment_{timestamp}.xlsx with the same filters', async () => {
    const { payment } = await paidBooking();
    const response = await fetch(`${t.url}/api/payment?mode=xlsx&invoiceNo=${payment.invoiceNo}`, {
      headers: { 'X-ACCESS-TOKEN': admin },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/filename="Payment_\d{14}\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as never);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Invoice No');
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(1).value).toBe(payment.invoiceNo);
  });
});

describe('refunds', () => {
  it('refunds once with a credit note naming the invoice, then refuses', async () => {
    const { booking, payment } = await paidBooking();
    const done = await refund(payment.id, 40);
    expect(done.status).toBe(200);
    expect(done.body.message).toBe(BOOKING_MESSAGES.refunded);
    const [row] = await t.database.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(row).toMatchObject({ refundAmount: '40.00', refundStatus: 'manual' });
    expect(row!.creditNoteNo).toMatch(new RegExp(`^CN-${year}-\\d{6}$`));
    expect(row!.refundedAt).not.toBeNull();
    const events = await t.database.db
      .select()
      .from(bookingEvents)
      .where(eq(bookingEvents.bookingId, booking.id));
    expect(events.at(-1)).toMatchObject({
      event: 'refund',
      detail: { invoiceNo: payment.invoiceNo, creditNoteNo: row!.creditNoteNo, amount: '40.00' },
    });
    const again = await refund(payment.id, 10);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('already refunded');
  });

  it('refuses more than was paid, and anything but a number', async () => {
    const { payment } = await paidBooking();
    const tooMuch = await refund(payment.id, 100.01);
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.message).toContain('100.00');
    const text = await refund(payment.id, 'ten');
    expect(text.status).toBe(400);
    expect(text.body.message).toContain(BOOKING_MESSAGES.inputNumber);
    expect((await refund(payment.id, 0)).status).toBe(400);
    expect((await refund(payment.id, 100)).status).toBe(200);
  });

  it('refunds exactly once under 50 concurrent requests', async () => {
    const { payment } = await paidBooking();
    const answers = await Promise.all(Array.from({ length: 50 }, () => refund(payment.id, 25)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(49);
    const [row] = await t.database.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(row!.refundAmount).toBe('25.00');
  });

  it('refuses zero and QR Promptpay payments', async () => {
    // A free session is paid as zero.
    const { payment: zero } = await paidBooking({
      totalAmount: '0.00',
      priceByPower: '0.00',
      priceByPenalty: '0.00',
    });
    expect(zero.method).toBe('zero');
    const zeroRefund = await refund(zero.id, 1);
    expect(zeroRefund.status).toBe(409);
    expect(zeroRefund.body.message).toBe("A Zero payment can't be refunded here");
    // A member paying by QR in the app.
    const member = await createUser(t, { type: 'mobile' });
    const booking = await createBooking(t, connectorId, 'stopped', { userId: member.id });
    const signIn = await t.call('POST', '/api/member/login', {
      body: { email: member.email, pass: member.pass },
    });
    expect(signIn.status).toBe(200);
    const paid = await t.call('POST', `/api/member/booking/${booking.id}/pay`, {
      token: signIn.body.accessToken,
      body: { method: 'qr' },
    });
    expect(paid.status).toBe(200);
    const [qr] = await t.database.db.select().from(payments).where(eq(payments.bookingId, booking.id));
    expect(qr!.method).toBe('qr');
    expect((await refund(qr!.id, 1)).status).toBe(409);
  });

  it('is admin only (Transaction Management)', async () => {
    const { payment } = await paidBooking();
    expect((await refund(payment.id, 1, callcenter)).status).toBe(403);
  });
});

describe('the booking export', () => {
  it('downloads Booking_{timestamp}.xlsx with the list filters', async () => {
    const { booking } = await paidBooking();
    const response = await fetch(`${t.url}/api/booking?mode=xlsx&bookingId=${booking.id}`, {
      headers: { 'X-ACCESS-TOKEN': admin },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/filename="Booking_\d{14}\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as never);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(2);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const row = (sheet.getRow(2).values as unknown[]).slice(1);
    expect(row[header.indexOf('Booking ID')]).toBe(booking.id);
    expect(row[header.indexOf('Total (THB)')]).toBe(100);
    expect(row[header.indexOf('Status')]).toBe('Paid');
  });
});
