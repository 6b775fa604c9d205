import { loginAs } from './fixtures/auth.ts';
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

// One worker, in order: the create tests add plans that the filter and export tests would count.
test.describe.configure({ mode: 'default' });

/** The six demo plans (tools/src/demo-prices.ts). */
const DEMO_TOTAL = 6;
const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true }).click();
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A field's accessible name: a required field's starts with its '* ' mark. */
const named = (label: string) => new RegExp(`^(\\* )?${escapeRegExp(label)}$`);
/** The form's text and number inputs labelled `label`. */
const input = (page: Page, label: string) => page.getByRole('textbox', { name: named(label) });
const amount = (page: Page, label: string) => page.getByRole('spinbutton', { name: named(label) });
/** The list's Description filter (the table's column header has the same name). */
const descFilter = (page: Page) => page.getByRole('textbox', { name: 'Description', exact: true });
const perMinute = (page: Page) => page.getByRole('textbox', { name: /^Baht\/min \(approx\.\)/ });
const message = (page: Page, text: string) => page.getByText(text, { exact: true });
const descriptions = (page: Page) => rows(page).locator('td:nth-child(2)').allTextContents();

/** A time or date-time picker: type and leave the field (Enter would submit the form). */
async function typeInto(page: Page, label: string, value: string) {
  const field = page.getByLabel(label, { exact: true });
  await field.click();
  await field.fill(value);
  await field.press('Tab');
  await expect(field).toHaveValue(value);
}

test.describe('as admin', () => {
  test.beforeEach(async ({ page }) => {
    await loginAs(page, ROLE_USERS.admin);
  });

  test('filter, sort and page the plans, open one and come back to the same list', async ({ page }) => {
    await page.goto('/price?size=2');
    await expect(rangeText(page)).toHaveText(`1-2 of ${DEMO_TOTAL}`);
    for (const title of [
      'ID',
      'Description',
      'Method',
      'Calculate Method',
      'Baht/hr',
      'Baht/kWh',
      'Action',
    ]) {
      await expect(columnHeader(page, title).first()).toBeVisible();
    }
    await expect(columnHeader(page, 'Inactive/Active')).toBeVisible();
    await goToPage(page, 2);
    await expect(rangeText(page)).toHaveText(`3-4 of ${DEMO_TOTAL}`);

    // A new search starts again from page 1.
    await pick(page, 'Method', 'Hour');
    await search(page);
    await expect(page).toHaveURL(/method=HOUR/);
    await expect(page).toHaveURL(/page=1/);
    await expect(rangeText(page)).toHaveText('1-2 of 3');
    await pick(page, 'Calculate Method', 'Baht/min');
    await search(page);
    await expect(rangeText(page)).toHaveText('1-1 of 1');
    await expect(rows(page).first()).toContainText('AC Pay per Minute');
    await expect(rows(page).first()).toContainText('45.00');

    // Description matches either language.
    await clearData(page);
    await expect(page).not.toHaveURL(/method=/);
    await descFilter(page).fill('dc');
    await descFilter(page).press('Enter');
    await expect(rangeText(page)).toHaveText('1-2 of 2');
    await descFilter(page).fill('คอนโด');
    await search(page);
    await expect(rangeText(page)).toHaveText('1-1 of 1');
    await expect(rows(page).first()).toContainText('AC Residents (condominium)');
    await clearData(page);
    await expect(rangeText(page)).toHaveText(`1-2 of ${DEMO_TOTAL}`);

    await sortBy(page, 'Baht/kWh', 'bahtPerKwh', 'asc');
    await sortBy(page, 'Baht/kWh', 'bahtPerKwh', 'desc');
    await expect(rows(page).first()).toContainText('DC Ultra Fast (HPC 180 kW)');
    await expect(rows(page).first()).toContainText('8.65');
    await sortBy(page, 'Description', 'descEn', 'asc');
    await expect(rows(page).first()).toContainText('AC Flat Rate 2024 (retired)');
    await goToPage(page, 2);
    await expect(rangeText(page)).toHaveText(`3-4 of ${DEMO_TOTAL}`);
    // The pager moves at once; the rows follow when page 2 has loaded.
    await expect(rows(page).first()).not.toContainText('AC Flat Rate 2024 (retired)');
    const names = await descriptions(page);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));

    const listUrl = page.url();
    await rows(page).first().getByRole('button', { name: 'View' }).click();
    await expect(page).toHaveURL(/\/price\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Price Setting' })).toBeVisible();
    await expect(input(page, 'Description (EN)')).toHaveValue(names[0] ?? '');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(page).toHaveURL(listUrl);
    await expect(rangeText(page)).toHaveText(`3-4 of ${DEMO_TOTAL}`);
    await expect(rows(page).first()).toContainText(names[0] ?? '');
  });

  test('the form couples the rates to the method and shows the per-minute rate', async ({ page }) => {
    await page.goto('/price');
    await page.getByRole('button', { name: 'New Price' }).click();
    await expect(page).toHaveURL(/\/price\/new$/);
    await expect(input(page, 'ID')).toHaveValue('');
    for (const fee of ['Extracharger fee (Baht/min)', 'Penalty fee (Baht/min)', 'Penalty delay (min)']) {
      await expect(amount(page, fee)).toHaveValue('0');
    }

    await save(page);
    for (const text of [
      'Description (EN) is required.',
      'Description (TH) is required.',
      'Method is required.',
      'Calculate Method is required.',
      'Baht/kWh is required.',
      'Baht/hr is required.',
    ]) {
      await expect(message(page, text)).toBeVisible();
    }
    await amount(page, 'Extracharger fee (Baht/min)').fill('');
    await expect(message(page, 'Extracharger fee (Baht/min) is required.')).toBeVisible();
    await amount(page, 'Penalty delay (min)').fill('');
    await expect(message(page, 'Penalty delay (min) is required.')).toBeVisible();
    await input(page, 'Description (EN)').fill('   ');
    await expect(message(page, 'Description (EN) is not whitespace')).toBeVisible();

    // HOUR: Baht/kWh is 0 and disabled.
    await pick(page, 'Method', 'Hour');
    await expect(amount(page, 'Baht/kWh')).toBeDisabled();
    await expect(amount(page, 'Baht/kWh')).toHaveValue('0');
    await expect(message(page, 'Baht/kWh is required.')).toBeHidden();
    await expect(selectNamed(page, 'Calculate Method')).toBeEnabled();

    // BAHT_MIN: Baht/hr / 60 with 3 decimals beside Baht/hr.
    await expect(perMinute(page)).toHaveCount(0);
    await pick(page, 'Calculate Method', 'Baht/min');
    await amount(page, 'Baht/hr').fill('40');
    await expect(perMinute(page)).toHaveValue('0.667');
    await amount(page, 'Baht/hr').fill('45.5');
    await expect(perMinute(page)).toHaveValue('0.758');
    await amount(page, 'Baht/hr').fill('1.234');
    await expect(message(page, 'Baht/hr must have at most 2 decimals.')).toBeVisible();
    // What was typed stays, after leaving the field too: a negative amount is refused with its message,
    // never turned into 0.
    await amount(page, 'Baht/hr').fill('-5');
    await amount(page, 'Penalty delay (min)').focus();
    await expect(amount(page, 'Baht/hr')).toHaveValue('-5');
    await expect(message(page, 'Baht/hr must be 0 or more.')).toBeVisible();
    await amount(page, 'Penalty delay (min)').fill('-1');
    await amount(page, 'Baht/hr').focus();
    await expect(amount(page, 'Penalty delay (min)')).toHaveValue('-1');
    await expect(message(page, 'Penalty delay (min) must be 0 or more.')).toBeVisible();
    await amount(page, 'Penalty delay (min)').fill('0');
    await amount(page, 'Baht/hr').fill('120');
    await expect(perMinute(page)).toHaveValue('2.000');
    await expect(amount(page, 'Baht/hr')).toHaveAttribute('maxlength', '10');

    // KW: Baht/hr is 0 and disabled, Calculate Method forced to Baht/hr and disabled; Baht/kWh opens.
    await pick(page, 'Method', 'kWh');
    await expect(amount(page, 'Baht/hr')).toBeDisabled();
    await expect(amount(page, 'Baht/hr')).toHaveValue('0');
    await expect(selectNamed(page, 'Calculate Method')).toBeDisabled();
    await expect(page.locator('.ant-form-item').filter({ hasText: 'Calculate Method' })).toContainText(
      'Baht/hr',
    );
    await expect(perMinute(page)).toHaveCount(0);
    await expect(amount(page, 'Baht/kWh')).toBeEnabled();
    await amount(page, 'Baht/kWh').fill('7.15');

    // Back to HOUR: Baht/kWh is zeroed again, Baht/hr opens.
    await pick(page, 'Method', 'Hour');
    await expect(amount(page, 'Baht/kWh')).toHaveValue('0');
    await expect(amount(page, 'Baht/hr')).toBeEnabled();
  });

  test('create a plan with weekday and dated overrides, edit it, switch it off and delete it', async ({
    page,
  }) => {
    const name = `E2E Price ${Date.now()}`;
    await page.goto('/price');
    await page.getByRole('button', { name: 'New Price' }).click();
    await input(page, 'Description (EN)').fill(name);
    await input(page, 'Description (TH)').fill('ราคาทดสอบ');
    await pick(page, 'Method', 'kWh');
    await amount(page, 'Baht/kWh').fill('7.15');

    // Weekday rows: each field checked, then the window's order and overlap.
    const addWeekday = page.getByRole('button', { name: 'Add weekday override' });
    await addWeekday.click();
    await addWeekday.click();
    await expect(page.getByTestId('overrideWeekdays-row')).toHaveCount(2);
    await expect(page.getByLabel('Weekday 1 Baht/hr')).toBeDisabled();
    await expect(page.getByLabel('Weekday 1 Baht/hr')).toHaveValue('0');
    await save(page);
    for (const text of [
      'Day is required.',
      'From is required.',
      'To is required.',
      'Baht/kWh is required.',
    ]) {
      await expect(message(page, text).first()).toBeVisible();
    }
    await page.getByRole('button', { name: 'Remove weekday override 2' }).click();
    await expect(page.getByTestId('overrideWeekdays-row')).toHaveCount(1);
    await pick(page, 'Weekday 1 day', 'Friday');
    await typeInto(page, 'Weekday 1 from', '22:00');
    await typeInto(page, 'Weekday 1 to', '06:00');
    await expect(message(page, 'Weekday override 1: To must be after From.')).toBeVisible();
    await typeInto(page, 'Weekday 1 to', '23:59');
    await expect(message(page, 'Weekday override 1: To must be after From.')).toBeHidden();
    await page.getByLabel('Weekday 1 Baht/kWh').fill('4.5');
    await addWeekday.click();
    await pick(page, 'Weekday 2 day', 'Friday');
    await typeInto(page, 'Weekday 2 from', '23:00');
    await typeInto(page, 'Weekday 2 to', '23:30');
    await page.getByLabel('Weekday 2 Baht/kWh').fill('4.5');
    await save(page);
    await expect(message(page, 'Weekday override 2 overlaps weekday override 1.')).toBeVisible();
    await pick(page, 'Weekday 2 day', 'Saturday');
    await typeInto(page, 'Weekday 2 from', '00:00');
    await typeInto(page, 'Weekday 2 to', '05:59');

    // A dated row: From and To required, then Songkran.
    await page.getByRole('button', { name: 'Add dated override' }).click();
    await save(page);
    await expect(message(page, 'From is required.')).toBeVisible();
    await expect(message(page, 'To is required.')).toBeVisible();
    await typeInto(page, 'Dated 1 from', '2027-04-15 23:59');
    await typeInto(page, 'Dated 1 to', '2027-04-13 00:00');
    await expect(message(page, 'Dated override 1: To must be after From.')).toBeVisible();
    await typeInto(page, 'Dated 1 from', '2027-04-13 00:00');
    await typeInto(page, 'Dated 1 to', '2027-04-15 23:59');
    await page.getByLabel('Dated 1 Baht/kWh').fill('5.5');
    await saveForm(page);
    await expect(page).toHaveURL(/\/price$/);

    // Find it: the amounts are exact, and the rows come back.
    await descFilter(page).fill(name);
    await search(page);
    await expect(rangeText(page)).toHaveText('1-1 of 1');
    const row = rowWith(page, name);
    await expect(row).toContainText('kWh');
    await expect(row).toContainText('7.15');
    await row.getByRole('button', { name: 'View' }).click();
    await expect(input(page, 'Description (EN)')).toHaveValue(name);
    await expect(amount(page, 'Baht/kWh')).toHaveValue('7.15');
    await expect(amount(page, 'Baht/hr')).toBeDisabled();
    await expect(page.getByTestId('overrideWeekdays-row')).toHaveCount(2);
    await expect(page.getByLabel('Weekday 1 from')).toHaveValue('22:00');
    await expect(page.getByLabel('Weekday 2 to')).toHaveValue('05:59');
    await expect(page.getByLabel('Dated 1 from')).toHaveValue('2027-04-13 00:00');
    await expect(page.getByLabel('Dated 1 to')).toHaveValue('2027-04-15 23:59');
    await expect(page.getByLabel('Dated 1 Baht/kWh')).toHaveValue('5.5');

    await page.getByRole('button', { name: 'Remove dated override 1' }).click();
    await input(page, 'Description (EN)').fill(`${name} edited`);
    await saveForm(page);
    await expect(page).toHaveURL(/\/price\?desc=E2E\+Price\+\d+&page=1$/);
    await descFilter(page).fill(`${name} edited`);
    await search(page);
    await rowWith(page, `${name} edited`).getByRole('button', { name: 'View' }).click();
    await expect(page.getByTestId('overrides-row')).toHaveCount(0);
    await expect(page.getByTestId('overrideWeekdays-row')).toHaveCount(2);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await switchOffAndDelete(page, `${name} edited`);
    await expect(page.getByText('No Data yet!')).toBeVisible();
  });

  test('export downloads the filtered plans, and says so when none match', async ({ page }) => {
    await page.goto('/price?method=KW&sort=id&order=asc');
    await expect(rangeText(page)).toHaveText('1-3 of 3');
    const sheet = await exportSheet(page, /^Price_\d+\.xlsx$/);
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'ID',
      'Description (EN)',
      'Description (TH)',
      'Method',
      'Calculate Method',
      'Baht/hr',
      'Baht/kWh',
      'Extracharger fee (Baht/min)',
      'Penalty fee (Baht/min)',
      'Penalty delay (min)',
      'Active',
    ]);
    expect(sheet.actualRowCount).toBe(4);
    const exported = [2, 3, 4].map((line) => String(sheet.getRow(line).getCell(2).value));
    expect(exported).toEqual(await descriptions(page));
    const ultra = sheet.getRow(exported.indexOf('DC Ultra Fast (HPC 180 kW)') + 2);
    expect([ultra.getCell(4).value, ultra.getCell(5).value, ultra.getCell(7).value]).toEqual([
      'kWh',
      'Baht/hr',
      8.65,
    ]);

    await descFilter(page).fill('no plan is called this');
    await search(page);
    await expect(page.getByText('No Data yet!')).toBeVisible();
    await page.getByRole('button', { name: 'Export' }).click();
    await expect(page.getByText('No price found')).toBeVisible();
  });

  test('leaving a changed plan warns first; the method alone counts as a change', async ({ page }) => {
    await page.goto('/price');
    await page.getByRole('button', { name: 'New Price' }).click();
    // The list has a Method filter too: pick in the form only once it is there.
    await expect(page).toHaveURL(/\/price\/new$/);
    await expect(input(page, 'ID')).toHaveValue('');
    await pick(page, 'Method', 'kWh');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const warning = page.getByRole('dialog').filter({ hasText: LEAVE_WARNING });
    await expect(warning).toBeVisible();
    await answer(warning, 'No');
    await expect(page).toHaveURL(/\/price\/new$/);
    await page.getByTestId('sidebar-menu').getByRole('link', { name: 'Group', exact: true }).click();
    await expect(warning).toBeVisible();
    await answer(warning, 'Yes');
    await expect(page).toHaveURL(/\/party$/);
  });

  test('screenshots: the list and a per-minute plan with its overrides', async ({ page }) => {
    await page.goto('/price');
    await expect(rangeText(page)).toHaveText(`1-${DEMO_TOTAL} of ${DEMO_TOTAL}`);
    await shoot(page, 'price-list.png');
    await rowWith(page, 'AC Pay per Minute').getByRole('button', { name: 'View' }).click();
    await expect(perMinute(page)).toHaveValue('0.750');
    await expect(page.getByTestId('overrides-row')).toHaveCount(1);
    // No hover highlight on the field under the pointer.
    await page.mouse.move(0, 0);
    await shoot(page, 'price-setting.png');
  });
});

test.describe('by role', () => {
  test('marketing uses the price screens end to end', async ({ page }) => {
    const name = `E2E Marketing Price ${Date.now()}`;
    await loginAs(page, ROLE_USERS.marketting);
    await page.getByTestId('sidebar-menu').getByRole('link', { name: 'Price', exact: true }).click();
    await expect(page).toHaveURL(/\/price$/);
    await expect(rangeText(page)).toHaveText(`1-${DEMO_TOTAL} of ${DEMO_TOTAL}`);
    await page.getByRole('button', { name: 'New Price' }).click();
    await input(page, 'Description (EN)').fill(name);
    await input(page, 'Description (TH)').fill('ราคาการตลาด');
    await pick(page, 'Method', 'Hour');
    await pick(page, 'Calculate Method', 'Baht/hr');
    await amount(page, 'Baht/hr').fill('39.5');
    await saveForm(page);
    await expect(rowWith(page, name)).toContainText('39.50');
    await switchOffAndDelete(page, name);
  });

  test('roles without the price screen see the 403 page', async ({ page }) => {
    await loginAs(page, ROLE_USERS.callcenter);
    await expect(
      page.getByTestId('sidebar-menu').getByRole('link', { name: 'Price', exact: true }),
    ).toHaveCount(0);
    for (const path of ['/price', '/price/new']) {
      await page.goto(path);
      await expect(page.getByText('Sorry, you are not authorized to access this page.')).toBeVisible();
    }
  });
});
