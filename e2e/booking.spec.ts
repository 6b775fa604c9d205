import { loginAs, notification, openAs } from './fixtures/auth.ts';
import { BOOKINGS, type BookingStory } from './fixtures/bookings.ts';
import { clickToClose, opened, rangeText, rows } from './fixtures/list.ts';
import { field, modal } from './fixtures/modal.ts';
import { chargeOnQuietCharger } from './fixtures/ocpp.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/**
 * The booking list (document 3, sections 2, 4 and 8) on the bookings e2e/serve.ts seeds (fixtures/bookings.ts):
 * each story acts on its own member's booking, so the tests run in parallel.
 */

const SOMETHING_WRONG = 'Something went wrong !';
const OFFLINE = 'The charger is offline: the stop was not sent. Use Force stop to end the booking.';

/** Today in Bangkok, as the date fields show it. */
const today = () => new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);

/** Opens the list on one story's booking (its member, and its status when given) and returns its row. */
async function openStory(page: Page, story: BookingStory, status?: string) {
  const query = new URLSearchParams({ userName: BOOKINGS[story].email });
  if (status) query.set('status', status);
  await page.goto(`/booking-management?${query}`);
  // Today's dates join the URL; the list then holds the one booking.
  await expect(page).toHaveURL(/createdAfter=.*createdBefore=/);
  await expect(rangeText(page)).toHaveText('1-1 of 1');
  const row = rows(page).first();
  const id = Number(await row.getAttribute('data-row-key'));
  expect(id).toBeGreaterThan(0);
  return { row, id };
}

const statusTag = (page: Page) => rows(page).first().locator('[data-status]');

/** A demo member no other spec uses: charges on QUIET_CHARGER's first connector. */
const LIVE_MEMBER = 'tanawat.l@example.com';

/** Clicks an action of the row, checks its confirmation, answers it, and waits for the dialog to close. */
async function confirmAction(page: Page, label: string, id: number, title: string, content: string | RegExp) {
  await rows(page)
    .first()
    .getByRole('button', { name: `${label} booking #${id}`, exact: true })
    .click();
  const dialog = page.getByRole('dialog').filter({ hasText: title });
  await expect(dialog).toContainText(content);
  await clickToClose(dialog, dialog.getByRole('button', { name: label, exact: true }));
}

test.describe('as admin', () => {
  test.beforeEach(async ({ page }) => {
    await loginAs(page, ROLE_USERS.admin);
  });

  test('the list shows today by default, a charging row ticks and reloads itself, the total has its breakdown', async ({
    page,
  }) => {
    // When the list last answered: its reload timer counts from the last change of the query (TanStack Query
    // reschedules refetchInterval on every query update), so the reload below is measured from there.
    let listAnswered = 0;
    // The header's alerts stream stays open as long as the page (issue 36), and 'networkidle' below waits
    // for no request in flight: this test has the stream refused, as a server without alerts would.
    await page.route('**/api/alerts/stream', (route) =>
      route.fulfill({ status: 404, json: { message: 'Not found' } }),
    );
    page.on('response', (response) => {
      const request = response.request();
      if (new URL(request.url()).pathname === '/api/booking' && request.method() === 'GET') {
        listAnswered = Date.now();
      }
    });
    await page.goto('/booking-management');
    await expect(page).toHaveURL(new RegExp(`createdAfter=${today()}T00%3A00%3A00.000%2B07%3A00`));
    await expect(page).toHaveURL(new RegExp(`createdBefore=${today()}T23%3A59%3A59.999%2B07%3A00`));
    await expect(page.getByLabel('Service Date From')).toHaveValue(today());
    await expect(page.getByLabel('Service Date To')).toHaveValue(today());
    await expect(rangeText(page)).toHaveText(/^1-\d+ of \d+$/);
    // At 1440 px the contact details, cluster, connector, charger, energy, surname and payment method give way
    // rather than be cut (issue 31: nothing but long free text is cut); Columns brings them back.
    await expect(page.locator('.ant-table-thead th')).toHaveText([
      'ID',
      'Name',
      'Site',
      'Service Date/Time',
      'Duration',
      'Total (THB)',
      'Status',
      'Action',
    ]);

    const { row, id } = await openStory(page, 'live', 'charging');
    await expect(statusTag(page)).toHaveText('Charging');
    await expect(statusTag(page)).toHaveClass(/ant-tag-blue/);
    // Started when the server did, less 53 minutes (or at midnight): hh:mm:ss, counting up every second.
    const duration = row.locator('[data-ticking]');
    await expect(duration).toHaveText(/^\d{2}:\d{2}:\d{2}$/);
    const seconds = async () => {
      const [h, m, s] = ((await duration.textContent()) ?? '').split(':').map(Number);
      return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
    };
    const before = await seconds();
    expect(before).toBeGreaterThan(0);
    await expect.poll(seconds, { timeout: 5000 }).toBeGreaterThanOrEqual(before + 2);

    // 12 kWh at 7.50 baht, nothing else yet: an estimate while it charges.
    const total = row.getByRole('button', { name: /^Total 90\.00 THB/ });
    await expect(total).toHaveText('≈ 90.00');
    await total.hover();
    const tooltip = page.getByTestId(`breakdown-${id}`);
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText('By power90.0012.00 kWh');
    await expect(tooltip).toContainText('By penalty0.00overstay 0 min (0.00)DC full 0 min (0.00)');
    await expect(tooltip).toContainText('Total90.00estimate while charging');

    // A live row reloads the page by itself (every 10 s), without a click.
    await page.waitForLoadState('networkidle');
    const since = listAnswered;
    expect(since).toBeGreaterThan(0);
    const reload = await page.waitForRequest(
      (request) => new URL(request.url()).pathname === '/api/booking' && request.method() === 'GET',
      { timeout: 15_000 },
    );
    expect(Date.now() - since).toBeGreaterThan(5000);
    expect(new URL(reload.url()).searchParams.get('userName')).toBe(BOOKINGS.live.email);
  });

  test('a page without a live row does not reload by itself, and a stopped booking does not tick', async ({
    page,
  }) => {
    const { row } = await openStory(page, 'unpaidShot', 'stopped');
    await expect(row.locator('td').filter({ hasText: /^00:40:00$/ })).toHaveCount(1);
    await expect(row.locator('[data-ticking]')).toHaveCount(0);
    let reloads = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/booking') reloads++;
    });
    await page.waitForTimeout(12_000);
    expect(reloads).toBe(0);
  });

  test('the whole day: every status in its colour, the actions each allows, the total tooltip', async ({
    page,
  }) => {
    await page.goto('/booking-management?sort=id&order=asc&size=50');
    await expect(rangeText(page)).toHaveText(/^1-\d+ of \d+$/);
    const live = rows(page).filter({ hasText: 'Michael' });
    await expect(live.locator('[data-status]')).toHaveText('Charging');
    const liveId = await live.getAttribute('data-row-key');
    // Admin: Stop, Force stop and Delete while charging.
    for (const label of ['Stop', 'Force stop', 'Delete']) {
      await expect(
        live.getByRole('button', { name: `${label} booking #${liveId}`, exact: true }),
      ).toBeVisible();
    }
    const unpaid = rows(page).filter({ hasText: 'Lalita' });
    await expect(unpaid.locator('[data-status]')).toHaveText('Unpaid');
    await expect(unpaid.locator('[data-status]')).toHaveClass(/ant-tag-gold/);
    const unpaidId = await unpaid.getAttribute('data-row-key');
    await expect(unpaid.getByRole('button', { name: /booking #\d+$/ })).toHaveText([
      String(unpaidId),
      'Set amount',
      'Pay',
      'Cancel payment',
    ]);
    const paid = rows(page).filter({ hasText: 'Pimchanok' });
    await expect(paid.locator('[data-status]')).toHaveClass(/ant-tag-green/);
    // Its id only: a paid booking has no action.
    await expect(paid.getByRole('button', { name: /booking #\d+$/ })).toHaveCount(1);
    await expect(rows(page).filter({ hasText: 'Wichai' }).locator('[data-status]')).toHaveClass(
      /ant-tag-red/,
    );
    await live.getByRole('button', { name: /^Total/ }).hover();
    await expect(page.getByTestId(`breakdown-${liveId}`)).toBeVisible();
    await shoot(page, 'booking-list.png');
  });

  test('Stop on an offline charger shows the server reason; Force stop then ends the booking', async ({
    page,
  }) => {
    const { id } = await openStory(page, 'offlineStop');
    await confirmAction(
      page,
      'Stop',
      id,
      `Stop charging booking #${id}?`,
      'A remote stop is sent to charger',
    );
    await expect(notification(page, SOMETHING_WRONG)).toContainText(
      `Please re-login or contact web admin. (Code: ${OFFLINE})`,
    );
    await expect(statusTag(page)).toHaveText('Charging');

    await confirmAction(page, 'Force stop', id, `Force stop booking #${id}?`, 'goes to payment (Unpaid) now');
    await expect(notification(page, 'Force stopped successfully!')).toBeVisible();
    await expect(statusTag(page)).toHaveText('Unpaid');
    await expect(rows(page).first().locator('[data-ticking]')).toHaveCount(0);
  });

  test('Stop on a live charger: the remote stop is sent, the charger ends the session, the row follows', async ({
    page,
    request,
  }) => {
    // A member's real session on the quiet simulated charger, through the member API.
    const { token, bookingId } = await chargeOnQuietCharger(request, LIVE_MEMBER, 0);
    await page.goto(
      `/booking-management?${new URLSearchParams({ userName: LIVE_MEMBER, status: 'charging' })}`,
    );
    await expect(rangeText(page)).toHaveText('1-1 of 1');
    await expect(rows(page).first()).toHaveAttribute('data-row-key', String(bookingId));
    await confirmAction(
      page,
      'Stop',
      bookingId,
      `Stop charging booking #${bookingId}?`,
      'A remote stop is sent to charger',
    );
    await expect(notification(page, 'Sent remote stop charging successfully!')).toBeVisible();
    // The charger answers with StopTransaction: charged, cable still in. The live row reloads by itself.
    await page.goto(`/booking-management?${new URLSearchParams({ userName: LIVE_MEMBER })}`);
    await expect(statusTag(page)).toHaveText('Charged', { timeout: 15_000 });
    // Leave the member free for a rerun: skip the cable removal, and the member pays.
    await confirmAction(page, 'Avaliable', bookingId, `booking #${bookingId}`, /./);
    await expect(statusTag(page)).toHaveText('Unpaid');
    const paid = await request.post(`/api/member/booking/${bookingId}/pay`, {
      headers: { 'x-access-token': token },
      data: { method: 'credit' },
    });
    expect(paid.status()).toBe(200);
  });

  test('Avaliable skips the cable removal', async ({ page }) => {
    const { id } = await openStory(page, 'charged');
    await expect(statusTag(page)).toHaveText('Charged');
    await confirmAction(
      page,
      'Avaliable',
      id,
      `Skip cable removal for booking #${id}?`,
      'with the overstay counted up to now',
    );
    await expect(notification(page, 'Skipped cable removal successfully!')).toBeVisible();
    await expect(statusTag(page)).toHaveText('Unpaid');
  });

  test('Set amount is prefilled, checked and previewed; Pay then charges it; the history says who did what', async ({
    page,
  }) => {
    const { row, id } = await openStory(page, 'setAndPay');
    await row.getByRole('button', { name: `Set amount booking #${id}` }).click();
    const dialog = modal(page, `Set amount of booking #${id}`);
    await opened(dialog);
    await expect(field(dialog, 'Amount')).toHaveValue('');
    await expect(field(dialog, 'By power')).toHaveValue('90');
    await expect(field(dialog, 'By duration')).toHaveValue('0');
    await expect(field(dialog, 'By penalty')).toHaveValue('10');
    await expect(dialog.getByText('Computed 10.00')).toBeVisible();
    const total = dialog.getByTestId('amount-total');
    await expect(total).toHaveText('Total: 100.00 THB (the sum of the parts)');

    await field(dialog, 'By penalty').fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Please input number', { exact: true })).toBeVisible();
    await field(dialog, 'By penalty').fill('0');
    await expect(total).toHaveText('Total: 90.00 THB (the sum of the parts)');
    await field(dialog, 'Amount').fill('75.5');
    await expect(total).toHaveText('Total: 75.50 THB (the amount replaces the parts)');
    await field(dialog, 'Amount').fill('');
    await expect(total).toHaveText('Total: 90.00 THB (the sum of the parts)');
    const saved = page.waitForResponse(
      (response) => response.request().method() === 'PATCH' && response.url().endsWith(`/api/booking/${id}`),
    );
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect((await saved).request().postDataJSON()).toEqual({ priceByPenalty: 0 });
    await expect(notification(page, 'Set payment amount successfully!')).toBeVisible();
    await expect(dialog).toBeHidden();
    const amount = row.getByRole('button', { name: /^Total/ });
    await expect(amount).toHaveText('90.00');
    await amount.hover();
    await expect(page.getByTestId(`breakdown-${id}`)).toContainText(
      'By penalty *0.00set by staff, computed 10.00',
    );

    await confirmAction(page, 'Pay', id, `Pay booking #${id}?`, 'A manual payment of 90.00 THB is recorded');
    await expect(notification(page, 'Created payment successfully!')).toBeVisible();
    await expect(statusTag(page)).toHaveText('Paid');

    await row.getByRole('button', { name: `View booking #${id}` }).click();
    const detail = modal(page, `Booking #${id}`);
    await opened(detail);
    const history = detail.getByTestId('booking-history').locator('tbody tr');
    await expect(history.filter({ hasText: 'Reserved' })).toContainText('Member Emma Roberts');
    await expect(history.filter({ hasText: 'Given an amount' })).toContainText(
      'E2E admin Tester (staff)By penalty: 0',
    );
    await expect(history.filter({ hasText: 'Paid' }).last()).toContainText('E2E admin Tester (staff)');
    await expect(detail).toContainText(/Payment method\s*Manual/);
    await expect(detail).toContainText(/INV-\d{4}-\d{6}/);
    await history.last().scrollIntoViewIfNeeded();
    await shoot(page, 'booking-detail.png');
  });

  test('Cancel payment cancels an unpaid booking', async ({ page }) => {
    const { id } = await openStory(page, 'cancelPayment');
    await confirmAction(page, 'Cancel payment', id, `Cancel payment of booking #${id}?`, 'nothing is owed');
    await expect(notification(page, 'Cancelled payment successfully!')).toBeVisible();
    await expect(statusTag(page)).toHaveText('Cancelled');
  });

  test('Delete asks with the generic delete wording and removes the booking from the list', async ({
    page,
  }) => {
    const { id } = await openStory(page, 'deleteCreated');
    await expect(statusTag(page)).toHaveText('Created');
    await confirmAction(
      page,
      'Delete',
      id,
      `Delete booking #${id}?`,
      `Do you want to delete this booking #${id}?`,
    );
    await expect(notification(page, 'Deleted Successfully !')).toBeVisible();
    await expect(page.getByText('No Data yet!')).toBeVisible();
  });

  test('the actions are shown, with a confirmation before each', async ({ page }) => {
    const { id } = await openStory(page, 'unpaidShot');
    await rows(page)
      .first()
      .getByRole('button', { name: `Cancel payment booking #${id}` })
      .click();
    const dialog = page.getByRole('dialog').filter({ hasText: `Cancel payment of booking #${id}?` });
    await opened(dialog);
    await shoot(page, 'booking-actions-confirm.png');
    // Cancel leaves the booking as it was.
    await clickToClose(dialog, dialog.getByRole('button', { name: 'Cancel', exact: true }));
    await expect(statusTag(page)).toHaveText('Unpaid');
    await rows(page)
      .first()
      .getByRole('button', { name: `Set amount booking #${id}` })
      .click();
    await opened(modal(page, `Set amount of booking #${id}`));
    await shoot(page, 'booking-set-amount.png');
  });
});

test('callcenter may stop and force stop a charging booking, not delete it', async ({ page }) => {
  await loginAs(page, ROLE_USERS.callcenter);
  const { row, id } = await openStory(page, 'live', 'charging');
  await expect(row.getByRole('button', { name: /booking #\d+$/ })).toHaveText([
    String(id),
    'Stop',
    'Force stop',
  ]);
  await expect(page.getByRole('combobox', { name: 'Cluster Name' })).toBeVisible();
});

test('station has the site filter, not the cluster one', async ({ page }) => {
  await openAs(page, ROLE_USERS.station, '/booking-management');
  await expect(page.getByRole('combobox', { name: 'Site Name' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Cluster Name' })).toHaveCount(0);
});
