import { loginAs, openAs } from './fixtures/auth.ts';
import {
  answer,
  clearData,
  columnHeader,
  deleteRefusedAsUsed,
  exportSheet,
  goToPage,
  LEAVE_WARNING,
  pick,
  rangeText,
  rows,
  rowWith,
  saveForm,
  search,
  selectNamed,
  sortBy,
  switchOffAndDelete,
} from './fixtures/list.ts';
import { expect, type Locator, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

// One worker, in order: the create test adds a site that the filter and export tests would count.
test.describe.configure({ mode: 'default' });

const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true }).click();
const latitude = (page: Page) => page.getByLabel('Latitude', { exact: true });
const longitude = (page: Page) => page.getByLabel('Longitude', { exact: true });
const numberIn = async (field: Locator) => Number(await field.inputValue());
const map = (page: Page) => page.locator('.map-picker .leaflet-container');
const pin = (page: Page) => page.locator('.map-picker-pin');

/** Clicks the map at a point given as fractions of its width and height. */
async function clickMap(page: Page, x: number, y: number) {
  const box = await map(page).boundingBox();
  if (!box) throw new Error('The map is not on the page');
  await page.mouse.click(box.x + box.width * x, box.y + box.height * y);
}

/** A TimePicker: type the time and leave the field (Enter would submit the form, as in any form). */
async function typeTime(page: Page, label: string, time: string) {
  const input = page.getByLabel(label, { exact: true });
  await input.click();
  await input.fill(time);
  await input.press('Tab');
  await expect(input).toHaveValue(time);
}

test.describe('as admin', () => {
  test.beforeEach(async ({ page }) => {
    await loginAs(page, ROLE_USERS.admin);
  });

  test('filter, sort and page the sites, open one and come back to the same list', async ({ page }) => {
    await page.goto('/landlord');
    await expect(rangeText(page)).toHaveText(/^1-10 of \d+$/);
    await expect(columnHeader(page, 'Cluster Name')).toBeVisible();
    await goToPage(page, 2);
    await expect(rangeText(page)).toHaveText(/^11-20 of \d+$/);

    // A new search starts again from page 1: the ten Metro Plaza sites, 7 of them with opening hours.
    await pick(page, 'Cluster Name', 'Metro Plaza Shopping Centres');
    await search(page);
    await expect(rangeText(page)).toHaveText('1-10 of 10');
    await expect(page).toHaveURL(/page=1/);
    await pick(page, 'Business Hour', 'Open on Selected Hours');
    await search(page);
    await expect(page).toHaveURL(/businessHoursType=period/);
    const periodTotal = 7;
    await expect(rangeText(page)).toHaveText('1-7 of 7');
    for (const row of await rows(page).all()) {
      await expect(row).toContainText('Open on Selected Hours');
      await expect(row).toContainText('Metro Plaza Shopping Centres');
    }

    await sortBy(page, 'Site Name', 'nameEn', 'asc');
    const siteNames = () => rows(page).locator('td:nth-child(4)').allTextContents();
    const alphabetical = (names: string[]) => [...names].sort((a, b) => a.localeCompare(b));
    await expect
      .poll(async () => ((names) => names.join() === alphabetical(names).join())(await siteNames()))
      .toBe(true);
    const names = await siteNames();
    await sortBy(page, 'Site Name', 'nameEn', 'desc');
    const first = names.at(-1) ?? '';
    await expect(rows(page).first().locator('td:nth-child(4)')).toHaveText(first);

    const listUrl = page.url();
    await rows(page).first().getByRole('button', { name: 'View' }).click();
    await expect(page).toHaveURL(/\/landlord\/\d+$/);
    await expect(page.getByLabel('Site Name (EN)')).toHaveValue(first);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(page).toHaveURL(listUrl);
    await expect(rangeText(page)).toHaveText(`1-${periodTotal} of ${periodTotal}`);
    await expect(rows(page).first()).toContainText(first);
    await expect(page.locator('.ant-form-item').filter({ hasText: 'Business Hour' })).toContainText(
      'Open on Selected Hours',
    );

    // Back and forward restore the filters too.
    await page.goBack();
    await expect(page).toHaveURL(/\/landlord\/\d+$/);
    await page.goBack();
    await expect(page).toHaveURL(/sort=nameEn&order=desc/);
    await page.goBack();
    await expect(page).toHaveURL(/sort=nameEn&order=asc/);
    await expect(rows(page).first().locator('td:nth-child(4)')).toHaveText(names[0] ?? '');
    await clearData(page);
    await expect(rangeText(page)).toHaveText(/^1-10 of \d+$/);
    await expect(page).not.toHaveURL(/merchantId=|businessHoursType=/);
  });

  test('export downloads the filtered sites, and says so when none match', async ({ page }) => {
    await page.goto('/landlord?businessHoursType=closed');
    await expect(rangeText(page)).toHaveText('1-3 of 3');
    const sheet = await exportSheet(page, /^Landlord_\d+\.xlsx$/);
    expect(sheet.getRow(1).getCell(1).value).toBe('Site ID');
    expect(sheet.getRow(1).getCell(2).value).toBe('Site Name (EN)');
    expect(sheet.actualRowCount).toBe(4);
    const exported = [2, 3, 4].map((row) => String(sheet.getRow(row).getCell(2).value));
    expect(exported.sort()).toEqual((await rows(page).locator('td:nth-child(4)').allTextContents()).sort());

    // Both sites of the closed-down cluster are inactive: no active one to export.
    await page.goto('/landlord');
    await pick(page, 'Cluster Name', 'Riverside Parking Co. (closed)');
    await pick(page, 'Status', 'Active');
    await search(page);
    await expect(page.getByText('No Data yet!')).toBeVisible();
    await page.getByRole('button', { name: 'Export' }).click();
    await expect(page.getByText('No matched landlord found')).toBeVisible();
  });

  test('create a site with the map and opening hours, edit it, switch it off and delete it', async ({
    page,
  }) => {
    const name = `E2E Site ${Date.now()}`;
    await page.goto('/landlord');
    await page.getByRole('button', { name: 'New Site' }).click();
    await expect(page).toHaveURL(/\/landlord\/new$/);

    await save(page);
    for (const message of [
      'Cluster Name is required.',
      'Site Name (EN) is required.',
      'Site Name (TH) is required.',
      'Latitude is required.',
      'Longitude is required.',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }

    await pick(page, 'Cluster Name', 'Skyline Living Condominiums');
    await page.getByLabel('Site Name (EN)').fill(name);
    await page.getByLabel('Site Name (TH)').fill('สถานีทดสอบ');

    // No tiles load here: a click on the bare map still sets the point, near the default centre.
    await expect(pin(page)).toHaveCount(0);
    await clickMap(page, 0.5, 0.5);
    await expect(pin(page)).toBeVisible();
    const lat = await numberIn(latitude(page));
    const lng = await numberIn(longitude(page));
    expect(lat).toBeCloseTo(13.69, 1);
    expect(lng).toBeCloseTo(100.54, 1);
    await expect(page.getByText('Latitude is required.', { exact: true })).toBeHidden();

    // Opening hours: rows only for 'Open on Selected Hours', each one checked.
    await pick(page, 'Business Hours', 'Open on Selected Hours');
    await page.getByRole('button', { name: 'Add hours' }).click();
    await page.getByRole('button', { name: 'Add hours' }).click();
    await expect(page.getByTestId('business-hour-row')).toHaveCount(2);
    await save(page);
    await expect(page.getByText('Day is required.', { exact: true }).first()).toBeVisible();
    await expect(page.getByText('Time is required.', { exact: true }).first()).toBeVisible();
    await page.getByRole('button', { name: 'Remove hours 2' }).click();
    await expect(page.getByTestId('business-hour-row')).toHaveCount(1);
    await pick(page, 'Day 1', 'Monday');
    await typeTime(page, 'Open time 1', '08:30');
    await typeTime(page, 'Close time 1', '17:45');
    await page.getByLabel('Address (EN)').fill('1 Test Road\nBang Rak\nBangkok 10500');
    // Power (issue 34): a limit alone is enough (a DC site has no phases); it comes back as typed.
    await page.getByLabel('Max power (kW)', { exact: true }).fill('150.5');
    await saveForm(page);
    await expect(page).toHaveURL(/\/landlord$/);

    // Find it, open it: the hours come back as HH:mm and the cluster is fixed.
    await pick(page, 'Site Name', name);
    await search(page);
    await expect(rangeText(page)).toHaveText('1-1 of 1');
    const row = rowWith(page, name);
    await expect(row).toContainText('Skyline Living Condominiums');
    await expect(row).toContainText('Open on Selected Hours');
    await expect(row).toContainText('Internal Used');
    await row.getByRole('button', { name: 'View' }).click();
    await expect(page.getByLabel('Site Name (EN)')).toHaveValue(name);
    await expect(selectNamed(page, 'Cluster Name')).toBeDisabled();
    await expect(page.getByLabel('Open time 1')).toHaveValue('08:30');
    await expect(page.getByLabel('Close time 1')).toHaveValue('17:45');
    expect(await numberIn(latitude(page))).toBe(lat);
    await expect(page.getByLabel('Max power (kW)', { exact: true })).toHaveValue('150.5');
    await expect(page.getByLabel('Voltage (V)', { exact: true })).toHaveValue('');
    // A site with a limit shows its Live load first, above the form (site-power.spec tells it).
    await expect(page.getByTestId('live-load').getByTestId('load-chart')).toBeVisible();

    // Drag the pin: the coordinates follow.
    await pin(page).scrollIntoViewIfNeeded();
    const from = await pin(page).boundingBox();
    if (!from) throw new Error('No pin');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 80, from.y - 60, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => numberIn(longitude(page))).toBeGreaterThan(lng);
    expect(await numberIn(latitude(page))).toBeGreaterThan(lat);

    await page.getByLabel('Site Name (EN)').fill(`${name} edited`);
    await saveForm(page);
    await expect(page).toHaveURL(/\/landlord\?landlordId=\d+&page=1$/);
    await switchOffAndDelete(page, `${name} edited`);
    await expect(page.getByText('No Data yet!')).toBeVisible();
  });

  test('a site in a group cannot be deleted', async ({ page }) => {
    const site = 'ThaiWay Vibhavadi–Lak Si';
    await page.goto('/landlord');
    await pick(page, 'Site Name', site);
    await search(page);
    const row = rowWith(page, site);
    await row.getByRole('switch').click();
    await expect(row.getByRole('switch')).not.toBeChecked();
    await deleteRefusedAsUsed(page, site);
    await row.getByRole('switch').click();
    await expect(row.getByRole('switch')).toBeChecked();
  });

  test('a map click counts as an edit: leaving asks first', async ({ page }) => {
    await page.goto('/landlord');
    await page.getByRole('button', { name: 'New Site' }).click();
    await clickMap(page, 0.3, 0.4);
    await expect(latitude(page)).not.toHaveValue('');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const warning = page.getByRole('dialog').filter({ hasText: LEAVE_WARNING });
    await expect(warning).toBeVisible();
    await answer(warning, 'No');
    await expect(page).toHaveURL(/\/landlord\/new$/);
    await page.getByTestId('sidebar-menu').getByRole('link', { name: 'Group', exact: true }).click();
    await expect(warning).toBeVisible();
    await answer(warning, 'Yes');
    await expect(page).toHaveURL(/\/party$/);
  });
});

test.describe('by role', () => {
  test('a cluster user sees its own sites only, without the cluster columns, and may add one', async ({
    page,
  }) => {
    await openAs(page, ROLE_USERS.merchant, '/landlord');
    await expect(rangeText(page)).toHaveText('1-10 of 10');
    await expect(columnHeader(page, 'Cluster Name')).toHaveCount(0);
    await expect(selectNamed(page, 'Cluster Name')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'New Site' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Site Name', exact: true }).click();
    await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option')).toHaveCount(10);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'New Site' }).click();
    await expect(page.getByLabel('Site Name (EN)')).toBeVisible();
    await expect(selectNamed(page, 'Cluster Name')).toHaveCount(0);
  });

  test('a group user sees its group sites read-only', async ({ page }) => {
    await openAs(page, ROLE_USERS.party, '/landlord');
    await expect(rangeText(page)).toHaveText('1-8 of 8');
    await expect(page.getByRole('button', { name: 'New Site' })).toHaveCount(0);
    await expect(rows(page).first().getByRole('switch')).toBeDisabled();
    await rows(page).first().getByRole('button', { name: 'View' }).click();
    await expect(page.getByLabel('Site Name (EN)')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(/\/landlord$/);

    await page.goto('/landlord/new');
    await expect(page.getByText('Sorry, you are not authorized to access this page.')).toBeVisible();
  });

  test("a site user sees only its own site, and another site's page is not found", async ({ page }) => {
    await loginAs(page, ROLE_USERS.landlord);
    await expect(
      page.getByTestId('sidebar-menu').getByRole('link', { name: 'Site', exact: true }),
    ).toHaveCount(0);
    await page.goto('/landlord');
    await expect(rangeText(page)).toHaveText('1-1 of 1');
    await expect(rows(page).first()).toContainText('Siam Square Parking B2');
    const ownId = Number(await rows(page).first().locator('td:nth-child(1)').textContent());
    await page.goto(`/landlord/${ownId + 1}`);
    await expect(page.getByText("Sorry, this page can't be found.", { exact: true })).toBeVisible();
  });

  test('a call-center user sees every cluster, chooses the cluster of a new site, and opens Cluster', async ({
    page,
  }) => {
    await openAs(page, ROLE_USERS.callcenter, '/landlord');
    await expect(rangeText(page)).toHaveText(/^1-10 of \d+$/);
    await expect(columnHeader(page, 'Cluster Name')).toBeVisible();
    await expect(selectNamed(page, 'Cluster Name')).toBeVisible();
    await page.getByRole('button', { name: 'New Site' }).click();
    await expect(selectNamed(page, 'Cluster Name')).toBeEnabled();
    await page.goto('/merchant');
    await expect(rangeText(page)).toHaveText(/^1-10 of \d+$/);
  });

  test('a customer-station user sees its group sites without New Site, and no Cluster screen', async ({
    page,
  }) => {
    await openAs(page, ROLE_USERS.station, '/landlord');
    await expect(rangeText(page)).toHaveText('1-10 of 10');
    await expect(page.getByRole('button', { name: 'New Site' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
    await page.goto('/merchant');
    await expect(page.getByText('Sorry, you are not authorized to access this page.')).toBeVisible();
  });

  test('roles without the site screen see the 403 page', async ({ page }) => {
    await openAs(page, ROLE_USERS.marketting, '/landlord');
    await expect(page.getByText('Sorry, you are not authorized to access this page.')).toBeVisible();
    await page.goto('/party');
    await expect(page.getByText('Sorry, you are not authorized to access this page.')).toBeVisible();
  });
});
