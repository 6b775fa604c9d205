import fs from 'node:fs';
import { type DashboardResponse, formatBaht, type StatisticsResponse } from '@ev/shared';
import ExcelJS from 'exceljs';
import { openAs } from './fixtures/auth.ts';
import { pick } from './fixtures/list.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Page, test } from './fixtures/test.ts';
import { E2E_PASSWORD, ROLE_USERS } from './fixtures/users.ts';

/**
 * Issue 35: the Dashboard (admin, and the site user who sees its site only) and the Statistics with a split
 * and an export, at 1440 and 390 px, on the demo network and the seeded bookings.
 */

/** `GET /api/dashboard` as `email`, signed in through the API (the page's context, not its session). */
async function apiAs(page: Page, email: string): Promise<DashboardResponse> {
  const login = await page.request.post('/api/auth/login', {
    data: { email, pass: E2E_PASSWORD, type: 'admin' },
  });
  expect(login.ok()).toBe(true);
  const { accessToken } = (await login.json()) as { accessToken: string };
  const response = await page.request.get('/api/dashboard', { headers: { 'X-ACCESS-TOKEN': accessToken } });
  expect(response.ok()).toBe(true);
  return (await response.json()) as DashboardResponse;
}

/** The page does not scroll sideways: everything fits the phone's width (once the charts have followed it). */
async function expectNoSideScroll(page: Page, width: number) {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(width);
}

const PHONE = { width: 390, height: 844 };

/**
 * Opens the dashboard as `email` on a clock the test moves (no second read before it asks for one) and
 * returns the answer the page drew: connectors change state between two reads.
 */
async function openDashboard(page: Page, email: string): Promise<DashboardResponse> {
  await page.clock.install();
  const drawn = page
    .waitForResponse((response) => new URL(response.url()).pathname === '/api/dashboard' && response.ok())
    .then((response) => response.json() as Promise<DashboardResponse>);
  await openAs(page, email, '/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', exact: true })).toBeVisible();
  await expect(page.getByTestId('dashboard-connectors')).toBeVisible({ timeout: 15_000 });
  return drawn;
}

/** Every connector state beside the donut shows the count the answer gives it. */
async function expectConnectorCounts(page: Page, connectors: DashboardResponse['now']['connectors']) {
  const legend = page.getByTestId('dashboard-connectors').locator('li');
  for (const [state, count] of Object.entries(connectors)) {
    const line = legend.filter({ has: page.locator('.stat-legend-label').getByText(state, { exact: true }) });
    await expect(line.locator('.stat-legend-value')).toHaveText(String(count));
  }
}
const statistic = (page: Page, title: string) =>
  page.locator('.ant-statistic').filter({ has: page.getByText(title, { exact: true }) });

test.describe('Dashboard', () => {
  test('admin: connectors now, the chargers down with links, today against the usual, the last 30 days', async ({
    page,
  }) => {
    const answer = await openDashboard(page, ROLE_USERS.admin);

    // Now: every state in words with its count, as the API counts them.
    await expectConnectorCounts(page, answer.now.connectors);
    await expect(statistic(page, 'Charging now')).toContainText(String(answer.now.charging));
    await expect(statistic(page, 'Awaiting payment')).toContainText(String(answer.now.awaitingPayment));
    // The seeded bookings: one charging at least, some waiting to be paid.
    expect(answer.now.charging).toBeGreaterThan(0);
    expect(answer.now.awaitingPayment).toBeGreaterThan(0);

    // The chargers down (the e2e server runs no simulator: they are offline), each a link to its screen.
    expect(answer.now.down.length).toBeGreaterThan(0);
    const down = page.getByTestId('dashboard-down').getByRole('link');
    await expect(down).toHaveCount(answer.now.down.length);
    const first = answer.now.down[0]!;
    await expect(down.first()).toHaveText(first.nameEn);
    await expect(down.first()).toHaveAttribute('href', `/charger/${encodeURIComponent(first.chargerId)}`);

    // Today against the usual, and the charts of the last 30 days (each named for screen readers).
    const today = page.getByTestId('dashboard-today');
    for (const title of ['Energy', 'Revenue', 'Sessions', 'Average session', 'Plug-in success']) {
      await expect(today.getByText(title, { exact: true })).toBeVisible();
    }
    await expect(today).toContainText('Usual:');
    await expect(
      page.getByRole('img', { name: /^Energy and revenue per day over the last 30 days/ }),
    ).toBeVisible();
    await expect(page.getByRole('img', { name: /^Sessions by hour of day/ })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Payments by method over the last 30 days' })).toBeVisible();
    await expect(
      page.getByRole('img', { name: 'The 10 sites most used over the last 30 days' }),
    ).toBeVisible();
    await shoot(page, 'dashboard-admin-1440.png');

    // Read again every 15 s while the tab shows.
    const again = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/dashboard');
    await page.clock.runFor(16_000);
    await again;

    await page.setViewportSize(PHONE);
    await expect(page.getByTestId('dashboard-connectors')).toBeVisible();
    await expectNoSideScroll(page, PHONE.width);
    await shoot(page, 'dashboard-admin-390.png');

    // A link opens the charger's screen. Found by its charger: the list was read again meanwhile, and a charger
    // another spec created (offline) may now come first.
    await page
      .getByTestId('dashboard-down')
      .locator(`a[href="/charger/${encodeURIComponent(first.chargerId)}"]`)
      .click();
    await expect(page).toHaveURL(new RegExp(`/charger/${encodeURIComponent(first.chargerId)}$`));
  });

  test('the site user sees its own site only', async ({ page }) => {
    const total = (answer: DashboardResponse) =>
      Object.values(answer.now.connectors).reduce((sum, count) => sum + count, 0);
    const network = await apiAs(page, ROLE_USERS.admin);

    const mine = await openDashboard(page, ROLE_USERS.landlord);
    // Its site, Siam Square Parking B2 (e2e/serve.ts): some connectors, fewer than the network's, and every
    // charger down is there.
    expect(total(mine)).toBeGreaterThan(0);
    expect(total(mine)).toBeLessThan(total(network));
    await expectConnectorCounts(page, mine.now.connectors);
    for (const charger of mine.now.down) expect(charger.landlordNameEn).toBe('Siam Square Parking B2');
    const down = page.getByTestId('dashboard-down');
    if (mine.now.down.length > 0) {
      await expect(down.getByRole('link')).toHaveCount(mine.now.down.length);
      await expect(down).toContainText('Siam Square Parking B2');
    } else {
      await expect(page.getByText('Every charger is up', { exact: true })).toBeVisible();
    }
    // The top and bottom sites are its own one.
    for (const site of [...mine.sites.top, ...mine.sites.bottom])
      expect(site.nameEn).toBe('Siam Square Parking B2');

    await shoot(page, 'dashboard-landlord-1440.png');
    await page.setViewportSize(PHONE);
    await expectNoSideScroll(page, PHONE.width);
    await shoot(page, 'dashboard-landlord-390.png');
  });
});

test.describe('Statistics', () => {
  test('split by site: the chart and the table of the API answer, kept in the URL, exported as xlsx', async ({
    page,
  }) => {
    await openAs(page, ROLE_USERS.admin, '/statistics');
    await expect(page.getByRole('heading', { name: 'Statistics', exact: true })).toBeVisible();
    await expect(choiceOf(page, 'Split by', 'None')).toBeVisible();

    await pick(page, 'Split by', 'Site');
    const answered = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/statistics' && response.url().includes('split=landlord'),
    );
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const answer = (await (await answered).json()) as StatisticsResponse;
    await expect(page).toHaveURL(/split=landlord/);
    expect(answer.rows.length).toBeGreaterThan(0);

    // The table: a row per day and site, the site's name beside the day, and the range's totals.
    const table = page.getByTestId('statistics-table');
    await expect(table.getByRole('columnheader', { name: 'Site', exact: true })).toBeVisible();
    const site = answer.rows.map((row) => row.label ?? '').sort((a, b) => a.localeCompare(b))[0]!;
    await expect(table.locator('tbody tr.ant-table-row').filter({ hasText: site }).first()).toBeVisible();
    await expect(table.locator('tr.stat-total')).toContainText('Total');
    await expect(table.locator('tr.stat-total')).toContainText(
      formatBaht(Math.round(answer.totals.revenue * 100)),
    );

    // The chart names what it draws; another measure redraws it without a new call.
    await expect(page.getByRole('img', { name: /^Energy \(kWh\) by day and site, / })).toBeVisible();
    await pick(page, 'Measure', 'Revenue (THB)');
    await expect(page.getByRole('img', { name: /^Revenue \(THB\) by day and site, / })).toBeVisible();
    await expect(page).toHaveURL(/measure=revenue/);
    await shoot(page, 'statistics-split-1440.png');

    // A reload shows the same choices.
    await page.reload();
    await expect(choiceOf(page, 'Split by', 'Site')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('img', { name: /^Revenue \(THB\) by day and site, / })).toBeVisible();

    // Export: the same query, a spreadsheet named Statistics_{timestamp}.xlsx.
    const exported = page.waitForRequest(
      (request) => new URL(request.url()).pathname === '/api/statistics/export',
    );
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    const sent = new URL((await exported).url()).searchParams;
    expect(sent.get('split')).toBe('landlord');
    expect(sent.get('from')).toMatch(/T00:00:00\.000\+07:00$/);
    expect(sent.has('measure')).toBe(false);
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^Statistics_\d+\.xlsx$/);
    const saved = await file.path();
    // An xlsx is a zip: 'PK' first, and a workbook ExcelJS reads, with the site in it.
    expect(fs.readFileSync(saved).subarray(0, 2).toString()).toBe('PK');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(saved);
    const sheet = workbook.worksheets[0];
    expect(sheet?.rowCount).toBeGreaterThan(1);
    const cells: string[] = [];
    sheet?.eachRow((row) => {
      for (const value of (row.values as unknown[]).slice(1)) cells.push(String(value ?? ''));
    });
    expect(cells).toContain(site);

    await page.setViewportSize(PHONE);
    await expect(page.getByRole('img', { name: /^Revenue \(THB\) by day and site, / })).toBeVisible();
    await expectNoSideScroll(page, PHONE.width);
    // The table scrolls sideways inside its card; the site (the row's name, first) stays in view while it does.
    const firstRow = table.locator('tbody tr.ant-table-row').first();
    await firstRow.scrollIntoViewIfNeeded();
    await table.locator('.ant-table-content').evaluate((element) => {
      element.scrollLeft = element.scrollWidth;
    });
    await expect(table.getByRole('columnheader', { name: 'Refunds (THB)', exact: true })).toBeInViewport();
    await expect(firstRow.locator('td').first()).toHaveText(site);
    await expect(firstRow.locator('td').first()).toBeInViewport();
    await expect(table.locator('tr.stat-total td').first()).toBeInViewport();
    await expect(firstRow.locator('td').nth(3)).not.toBeInViewport();
    await table.locator('.ant-table-content').evaluate((element) => {
      element.scrollLeft = 0;
    });
    await shoot(page, 'statistics-split-390.png');
  });
});

/** The choice a single select shows, found by its title as `pick` checks it. */
const choiceOf = (page: Page, label: string, choice: string) =>
  page
    .locator('.ant-select')
    .filter({ has: page.getByRole('combobox', { name: label, exact: true }) })
    .getByTitle(choice, { exact: true });
