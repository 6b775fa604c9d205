import { loginAs } from './fixtures/auth.ts';
import {
  answer,
  clearData,
  deleteRefusedAsUsed,
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
import { expect, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

// One worker, in order: the create test adds a group that the filter test would count.
test.describe.configure({ mode: 'default' });

const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true }).click();
const siteCount = (page: Page, name: string) => rowWith(page, name).getByText(/^\d+ landlord\(s\)$/);

test.beforeEach(async ({ page }) => {
  await loginAs(page, ROLE_USERS.admin);
});

test('filter, sort and page the groups, open one and come back to the same list', async ({ page }) => {
  await page.goto('/party?size=2');
  await expect(rangeText(page)).toHaveText('1-2 of 4');
  await goToPage(page, 2);
  await expect(rangeText(page)).toHaveText('3-4 of 4');

  // The groups holding a site: Siam Square Parking B2 is only in Bangkok Shopping Malls.
  await pick(page, 'Site Name', 'Siam Square Parking B2');
  await search(page);
  await expect(rangeText(page)).toHaveText('1-1 of 1');
  await expect(page).toHaveURL(/landlordId=\d+/);
  await expect(page).toHaveURL(/page=1/);
  await expect(rows(page).first()).toContainText('Bangkok Shopping Malls');
  await expect(siteCount(page, 'Bangkok Shopping Malls')).toHaveText('8 landlord(s)');
  await siteCount(page, 'Bangkok Shopping Malls').hover();
  await expect(page.getByRole('tooltip')).toContainText('Siam Square Parking B2');
  await expect(page.getByRole('tooltip').getByRole('listitem')).toHaveCount(8);

  await clearData(page);
  await expect(rangeText(page)).toHaveText('1-2 of 4');
  await sortBy(page, 'Name', 'nameEn', 'asc');
  await expect(rows(page).first()).toContainText('Bangkok Shopping Malls');
  await sortBy(page, 'Name', 'nameEn', 'desc');
  await expect(rows(page).first()).toContainText('Southern Beaches');

  const listUrl = page.url();
  await rows(page).first().getByRole('button', { name: 'View' }).click();
  await expect(page).toHaveURL(/\/party\/\d+$/);
  await expect(page.getByLabel('Group Name (EN)')).toHaveValue('Southern Beaches');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page).toHaveURL(listUrl);
  await expect(rows(page).first()).toContainText('Southern Beaches');
});

test('create a group, edit it, switch it off and delete it', async ({ page }) => {
  const name = `E2E Group ${Date.now()}`;
  await page.goto('/party');
  await page.getByRole('button', { name: 'New Group' }).click();
  await expect(page).toHaveURL(/\/party\/new$/);
  await expect(page.getByRole('heading', { name: 'Group Setting' })).toBeVisible();

  await save(page);
  await expect(page.getByText('Group Name (EN) is required.', { exact: true })).toBeVisible();
  await expect(page.getByText('Group Name (TH) is required.', { exact: true })).toBeVisible();
  await expect(page.getByText('Site Name is required.', { exact: true })).toBeVisible();
  await page.getByLabel('Group Name (EN)').fill('   ');
  await expect(page.getByText('Group Name (EN) is not whitespace', { exact: true })).toBeVisible();

  await page.getByLabel('Group Name (EN)').fill(name);
  await page.getByLabel('Group Name (TH)').fill('กลุ่มทดสอบ');
  await pick(page, 'Site Name', 'Tha Tien Pier Car Park');
  await pick(page, 'Site Name', 'Bang Phli Logistics Depot');
  await saveForm(page);
  await expect(page).toHaveURL(/\/party$/);

  const row = rowWith(page, name);
  await expect(siteCount(page, name)).toHaveText('2 landlord(s)');
  await siteCount(page, name).hover();
  await expect(page.getByRole('tooltip')).toContainText('Tha Tien Pier Car Park');
  await expect(page.getByRole('tooltip')).toContainText('Bang Phli Logistics Depot');

  // Its sites are fixed once the group exists.
  await row.getByRole('button', { name: 'View' }).click();
  await expect(page.getByLabel('Group Name (EN)')).toHaveValue(name);
  await expect(selectNamed(page, 'Site Name')).toBeDisabled();
  await expect(page.locator('.ant-select-selection-item')).toHaveCount(2);
  await page.getByLabel('Group Name (EN)').fill(`${name} edited`);
  await saveForm(page);
  await expect(page).toHaveURL(/\/party$/);

  await switchOffAndDelete(page, `${name} edited`);
});

test('a group with users cannot be deleted', async ({ page }) => {
  await page.goto('/party');
  const row = rowWith(page, 'Northern Route');
  await row.getByRole('switch').click();
  await expect(row.getByRole('switch')).not.toBeChecked();
  await deleteRefusedAsUsed(page, 'Northern Route');
  await row.getByRole('switch').click();
  await expect(row.getByRole('switch')).toBeChecked();
});

test('leaving a changed group form warns first', async ({ page }) => {
  await page.goto('/party');
  await page.getByRole('button', { name: 'New Group' }).click();
  await page.getByLabel('Group Name (EN)').fill('Not saved');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  const warning = page.getByRole('dialog').filter({ hasText: LEAVE_WARNING });
  await expect(warning).toBeVisible();
  await answer(warning, 'Yes');
  await expect(page).toHaveURL(/\/party$/);
});
