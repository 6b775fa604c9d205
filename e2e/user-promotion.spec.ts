import ExcelJS from 'exceljs';
import { loginAs, notification, openAs } from './fixtures/auth.ts';
import {
  clearData,
  exportSheet,
  pick,
  rangeText,
  rows,
  rowWith,
  search,
  selectNamed,
  sortBy,
} from './fixtures/list.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/**
 * The private-station members list and the Coupon&point Report (document 3; issue 21) on the demo promotions
 * (tools/src/demo-promotions.ts): SKYLINERES has 5 members and CPTUSTAFF 4, each with a license plate; 12
 * members redeemed a GREEN50 code (50 points) and 6 EVDAY (100 points). No spec redeems codes, so these
 * numbers hold for the whole run.
 */

const SKYLINE = 'Skyline Living Condominiums';
const SKYLINE_SITES = ['Skyline Ari Residence', 'Skyline On Nut Station', 'Skyline Ratchada–Huai Khwang'];
const CPTU = 'Chao Phraya University of Technology';
/** The plates of the demo's private station members, in the order they redeemed (the 5 of SKYLINERES). */
const PLATES = ['1กข 1234', '2ขค 5678', 'กท 9999', '3คง 4321', '7กพ 1010'];
const NOT_AUTHORIZED = 'Sorry, you are not authorized to access this page.';

/** A text field by its label (a sortable column's header carries the same name, so the role says which). */
const textField = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });

/** A workbook sheet as rows of cell values, the header first. */
function sheetRows(sheet: ExcelJS.Worksheet): unknown[][] {
  const lines: unknown[][] = [];
  sheet.eachRow((row) => {
    lines.push((row.values as unknown[]).slice(1));
  });
  return lines;
}

/** The texts of one column of the shown table, by its header's title. */
async function columnTexts(page: Page, title: string) {
  const titles = await page.locator('.ant-table-thead th').allTextContents();
  const index = titles.indexOf(title);
  expect(index, `column ${title} in ${titles.join(', ')}`).toBeGreaterThanOrEqual(0);
  return rows(page)
    .locator(`td:nth-child(${index + 1})`)
    .allTextContents();
}

test.describe('Member list', () => {
  test('admin sees every member, filters by code, exports the same rows; nothing matching says so', async ({
    page,
  }) => {
    await openAs(page, ROLE_USERS.admin, '/user-promotion');
    await expect(page.getByRole('heading', { name: 'Member', exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(rangeText(page)).toHaveText('1-9 of 9');
    for (const label of ['First Name', 'Surname', 'Email', 'Mobile Number', 'Code']) {
      await expect(textField(page, label)).toBeVisible();
    }
    await expect(selectNamed(page, 'Cluster Name')).toBeVisible();
    await expect(selectNamed(page, 'Site Name')).toBeVisible();
    // At 1440 px the area type (always 'Selected landlords' here), the cluster (its sites say it) and the email
    // give way rather than cut the codes or more than one name column (issue 31); Columns brings them back.
    await expect(page.locator('.ant-table-thead th')).toHaveText([
      'Name',
      'Surname',
      'Mobile Number',
      'Code',
      'License Plate',
      'Site Name',
      'Promotion',
      'Redeem Date',
    ]);
    await expect(page.getByRole('button', { name: 'Columns, 3 hidden' })).toBeVisible();
    await expect(rows(page)).toHaveCount(9);
    await shoot(page, 'user-promotion-list.png');

    await textField(page, 'Code').fill('skylineres');
    await search(page);
    await expect(page).toHaveURL(/code=skylineres/);
    await expect(rangeText(page)).toHaveText('1-5 of 5');
    for (const plate of PLATES) await expect(rowWith(page, plate)).toHaveCount(1);
    await expect.poll(() => columnTexts(page, 'Code')).toEqual(Array(5).fill('SKYLINERES'));
    // The cluster gave way at 1440 px (issue 31): the Columns control brings it back.
    const columns = page.getByRole('button', { name: /^Columns, \d+ hidden$/ });
    await columns.click();
    await page
      .locator('.list-columns-choice')
      .getByRole('checkbox', { name: 'Cluster Name', exact: true })
      .check();
    await columns.click();
    await expect.poll(() => columnTexts(page, 'Cluster Name')).toEqual(Array(5).fill(SKYLINE));
    await expect.poll(() => columnTexts(page, 'Site Name')).toEqual(Array(5).fill(SKYLINE_SITES.join(', ')));
    await expect.poll(() => columnTexts(page, 'Promotion')).toEqual(Array(5).fill('Skyline residents'));
    // The three sites' names are cut in the cell, and whole in its tooltip.
    await rows(page).first().getByText(SKYLINE_SITES[0]!).hover();
    await expect(page.getByRole('tooltip')).toHaveText(SKYLINE_SITES.join(', '));

    const names = await columnTexts(page, 'Name');
    const plates = await columnTexts(page, 'License Plate');
    const sheet = await exportSheet(page, /^Private-Station-Member_\d{14}\.xlsx$/);
    const [header, ...exported] = sheetRows(sheet);
    expect(header).toEqual([
      'Name',
      'Surname',
      'Email',
      'Mobile Number',
      'Code',
      'License Plate',
      'Cluster Name',
      'Site Name',
      'Area Type',
      'Promotion Name',
      'Redeem Date',
    ]);
    expect(exported).toHaveLength(5);
    const cell = (row: unknown[], title: string) => row[header!.indexOf(title)];
    // The same rows in the same order (newest first); an empty name is '-' in the list.
    expect(exported.map((row) => [cell(row, 'Name') ?? '-', cell(row, 'License Plate')])).toEqual(
      names.map((name, i) => [name, plates[i]]),
    );
    for (const row of exported) {
      expect(cell(row, 'Code')).toBe('SKYLINERES');
      expect(cell(row, 'Site Name')).toBe(SKYLINE_SITES.join(', '));
      expect(cell(row, 'Area Type')).toBe('Selected landlords');
    }

    // Sorted by plate on the server, within the filter (Export sends the filters, not the sort, like every list).
    await sortBy(page, 'License Plate', 'licensePlate', 'asc');
    await sortBy(page, 'License Plate', 'licensePlate', 'desc');
    await expect(rangeText(page)).toHaveText('1-5 of 5');
    await expect.poll(() => columnTexts(page, 'License Plate')).toEqual([...PLATES].sort().reverse());

    await textField(page, 'Email').fill('nobody-has-this-address');
    await search(page);
    await expect(page.getByText('No Data yet!', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Export' }).click();
    await expect(notification(page, 'No matched member found')).toBeVisible();

    // The cluster filter: the sites narrow to it, and its members are the CPTU staff.
    await clearData(page);
    await expect(rangeText(page)).toHaveText('1-9 of 9');
    await pick(page, 'Cluster Name', CPTU);
    await selectNamed(page, 'Site Name').click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect(options.filter({ hasText: 'Rangsit Campus Library Car Park' })).toHaveCount(1);
    await expect(options.filter({ hasText: 'Skyline' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await search(page);
    await expect(rangeText(page)).toHaveText('1-4 of 4');
    await expect.poll(() => columnTexts(page, 'Promotion')).toEqual(Array(4).fill('CPTU staff parking'));
  });

  test('the station user, without the cluster filter, sees the members of its group’s sites only', async ({
    page,
  }) => {
    // The station user's group is the demo's Northern Route (tools/src/demo-places.ts): none of its ten
    // sites is a Skyline or CPTU one, so none of the demo's members is one of its sites'.
    await loginAs(page, ROLE_USERS.station);
    const menu = page.getByTestId('sidebar-menu');
    await menu.getByText('Private station', { exact: true }).click();
    const list = page.waitForResponse((response) => response.url().includes('/api/user-promotion?'));
    await menu.getByRole('link', { name: 'Member', exact: true }).click();
    await expect(page).toHaveURL(/\/user-promotion$/);
    // The empty table shows its text while loading too: the answer says there is nothing.
    expect(await (await list).json()).toEqual({ total: 0, userPromotions: [] });
    await expect(page.getByRole('heading', { name: 'Member', exact: true })).toBeVisible();
    await expect(textField(page, 'First Name')).toBeVisible();
    await expect(selectNamed(page, 'Cluster Name')).toHaveCount(0);
    await expect(selectNamed(page, 'Site Name')).toBeVisible();
    await expect(page.getByText('No Data yet!', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Export' }).click();
    await expect(notification(page, 'No matched member found')).toBeVisible();
  });
});

test.describe('Coupon&point Report', () => {
  /** Clicks Search and opens the downloaded workbook's sheet as rows of cell values, the header first. */
  async function downloadReport(page: Page) {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^Coupon-Point-Report_\d{14}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await file.path());
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('The report has no sheet');
    return sheetRows(sheet);
  }

  const openReport = async (page: Page) => {
    await loginAs(page, ROLE_USERS.admin);
    const menu = page.getByTestId('sidebar-menu');
    await menu.getByText('Coupon&point Management', { exact: true }).click();
    await menu.getByRole('link', { name: 'Discount Report', exact: true }).click();
    await expect(page).toHaveURL(/\/user-promotion-report$/);
    // The report's own heading: the profile's fields stay until the screen's code has loaded.
    await expect(page.getByRole('heading', { name: 'Coupon&point Report' })).toBeVisible({ timeout: 20_000 });
  };

  test('Search downloads every redemption; a code matching none says so', async ({ page }) => {
    await openReport(page);
    const [header, ...lines] = await downloadReport(page);
    expect(header).toEqual([
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
    const cell = (row: unknown[], title: string) => row[header!.indexOf(title)];
    const ofCode = (prefix: string) => lines.filter((row) => String(cell(row, 'Code')).startsWith(prefix));
    const green = ofCode('GREEN50');
    expect(green).toHaveLength(12);
    for (const row of green) {
      expect(cell(row, 'Type')).toBe('Point Code');
      expect(cell(row, 'Point')).toBe(50);
      expect(cell(row, 'Site Name')).toBe('All sites');
    }
    expect(ofCode('EVDAY').map((row) => cell(row, 'Point'))).toEqual(Array(6).fill(100));
    const skyline = ofCode('SKYLINERES');
    expect(skyline).toHaveLength(5);
    expect(skyline.map((row) => cell(row, 'License Plate')).sort()).toEqual([...PLATES].sort());
    for (const row of skyline) {
      expect(cell(row, 'Type')).toBe('Private Station Code');
      expect(cell(row, 'Site Name')).toBe(SKYLINE_SITES.join(', '));
    }
    expect(ofCode('CPTUSTAFF')).toHaveLength(4);
    // Every row is a redemption of one of these (the demo without its history redeems no discount code),
    // but for the codes (E2E…) and green points of payment-adjustments.spec, whichever runs first.
    const ofDemo = lines.filter(
      (row) => !String(cell(row, 'Code')).startsWith('E2E') && cell(row, 'Type') !== 'Green Point',
    );
    expect(ofDemo).toHaveLength(27);
    // Thai date (Buddhist year) and Bangkok time.
    expect(String(cell(green[0]!, 'Redeem Date'))).toMatch(/^\d{2}\/\d{2}\/25\d{2} \d{2}:\d{2}:\d{2}$/);

    await textField(page, 'Code').fill('NOSUCH');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(notification(page, 'No matched discount found')).toBeVisible();
  });

  test('the sites narrow to the chosen clusters, a site of a cluster taken away goes; Search sends them', async ({
    page,
  }) => {
    await openReport(page);
    await pick(page, 'Cluster Name', SKYLINE);
    await selectNamed(page, 'Site Name').click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    for (const site of SKYLINE_SITES) await expect(options.filter({ hasText: site })).toHaveCount(1);
    await expect(options.filter({ hasText: 'Rangsit Campus Library Car Park' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await pick(page, 'Site Name', SKYLINE_SITES[0]!);
    await shoot(page, 'coupon-report.png');

    const lines = await downloadReport(page);
    const header = lines[0]!;
    const codes = lines.slice(1).map((row) => row[header.indexOf('Code')]);
    expect(codes).toEqual(Array(5).fill('SKYLINERES'));

    // Skyline taken away for CPTU: its site goes from the field.
    const siteField = page.locator('.ant-form-item').filter({ has: selectNamed(page, 'Site Name') });
    await expect(siteField).toContainText(SKYLINE_SITES[0]!);
    // Picking a chosen option again takes it away.
    await pick(page, 'Cluster Name', SKYLINE);
    await pick(page, 'Cluster Name', CPTU);
    await expect(siteField).not.toContainText(SKYLINE_SITES[0]!);
    const cptuLines = await downloadReport(page);
    expect(cptuLines.slice(1).map((row) => String(row[header.indexOf('Code')]).slice(0, 9))).toEqual(
      Array(4).fill('CPTUSTAFF'),
    );
  });

  test('sends the filled filters only, days as start and end of day; Clear Data empties the form', async ({
    page,
  }) => {
    await openReport(page);
    const urls: URL[] = [];
    await page.route('**/api/report/user-promotion**', async (route) => {
      urls.push(new URL(route.request().url()));
      // Slow enough to see the progress line.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.fulfill({ status: 404, json: { message: 'No matched discount found' } });
    });
    await textField(page, 'Name').fill('  Somchai ');
    await textField(page, 'Email').fill('   ');
    await textField(page, 'Code').fill('green50');
    for (const [label, day] of [
      ['Redeem Date From', '2026-11-01'],
      ['Redeem Date To', '2026-11-30'],
    ] as const) {
      await textField(page, label).fill(day);
      // Tab, not Enter: Enter in a field searches.
      await textField(page, label).press('Tab');
      await expect(textField(page, label)).toHaveValue(day);
    }
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByRole('status')).toHaveText('Preparing the report…');
    await expect(notification(page, 'No matched discount found')).toBeVisible();
    await expect(page.getByRole('status')).toHaveCount(0);
    expect(urls).toHaveLength(1);
    expect(Object.fromEntries(urls[0]!.searchParams)).toEqual({
      firstName: 'Somchai',
      code: 'green50',
      createdAfter: '2026-11-01T00:00:00.000+07:00',
      createdBefore: '2026-11-30T23:59:59.999+07:00',
    });

    await page.getByRole('button', { name: 'Clear Data', exact: true }).click();
    await expect(textField(page, 'Name')).toHaveValue('');
    await expect(textField(page, 'Redeem Date From')).toHaveValue('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => urls.length).toBe(2);
    expect(urls[1]!.href).toMatch(/\/api\/report\/user-promotion$/);
  });
});

test('a role without the screens gets the 403 page for both', async ({ page }) => {
  await loginAs(page, ROLE_USERS.callcenter);
  await expect(page.getByTestId('sidebar-menu')).not.toContainText('Private station');
  await expect(page.getByTestId('sidebar-menu')).not.toContainText('Discount Report');
  for (const route of ['/user-promotion', '/user-promotion-report']) {
    await page.goto(route);
    await expect(page.getByText(NOT_AUTHORIZED)).toBeVisible({ timeout: 20_000 });
  }
});
