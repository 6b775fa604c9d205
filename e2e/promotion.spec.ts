import fs from 'node:fs';
import { loginAs, notification } from './fixtures/auth.ts';
import { pick, rangeText, rowWith, search, switchOffAndDelete } from './fixtures/list.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/** Promotions of the three types (document 3, sections 2 to 5; issue 21): the list, the form and the codes. */

const SUFFIX = /[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{8}/;
let n = 0;
const fresh = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${n++}`;

test.beforeEach(async ({ page }) => {
  await loginAs(page, ROLE_USERS.admin);
});

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** Types a date and time into a picker and confirms it. */
async function pickDate(page: Page, label: string, value: string) {
  await field(page, label).click();
  await field(page, label).fill(value);
  await page.keyboard.press('Enter');
  await expect(field(page, label)).toHaveValue(value);
}

/** Narrows the list to one code. */
async function findCode(page: Page, code: string) {
  // The list, not the form still showing its success popup.
  await expect(page.getByRole('button', { name: 'New Promotion' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Code' }).fill(code);
  await search(page);
  await expect(page).toHaveURL(new RegExp(`code=${code}`));
  await expect(rangeText(page)).toHaveText('1-1 of 1');
}

/** Fills the fields every type has. */
async function fillCommon(page: Page, values: { code: string; name: string; count: string }) {
  await field(page, 'Code').fill(values.code);
  await field(page, 'Number of code').fill(values.count);
  await field(page, 'Promotion Name (EN)').fill(values.name);
  await field(page, 'Promotion Name (TH)').fill(`${values.name} (ไทย)`);
  await pickDate(page, 'Start Date', '2026-12-01 00:00');
  await pickDate(page, 'End Date', '2027-01-31 23:59');
}

test('a 50-code discount: the CSV downloads on save, the codes again from the form, then switch off and delete', async ({
  page,
}) => {
  const code = fresh('RAIN');
  const name = `Rainy season ${code}`;
  await page.goto('/promotion/discount');
  await expect(page.getByRole('heading', { name: 'Promotion Code' })).toBeVisible();
  await page.getByRole('button', { name: 'New Promotion' }).click();
  await expect(page).toHaveURL(/\/promotion\/discount\/new$/);
  // The list stays until the form's code has loaded: its Code filter would be taken for the form's.
  await expect(page.getByRole('heading', { name: 'Promotion Code Setting' })).toBeVisible();
  await fillCommon(page, { code, name, count: '50' });
  // The example: the code with a random suffix above one code, the code itself for one.
  await expect(page.getByTestId('example-code')).toHaveText(new RegExp(`^Example: ${code}${SUFFIX.source}$`));
  await field(page, 'Number of code').fill('1');
  await expect(page.getByTestId('example-code')).toHaveText(`Example: ${code}`);
  await field(page, 'Number of code').fill('50');
  await field(page, 'Usage per code').fill('3');
  await page.getByText('Public', { exact: true }).click();
  await page.getByText('Show', { exact: true }).click();
  await field(page, 'Discount (%)').fill('10');
  await field(page, 'Discount (THB)').fill('50');
  await shoot(page, 'promotion-discount-new.png');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${code}.csv`);
  const lines = fs
    .readFileSync(await file.path(), 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe('Code,Used,Limit');
  expect(lines).toHaveLength(51);
  for (const line of lines.slice(1)) expect(line).toMatch(new RegExp(`^${code}${SUFFIX.source},0,3$`));
  expect(new Set(lines).size).toBe(51);
  await expect(page.getByText('Successfully saved data.', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/promotion\/discount(\?|$)/);

  // Found by its code (the demo and other tests have promotions of their own).
  await findCode(page, code);
  const row = rowWith(page, code);
  await expect(row).toContainText(name);
  await expect(row).toContainText('10% up to 50.00 THB');
  await shoot(page, 'promotion-discount-list.png');

  // Viewed: only the names and the homepage may change; the codes download again (admin).
  await row.getByRole('button', { name: 'View' }).click();
  await expect(page).toHaveURL(/\/promotion\/discount\/\d+$/);
  // The list stays until the form's code has loaded (its Code filter has the form field's label).
  await expect(page.getByRole('button', { name: 'Download codes' })).toBeVisible();
  await expect(field(page, 'Code')).toBeDisabled();
  await expect(field(page, 'Number of code')).toBeDisabled();
  await expect(field(page, 'Discount (%)')).toBeDisabled();
  await expect(field(page, 'Promotion Name (EN)')).toBeEnabled();
  const again = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download codes' }).click();
  const codes = await again;
  expect(codes.suggestedFilename()).toBe(`${code}.csv`);
  expect(
    fs
      .readFileSync(await codes.path(), 'utf8')
      .trimEnd()
      .split('\r\n')
      .slice(1),
  ).toEqual(lines.slice(1));
  await expect(notification(page, 'Codes downloading has been started.')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page).toHaveURL(/\/promotion\/discount(\?|$)/);

  await switchOffAndDelete(page, name);
});

test("the form keeps each type's rules: a point code is public, a private station code for its sites", async ({
  page,
}) => {
  await page.goto('/promotion/point/new');
  await expect(page.getByRole('heading', { name: 'Point Code Setting' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Public' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Public' })).toBeDisabled();
  await expect(field(page, 'Point')).toBeVisible();
  await expect(field(page, 'Discount (%)')).toHaveCount(0);
  await expect(field(page, 'Site Name')).toBeDisabled();
  await shoot(page, 'promotion-point-new.png');

  await page.goto('/promotion/landlord/new');
  await expect(page.getByRole('heading', { name: 'Private Station Code Setting' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Selected landlords' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Selected landlords' })).toBeDisabled();
  await expect(page.getByText('Homepage', { exact: true })).toHaveCount(0);
  await expect(field(page, 'Point')).toHaveCount(0);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Site Name is required.', { exact: true })).toBeVisible();
  await expect(page.getByText('Code is required.', { exact: true })).toBeVisible();
  await field(page, 'Code').fill('NO-DASH');
  await expect(page.getByText('Only A-Z a-z 0-9 is allowed', { exact: true })).toBeVisible();
  await shoot(page, 'promotion-landlord-new.png');

  // A discount: clusters and sites only for selected landlords, cleared when it turns public.
  await page.goto('/promotion/discount/new');
  await expect(field(page, 'Site Name')).toBeDisabled();
  await page.getByRole('radio', { name: 'Selected landlords' }).check();
  await expect(field(page, 'Site Name')).toBeEnabled();
  await pick(page, 'Site Name', 'Siam Square Parking B2');
  await expect(
    page.locator('.ant-select-selection-item', { hasText: 'Siam Square Parking B2' }),
  ).toBeVisible();
  await page.getByRole('radio', { name: 'Public' }).check();
  await expect(page.locator('.ant-select-selection-item', { hasText: 'Siam Square Parking B2' })).toHaveCount(
    0,
  );
  await expect(field(page, 'Site Name')).toBeDisabled();
  await shoot(page, 'promotion-discount-public.png');
});

test("a code already used is refused with 'Code is already used', the form kept", async ({ page }) => {
  const code = fresh('ONCE');
  const createOne = async (name: string) => {
    await page.goto('/promotion/point/new');
    await fillCommon(page, { code, name, count: '1' });
    await page.getByText('Hide', { exact: true }).click();
    await field(page, 'Point').fill('20');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
  };
  await createOne(`Points ${code}`);
  await expect(page.getByText('Successfully saved data.', { exact: true })).toBeVisible();
  await findCode(page, code);
  await expect(rowWith(page, code)).toContainText('20 points');
  // The same code, in lower case: refused, the user stays on the form with what they typed.
  await page.goto('/promotion/point/new');
  await fillCommon(page, { code: code.toLowerCase(), name: 'Again', count: '1' });
  await page.getByText('Hide', { exact: true }).click();
  await field(page, 'Point').fill('20');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(notification(page, 'Code is already used')).toBeVisible();
  await expect(page).toHaveURL(/\/promotion\/point\/new$/);
  await expect(field(page, 'Promotion Name (EN)')).toHaveValue('Again');
});

test('the list is per type, and an unknown type is not found', async ({ page }) => {
  await page.goto('/promotion/landlord');
  await expect(page.getByRole('heading', { name: 'Private Station Code' })).toBeVisible();
  await expect(page.getByText('Homepage', { exact: true })).toHaveCount(0);
  // The type fixes the area type (and, here, the homepage): no filter for them (docs/spec-deviations.md).
  await expect(page.getByText('Area type', { exact: true })).toHaveCount(0);
  // The demo's private stations (tools/src/demo-promotions.ts).
  await expect(rowWith(page, 'SKYLINERES')).toBeVisible();
  await shoot(page, 'promotion-landlord-list.png');
  await page.goto('/promotion/point?code=EVDAY');
  await expect(page.getByRole('heading', { name: 'Point Code' })).toBeVisible();
  await expect(rowWith(page, 'EVDAY')).toBeVisible();
  // A point code is always public, but shown on the homepage or not by choice.
  await expect(page.getByText('Area type', { exact: true })).toHaveCount(0);
  await expect(page.getByLabel('Homepage', { exact: true })).toBeVisible();
  await page.goto('/promotion/discount');
  await expect(page.getByLabel('Area type', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Homepage', { exact: true })).toBeVisible();
  await shoot(page, 'promotion-point-list.png');
  await page.goto('/promotion/coupon');
  await expect(page.getByText("Sorry, this page can't be found.")).toBeVisible();
});
