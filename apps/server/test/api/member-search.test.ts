import { and, desc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, payments, users } from '../../src/db/schema/index.ts';
import { contains } from '../../src/lib/list-query.ts';
import { createBooking } from '../helpers/bookings.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The member search (`userName` on the booking and payment lists and their exports) answers from the trigram
 * indexes on the members and the member's id on bookings and payments (issue 31). It must find exactly what
 * the search found before, when it read every booking: name, surname, `name surname`, e-mail or telephone
 * containing the text, case aside, `%`, `_` and `\` taken literally. Each term is checked against two
 * references: the full unfiltered list filtered here, and the search's former SQL run on the database.
 */

let t: TestApp;
let admin: string;
let connectorId: number;
const DAY = 86_400_000;

type Member = [firstName: string, lastName: string, email: string, tel: string | null];
const MEMBERS: Member[] = [
  ['Somchai', 'Jaidee', 'somchai.jaidee@example.com', '0812233445'],
  ['สมชาย', 'ใจดี', 'somchai.th@example.co.th', '0891234567'],
  ['สมหญิง', 'ใจงาม', 'somying_j@example.co.th', '0865551234'],
  ['Ann', 'Lee', 'annxlee@example.com', null],
  ['Ann', 'Lee', 'ann_lee@example.net', '0623334444'],
  ['Promo', '100%', 'promo.hundred@example.com', '0951000000'],
  ['Back\\slash', 'Driver', 'backslash@example.com', '0970000001'],
  ['', '', 'newrider@example.com', null],
  ['SOMCHAI', 'KAEW', 'Somchai.K@EXAMPLE.com', '0832220000'],
  ['Mary-Jane', "O'Brien", 'mj@example.com', '099-876-5432'],
];

const TERMS = [
  'somchai.jaidee@', // e-mail part
  'EXAMPLE.CO.TH', // e-mail domain, another case
  'Somchai', // first name
  'Jaidee', // last name
  'Somchai Jaidee', // name and surname together
  'chai jai', // across the space
  'สมชาย', // Thai first name
  'สมชาย ใจดี', // Thai full name
  'ใจ', // two Thai characters
  '12233445', // phone digits
  '876-5432', // a phone written with dashes
  'sOmChAi', // mixed case
  'a', // one character
  'ch', // two characters
  'ann_lee', // `_` is not any character
  '100%', // `%` is not any text
  '0%',
  '%',
  '_',
  '\\', // a backslash, literally
  'k\\s',
  '  Jaidee  ', // trimmed, as before
  'nobody-has-this',
];

const lower = (text: string) => text.toLowerCase();
interface MemberFields {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  tel: string | null;
}
/** The search's meaning, in plain code. */
function matches(row: MemberFields, term: string) {
  const text = lower(term.trim());
  const fields = [row.firstName, row.lastName, row.email, row.tel, `${row.firstName} ${row.lastName}`];
  return row.email !== null && fields.some((field) => field !== null && lower(field).includes(text));
}

/** The member test as it was before the indexes: five ILIKEs on the joined member. */
const formerMatch = (pattern: string) =>
  or(
    ilike(users.firstName, pattern),
    ilike(users.lastName, pattern),
    ilike(users.email, pattern),
    ilike(users.tel, pattern),
    sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${pattern}`,
  );

/** The search as it was before the indexes: every booking joined to its member, five ILIKEs. */
async function formerBookingIds(term: string, after: Date) {
  const pattern = contains(term.trim());
  const rows = await t.database.db
    .select({ id: bookings.id })
    .from(bookings)
    .leftJoin(users, eq(users.id, bookings.userId))
    .where(
      and(
        isNull(bookings.deletedAt),
        sql`${bookings.createdAt} >= ${after.toISOString()}`,
        formerMatch(pattern),
      ),
    )
    .orderBy(desc(bookings.createdAt), desc(bookings.id));
  return rows.map((row) => row.id);
}

async function formerPaymentIds(term: string) {
  const pattern = contains(term.trim());
  const rows = await t.database.db
    .select({ id: payments.id })
    .from(payments)
    .leftJoin(users, eq(users.id, payments.userId))
    .where(formerMatch(pattern))
    .orderBy(desc(payments.createdAt), desc(payments.id));
  return rows.map((row) => row.id);
}

/** Every page of a list, 100 rows at a time. */
async function all<T>(path: string, key: string): Promise<{ total: number; rows: T[] }> {
  const rows: T[] = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const response = await t.call('GET', `${path}&size=100&page=${page}`, { token: admin });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    total = response.body.total;
    rows.push(...response.body[key]);
    if (rows.length >= total || response.body[key].length === 0) return { total, rows };
  }
}

const range = () => `createdAfter=${new Date(Date.now() - 90 * DAY).toISOString()}`;
const term = (text: string) => `userName=${encodeURIComponent(text)}`;

interface BookingRow extends MemberFields {
  id: number;
}
interface PaymentRow {
  id: number;
  bookingId: number;
  invoiceNo: string;
}

let everyBooking: BookingRow[];
let everyPayment: PaymentRow[];

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  const place = await chargerPlace(t);
  connectorId = (await createChargers(t, admin, place, ['SEARCH-01']))[0]!.connectorIds[0]!;
  const now = Date.now();
  for (const [index, [firstName, lastName, email, tel]] of MEMBERS.entries()) {
    const [member] = await t.database.db
      .insert(users)
      .values({ type: 'mobile', firstName, lastName, email, tel })
      .returning();
    const userId = member!.id;
    // Today's, one 40 days old, one deleted (never listed), and one paid (on the payment list).
    await createBooking(t, connectorId, 'stopped', { userId });
    await createBooking(t, connectorId, 'cancelled', { userId, createdAt: new Date(now - 40 * DAY - index) });
    await createBooking(t, connectorId, 'stopped', { userId, deletedAt: new Date(now) });
    const paid = await createBooking(t, connectorId, 'stopped', { userId });
    expect((await t.call('POST', `/api/booking/${paid.id}/pay`, { token: admin })).status).toBe(200);
  }
  // A booking whose member was deleted: no member, never found by a search.
  await createBooking(t, connectorId, 'stopped', { userId: null });
  everyBooking = (await all<BookingRow>(`/api/booking?${range()}`, 'bookings')).rows;
  everyPayment = (await all<PaymentRow>('/api/payment?', 'payments')).rows;
  expect(everyBooking).toHaveLength(MEMBERS.length * 3 + 1);
  expect(everyPayment).toHaveLength(MEMBERS.length);
}, 240_000);
afterAll(() => t.close());

describe('the member search', () => {
  it.each(TERMS)('finds on the booking list what the former search found: %j', async (text) => {
    const expected = everyBooking.filter((row) => matches(row, text)).map((row) => row.id);
    const found = await all<BookingRow>(`/api/booking?${range()}&${term(text)}`, 'bookings');
    expect(found.rows.map((row) => row.id)).toEqual(expected);
    expect(found.total).toBe(expected.length);
    expect(await formerBookingIds(text, new Date(Date.now() - 90 * DAY))).toEqual(expected);
  });

  it.each(TERMS)('finds on the payment list what the former search found: %j', async (text) => {
    const member = new Map(everyBooking.map((row) => [row.id, row]));
    const expected = everyPayment
      .filter((payment) => matches(member.get(payment.bookingId)!, text))
      .map((payment) => payment.id);
    const found = await all<PaymentRow>(`/api/payment?${term(text)}`, 'payments');
    expect(found.rows.map((row) => row.id)).toEqual(expected);
    expect(found.total).toBe(expected.length);
    expect(await formerPaymentIds(text)).toEqual(expected);
  });

  it('searches today by default, and with the other filters', async () => {
    const today = await all<BookingRow>(`/api/booking?${term('Somchai')}`, 'bookings');
    expect(today.total).toBe(3 * 2); // three members named so, two of today's bookings each (one paid)
    const paid = await all<BookingRow>(`/api/booking?status=paid&${term('Somchai')}`, 'bookings');
    expect(paid.total).toBe(3);
  });

  it.each(['Somchai', 'สมชาย', 'ann_lee', '\\', 'ch'])('exports the same rows: %j', async (text) => {
    const sheetOf = async (path: string) => {
      const response = await fetch(`${t.url}${path}`, { headers: { 'X-ACCESS-TOKEN': admin } });
      expect(response.status).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as never);
      const sheet = workbook.worksheets[0]!;
      const values: unknown[] = [];
      sheet.eachRow((row, number) => {
        if (number > 1) values.push(row.getCell(1).value);
      });
      return values;
    };
    const bookingIds = everyBooking.filter((row) => matches(row, text)).map((row) => row.id);
    expect(await sheetOf(`/api/booking?mode=xlsx&${range()}&${term(text)}`)).toEqual(bookingIds);
    const member = new Map(everyBooking.map((row) => [row.id, row]));
    const invoices = everyPayment
      .filter((payment) => matches(member.get(payment.bookingId)!, text))
      .map((payment) => payment.invoiceNo);
    expect(await sheetOf(`/api/payment?mode=xlsx&${term(text)}`)).toEqual(invoices);
  });
});
