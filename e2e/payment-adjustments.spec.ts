import { openAs } from './fixtures/auth.ts';
import { BOOKINGS } from './fixtures/bookings.ts';
import { opened, rangeText, rows } from './fixtures/list.ts';
import { modal } from './fixtures/modal.ts';
import { shoot } from './fixtures/screenshot.ts';
import { type APIRequestContext, expect, test } from './fixtures/test.ts';
import { E2E_PASSWORD, ROLE_USERS } from './fixtures/users.ts';

/**
 * Issue 21: a booking paid with a discount code and green points. The member takes the code and pays over
 * the member API (as the app does); staff then see both adjustments in the booking's total tooltip, its
 * detail and the payment's amount.
 */

const MEMBER = BOOKINGS.discountPoints.email;
const HOUR = 3_600_000;

async function staffToken(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', {
    data: { email: ROLE_USERS.admin, pass: E2E_PASSWORD, type: 'admin' },
  });
  expect(login.status()).toBe(200);
  return { 'x-access-token': ((await login.json()) as { accessToken: string }).accessToken };
}

/** A one-code promotion through the staff API: its code. */
async function promotion(request: APIRequestContext, staff: Record<string, string>, body: object) {
  const code = `E2E${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1000)}`;
  const created = await request.post('/api/promotion', {
    headers: staff,
    data: {
      code,
      nameEn: 'Browser test',
      nameTh: 'ทดสอบ',
      internal: false,
      expose: false,
      validFrom: new Date(Date.now() - HOUR).toISOString(),
      validTo: new Date(Date.now() + HOUR).toISOString(),
      count: 1,
      ...body,
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  return code;
}

test('a booking paid with a discount code and green points shows both in its tooltip, detail and payment', async ({
  page,
  request,
}) => {
  const staff = await staffToken(request);
  const discount = await promotion(request, staff, {
    type: 'discount',
    discountPercent: 10,
    discountBaht: 50,
  });
  const points = await promotion(request, staff, {
    type: 'point',
    point: 500,
    discountPercent: null,
    discountBaht: null,
  });

  const login = await request.post('/api/member/login', { data: { email: MEMBER, pass: 'Demo1234' } });
  expect(login.status()).toBe(200);
  const member = { 'x-access-token': ((await login.json()) as { accessToken: string }).accessToken };
  const mine = (await (await request.get('/api/member/booking', { headers: member })).json()) as {
    bookings: Array<{ id: number; status: string; totalAmount: number }>;
  };
  const booking = mine.bookings.find((item) => item.status === 'stopped' && item.totalAmount === 100);
  expect(booking, 'the unpaid booking of 100.00 THB seeded for this story').toBeDefined();
  const id = booking!.id;

  expect(
    (
      await request.post('/api/member/promotion/redeem', { headers: member, data: { code: points } })
    ).status(),
  ).toBe(200);
  const taken = await request.post('/api/member/promotion/redeem', {
    headers: member,
    data: { code: discount, bookingId: id },
  });
  expect(taken.status(), await taken.text()).toBe(200);
  // The demo's card in force: 100 points are worth 10.00 THB. 100.00 - 10 % - 200 points (20.00) = 70.00.
  const card = (
    (await (await request.get('/api/member/point', { headers: member })).json()) as {
      card: { fromPoint: number; toBaht: number };
    }
  ).card;
  expect(card).toMatchObject({ fromPoint: 100, toBaht: 10 });
  const paid = await request.post(`/api/member/booking/${id}/pay`, {
    headers: member,
    data: { method: 'credit', amount: 70, point: 200 },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  const invoiceNo = ((await paid.json()) as { invoiceNo: string }).invoiceNo;

  await openAs(
    page,
    ROLE_USERS.admin,
    `/booking-management?${new URLSearchParams({ userName: MEMBER, status: 'paid' })}`,
  );
  await expect(rangeText(page)).toHaveText('1-1 of 1');
  const row = rows(page).first();
  await expect(row).toHaveAttribute('data-row-key', String(id));
  const total = row.getByRole('button', { name: /^Total 70\.00 THB/ });
  await total.hover();
  const tooltip = page.getByTestId(`breakdown-${id}`);
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toContainText('By power90.00');
  await expect(tooltip).toContainText(`Discount-10.00code ${discount}`);
  await expect(tooltip).toContainText('Green Point-20.00200 points redeemed');
  await expect(tooltip).toContainText('Total70.00');
  await shoot(page, 'booking-discount-points.png');

  // The booking's detail: the invoice with what was taken off, and the payment in its history.
  await row.getByRole('button', { name: `View booking #${id}` }).click();
  const detail = modal(page, `Booking #${id}`);
  await opened(detail);
  await expect(detail).toContainText(`Discount (THB)10.00 (${discount})`);
  await expect(detail).toContainText('Green Point (THB)20.00 (200 points)');
  await expect(detail).toContainText(`Invoice no${invoiceNo}`);

  await page.goto(`/charging-payment?invoiceNo=${invoiceNo}`);
  await expect(rangeText(page)).toHaveText('1-1 of 1');
  const amount = rows(page)
    .first()
    .getByRole('button', { name: /^Amount 70\.00 THB/ });
  await expect(amount).toHaveText('70.00');
  await amount.hover();
  const made = page.getByRole('tooltip').filter({ hasText: 'Green Point' });
  await expect(made).toContainText(`Discount 10.00 THB (code ${discount})`);
  await expect(made).toContainText('Green Point 20.00 THB (200 points)');
  // 70.00 earns 2 points at 25.00 THB a point.
  await expect(made).toContainText('Earned 2 points');
});
