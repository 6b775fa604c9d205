import { loginAs, notification } from './fixtures/auth.ts';
import {
  answer,
  clearData,
  columnHeader,
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
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

// One worker, in order: the create test adds a brand that the filter and export tests would count.
// The demo's five brands (tools/src/demo-brands.ts): ABB Terra AC W22 (AC, 22), ABB Terra 184 (DC, 50),
// Delta DC Wallbox (DC, 25), Wallbox Pulsar Plus (AC, 7.4), Kempower Satellite (DC, 600, inactive).
// No demo charger uses a brand yet, so the 409 of a used brand is covered by the API test only.
test.describe.configure({ mode: 'default' });

const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true }).click();
const nameField = (page: Page) => page.locator('.setting-form').getByLabel('Name', { exact: true });
const minPower = (page: Page) => page.locator('.setting-form').getByLabel('Min Power', { exact: true });
const nameFilter = (page: Page) => page.getByRole('textbox', { name: 'Name', exact: true });
const firstRow = (page: Page) => rows(page).first();

test.describe('as admin', () => {
  test.beforeEach(async ({ page }) => {
    await loginAs(page, ROLE_USERS.admin);
  });

  test('charger brand list and setting screenshots', async ({ page }) => {
    await page.goto('/charger-brand');
    await expect(rangeText(page)).toHaveText('1-5 of 5');
    await expect(rowWith(page, 'Kempower Satellite').getByRole('button', { name: /^Delete/ })).toBeVisible();
    await shoot(page, 'charger-brand-list.png');
    await rowWith(page, 'ABB Terra 184').getByRole('button', { name: 'View' }).click();
    await expect(nameField(page)).toHaveValue('ABB Terra 184');
    await shoot(page, 'charger-brand-setting.png');
  });

  test('filter, sort and page the brands, open one and come back to the same list', async ({ page }) => {
    await page.goto('/charger-brand?size=2');
    await expect(rangeText(page)).toHaveText('1-2 of 5');
    await expect(columnHeader(page, 'Min Power (kW)')).toBeVisible();
    await goToPage(page, 2);
    await expect(rangeText(page)).toHaveText('3-4 of 5');

    // A new search starts again from page 1; the name matches any part, in any case.
    await nameFilter(page).fill('abb');
    await search(page);
    await expect(page).toHaveURL(/name=abb/);
    await expect(page).toHaveURL(/page=1/);
    await expect(rangeText(page)).toHaveText('1-2 of 2');
    await pick(page, 'Power Type', 'DC');
    await search(page);
    await expect(page).toHaveURL(/powerType=DC/);
    await expect(rangeText(page)).toHaveText('1-1 of 1');
    await expect(firstRow(page)).toContainText('ABB Terra 184');
    await expect(firstRow(page)).toContainText('50.00 kW');

    await clearData(page);
    await expect(rangeText(page)).toHaveText('1-2 of 5');
    await expect(nameFilter(page)).toHaveValue('');
    await expect(page).not.toHaveURL(/name=|powerType=/);
    await sortBy(page, 'Min Power (kW)', 'minPowerKw', 'asc');
    await expect(firstRow(page)).toContainText('Wallbox Pulsar Plus');
    await expect(firstRow(page)).toContainText('7.40 kW');
    await sortBy(page, 'Min Power (kW)', 'minPowerKw', 'desc');
    await expect(firstRow(page)).toContainText('Kempower Satellite');
    await expect(firstRow(page)).toContainText('600.00 kW');

    await pick(page, 'Power Type', 'AC');
    await search(page);
    await expect(rangeText(page)).toHaveText('1-2 of 2');
    await expect(firstRow(page)).toContainText('ABB Terra AC W22');
    const listUrl = page.url();
    expect(listUrl).toMatch(/powerType=AC/);
    expect(listUrl).toMatch(/sort=minPowerKw&order=desc/);
    await firstRow(page).getByRole('button', { name: 'View' }).click();
    await expect(page).toHaveURL(/\/charger-brand\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Charger Brand Setting' })).toBeVisible();
    await expect(page.getByLabel('ID', { exact: true })).toBeDisabled();
    await expect(nameField(page)).toHaveValue('ABB Terra AC W22');
    await expect(selectNamed(page, 'Power Type')).toBeVisible();
    await expect(
      page.locator('.ant-form-item').filter({ has: selectNamed(page, 'Power Type') }),
    ).toContainText('AC');
    await expect(minPower(page)).toHaveValue('22');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(page).toHaveURL(listUrl);
    await expect(rangeText(page)).toHaveText('1-2 of 2');
    await expect(firstRow(page)).toContainText('ABB Terra AC W22');
  });

  test('export downloads the filtered brands, and says so when none match', async ({ page }) => {
    await page.goto('/charger-brand?powerType=DC');
    await expect(rangeText(page)).toHaveText('1-3 of 3');
    const sheet = await exportSheet(page, /^Charger-Brand_\d{14}\.xlsx$/);
    const values = (row: number) => (sheet.getRow(row).values as unknown[]).slice(1);
    expect(values(1)).toEqual(['ID', 'Name', 'Power Type', 'Min Power (kW)', 'Active']);
    expect(sheet.actualRowCount).toBe(4);
    const exported = [2, 3, 4].map((row) => values(row).slice(1));
    expect(exported).toEqual([
      ['ABB Terra 184', 'DC', 50, true],
      ['Delta DC Wallbox', 'DC', 25, true],
      ['Kempower Satellite', 'DC', 600, false],
    ]);

    await nameFilter(page).fill('no such brand');
    await search(page);
    await expect(page.getByText('No Data yet!')).toBeVisible();
    await page.getByRole('button', { name: 'Export' }).click();
    await expect(notification(page, 'No matched changer brand found')).toBeVisible();
  });

  test('create a brand, edit it, switch it off and delete it', async ({ page }) => {
    const name = `E2E Brand ${Date.now()}`;
    await page.goto('/charger-brand?powerType=DC');
    await page.getByRole('button', { name: 'New Charger Brand' }).click();
    await expect(page).toHaveURL(/\/charger-brand\/new$/);
    await expect(page.getByRole('heading', { name: 'Charger Brand Setting' })).toBeVisible();
    await expect(page.getByLabel('ID', { exact: true })).toHaveAttribute('placeholder', 'Auto-generated');

    await save(page);
    await expect(page.getByText('Name is required.', { exact: true })).toBeVisible();
    await expect(page.getByText('Power Type is required.', { exact: true })).toBeVisible();
    await expect(page.getByText('Min Power is required.', { exact: true })).toBeVisible();
    await nameField(page).fill('   ');
    await expect(page.getByText('Name is not whitespace', { exact: true })).toBeVisible();
    await minPower(page).fill('1.234');
    await expect(page.getByText('Min Power must have at most 2 decimals.', { exact: true })).toBeVisible();
    // Below the minimum stays as typed, after leaving the field too, and says why (no silent 0.01).
    for (const typed of ['-3', '0.001']) {
      await minPower(page).fill(typed);
      await nameField(page).focus();
      await expect(minPower(page)).toHaveValue(typed);
      await expect(page.getByText('Min Power must be at least 0.01.', { exact: true })).toBeVisible();
    }

    await nameField(page).fill(name);
    await pick(page, 'Power Type', 'DC');
    // Thousands separators while typing, kW beside the field, at most 10 characters.
    await minPower(page).fill('1234567.5');
    await expect(minPower(page)).toHaveValue('1,234,567.5');
    await expect(minPower(page)).toHaveAttribute('maxlength', '10');
    await expect(page.locator('.ant-input-number-suffix')).toHaveText('kW');
    await saveForm(page);
    await expect(page).toHaveURL(/\/charger-brand\?powerType=DC$/);

    const row = rowWith(page, name);
    await expect(row).toContainText('DC');
    await expect(row).toContainText('1,234,567.50 kW');
    await row.getByRole('button', { name: 'View' }).click();
    await expect(nameField(page)).toHaveValue(name);
    await expect(minPower(page)).toHaveValue('1,234,567.5');
    await nameField(page).fill(`${name} edited`);
    await minPower(page).fill('0.5');
    await saveForm(page);
    await expect(page).toHaveURL(/\/charger-brand\?powerType=DC$/);
    await expect(rowWith(page, `${name} edited`)).toContainText('0.50 kW');

    await switchOffAndDelete(page, `${name} edited`);
  });

  test('leaving a changed brand form warns first', async ({ page }) => {
    await page.goto('/charger-brand');
    await page.getByRole('button', { name: 'New Charger Brand' }).click();
    await nameField(page).fill('Not saved');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const warning = page.getByRole('dialog').filter({ hasText: LEAVE_WARNING });
    await expect(warning).toBeVisible();
    await answer(warning, 'No');
    await expect(page).toHaveURL(/\/charger-brand\/new$/);
    await expect(nameField(page)).toHaveValue('Not saved');

    // The sidebar asks the same.
    await page.getByTestId('sidebar-menu').getByText('Contact Us').click();
    await expect(warning).toBeVisible();
    await answer(warning, 'Yes');
    await expect(page).toHaveURL(/\/contact-us$/);
  });
});

test('roles other than admin see the 403 page and no menu entry', async ({ page }) => {
  await loginAs(page, ROLE_USERS.marketting);
  await expect(page.getByTestId('sidebar-menu')).not.toContainText('Charger Brand');
  await page.goto('/charger-brand');
  await expect(page.getByText('Sorry, you are not authorized to access this page.')).toBeVisible();
  await page.goto('/charger-brand/1');
  await expect(page.getByText('Sorry, you are not authorized to access this page.')).toBeVisible();
});
