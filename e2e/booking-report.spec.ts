import ExcelJS from 'exceljs';
import { notification, openAs } from './fixtures/auth.ts';
import { BOOKINGS } from './fixtures/bookings.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/** The Booking Report form (document 3, sections 2, 5 and 8) and its spreadsheet, on the seeded bookings. */

/** Today in Bangkok, as the date fields show it. */
const today = () => new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);

test.describe('Booking Report', () => {
  /**
   * The report call, answered here after `delayMs` as the server answers no match (404), so the test sees the
   * query the form sends and the progress line; returns the URLs asked.
   */
  async function answerNoMatch(page: Page, delayMs = 0) {
    const urls: URL[] = [];
    await page.route('**/api/report/booking?**', async (route) => {
      urls.push(new URL(route.request().url()));
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'No matched booking found' }),
      });
    });
    return urls;
  }

  test('sends the filled filters only, days as start and end of day, with a progress line; Clear Data resets', async ({
    page,
  }) => {
    await openAs(page, ROLE_USERS.admin, '/booking-report');
    // A cold visit downloads the shell and the screen's code first.
    await expect(page.getByLabel('Charger Id', { exact: true })).toBeVisible({ timeout: 20_000 });
    for (const label of ['Charger Id', 'Connector Id', 'Name', 'Surname', 'Email', 'Mobile Number']) {
      await expect(page.getByLabel(label, { exact: true })).toBeVisible();
    }
    for (const label of ['Cluster Name', 'Site Name', 'Payment Method']) {
      await expect(page.getByRole('combobox', { name: label })).toBeVisible();
    }
    await expect(page.locator('.ant-select').filter({ hasText: 'Any Payment Method' })).toBeVisible();
    await expect(page.getByRole('radio', { name: 'Processed' })).toBeChecked();

    const urls = await answerNoMatch(page, 1500);
    await page.getByLabel('Charger Id', { exact: true }).fill('  TH-MP-ASOK-04 ');
    await page.getByLabel('Connector Id', { exact: true }).fill('no 10022');
    await expect(page.getByLabel('Connector Id', { exact: true })).toHaveValue('10022');
    await page.getByLabel('Email', { exact: true }).fill('   ');
    for (const [label, day] of [
      ['Service Date From', '2026-11-01'],
      ['Service Date To', '2026-11-30'],
      ['Payment Date From', '2026-11-02'],
    ] as const) {
      await page.getByLabel(label, { exact: true }).fill(day);
      // Tab, not Enter: Enter in a field searches.
      await page.getByLabel(label, { exact: true }).press('Tab');
      await expect(page.getByLabel(label, { exact: true })).toHaveValue(day);
    }
    await page.getByText('Raw', { exact: true }).click();
    await expect(page.getByRole('radio', { name: 'Raw' })).toBeChecked();
    await shoot(page, 'booking-report.png');

    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // A progress indicator while the file is on its way.
    await expect(page.getByRole('status')).toHaveText('Preparing the report…');
    await expect(notification(page, 'No matched booking found')).toBeVisible();
    await expect(page.getByRole('status')).toHaveCount(0);
    expect(urls).toHaveLength(1);
    expect(Object.fromEntries(urls[0]!.searchParams)).toEqual({
      chargerId: 'TH-MP-ASOK-04',
      connectorId: '10022',
      createdAfter: '2026-11-01T00:00:00.000+07:00',
      createdBefore: '2026-11-30T23:59:59.999+07:00',
      paymentAfter: '2026-11-02T00:00:00.000+07:00',
      style: 'raw',
    });

    await page.getByRole('button', { name: 'Clear Data', exact: true }).click();
    await expect(page.getByLabel('Charger Id', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Service Date From', { exact: true })).toHaveValue('');
    await expect(page.getByRole('radio', { name: 'Processed' })).toBeChecked();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => urls.length).toBe(2);
    expect(urls[1]!.search).toBe('?style=processed');
  });

  /** Clicks Search and opens the downloaded workbook's sheet as rows of cell texts. */
  async function downloadReport(page: Page) {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^Booking-Report_\d+\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await file.path());
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('The report has no sheet');
    const lines: string[][] = [];
    sheet.eachRow((row) => {
      lines.push((row.values as unknown[]).slice(1).map((value) => (value == null ? '' : String(value))));
    });
    return lines;
  }

  test('Search downloads the report, processed or raw, of the matching bookings; none matching says so', async ({
    page,
  }) => {
    await openAs(page, ROLE_USERS.admin, '/booking-report');
    const email = page.getByLabel('Email', { exact: true });
    await expect(email).toBeVisible({ timeout: 20_000 });
    await email.fill(BOOKINGS.qrPaid.email);
    for (const label of ['Service Date From', 'Service Date To']) {
      await page.getByLabel(label, { exact: true }).fill(today());
      await page.getByLabel(label, { exact: true }).press('Tab');
    }
    const [header, row, ...more] = await downloadReport(page);
    expect(more).toEqual([]);
    const cell = (title: string) => row![header!.indexOf(title)];
    expect(header!.slice(0, 3)).toEqual(['Booking ID', 'Name', 'Surname']);
    expect(cell('Name')).toBe('Thanawat');
    expect(cell('Email')).toBe(BOOKINGS.qrPaid.email);
    expect(cell('Charger Id')).toBe('TH-MP-ASOK-04');
    expect(cell('Total (THB)')).toBe('100');
    expect(cell('Payment Method')).toBe('QR Promptpay');
    expect(cell('Invoice No')).toBe(BOOKINGS.qrPaid.payment.invoiceNo);
    expect(cell('Duration')).toBe('00:40:00');
    expect(cell('Status')).toBe('Paid');

    await page.getByText('Raw', { exact: true }).click();
    const [rawHeader, rawRow] = await downloadReport(page);
    expect(rawHeader!.slice(0, 3)).toEqual(['id', 'userId', 'firstName']);
    expect(rawRow![rawHeader!.indexOf('paymentMethod')]).toBe('qr');
    expect(rawRow![rawHeader!.indexOf('status')]).toBe('paid');
    expect(rawRow![rawHeader!.indexOf('totalEnergyWh')]).toBe('12000');

    await email.fill('nobody-has-this-address');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(notification(page, 'No matched booking found')).toBeVisible();
  });

  test('the cluster and site filters and the Raw style by role', async ({ page }) => {
    const cases = [
      { role: 'landlord', cluster: false, site: false, raw: false },
      { role: 'station', cluster: false, site: true, raw: false },
      { role: 'marketting', cluster: true, site: true, raw: true },
    ] as const;
    for (const { role, cluster, site, raw } of cases) {
      await openAs(page, ROLE_USERS[role], '/booking-report');
      await expect(page.getByLabel('Charger Id', { exact: true })).toBeVisible({ timeout: 20_000 });
      await expect(page.getByRole('combobox', { name: 'Cluster Name' })).toHaveCount(cluster ? 1 : 0);
      await expect(page.getByRole('combobox', { name: 'Site Name' })).toHaveCount(site ? 1 : 0);
      await expect(page.getByRole('radio', { name: 'Raw' })).toHaveCount(raw ? 1 : 0);
      await expect(page.getByRole('radio', { name: 'Processed' })).toBeChecked();
      await page.getByRole('button', { name: 'Log Out' }).click();
      await expect(page).toHaveURL(/\/login$/);
    }
  });
});
