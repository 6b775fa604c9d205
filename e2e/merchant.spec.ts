import { loginAs, notification } from './fixtures/auth.ts';
import {
  answer,
  clearData,
  deleteRefusedAsUsed,
  exportSheet,
  goToPage,
  LEAVE_WARNING,
  pick,
  rangeText,
  rows,
  rowWith,
  switchOffAndDelete,
} from './fixtures/list.ts';
import { expect, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

const clusterRow = (page: Page, name: string) => rowWith(page, name);

// One worker, in order: the create test changes what the filter and export tests count.
test.describe.configure({ mode: 'default' });

test.beforeEach(async ({ page }) => {
  await loginAs(page, ROLE_USERS.admin);
});

test('filter, sort and page the clusters, open one and come back to the same list', async ({ page }) => {
  await page.goto('/merchant?size=5');
  await expect(rangeText(page)).toHaveText(/^1-5 of 1\d$/);
  await goToPage(page, 2);
  await expect(rangeText(page)).toHaveText(/^6-10 of 1\d$/);

  // A new search starts again from page 1.
  await pick(page, 'Area Type', 'Internal Used');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(rangeText(page)).toHaveText('1-3 of 3');
  await expect(page).toHaveURL(/internal=true/);
  await expect(page).toHaveURL(/page=1/);

  const header = page.locator('.ant-table-thead th').filter({ hasText: 'Cluster Name' });
  await header.click();
  await expect(page).toHaveURL(/sort=nameEn&order=asc/);
  await expect(rows(page).first()).toContainText('Bangna Gateway Business Park');
  await header.click();
  await expect(page).toHaveURL(/sort=nameEn&order=desc/);
  await expect(rows(page).first()).toContainText('Skyline Living Condominiums');

  // Expand one row, then all of them.
  await clusterRow(page, 'Skyline Living Condominiums')
    .getByRole('button', { name: /expand/i })
    .click();
  await expect(page.getByText(/^Site Name \(\d+\)$/)).toHaveCount(1);
  await page.getByRole('button', { name: 'Expand all' }).click();
  await expect(page.getByText(/^Site Name \(\d+\)$/)).toHaveCount(3);

  const listUrl = page.url();
  await clusterRow(page, 'Chao Phraya University of Technology')
    .getByRole('button', { name: 'Edit' })
    .click();
  await expect(page).toHaveURL(/\/merchant\/\d+$/);
  await expect(page.getByLabel('Cluster Name (EN)')).toHaveValue('Chao Phraya University of Technology');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page).toHaveURL(listUrl);
  await expect(rangeText(page)).toHaveText('1-3 of 3');
  await expect(rows(page).first()).toContainText('Skyline Living Condominiums');
  await expect(page.locator('.ant-form-item').filter({ hasText: 'Area Type' })).toContainText(
    'Internal Used',
  );

  // Clear Data resets the filters and searches again.
  await clearData(page);
  await expect(rangeText(page)).toHaveText(/^1-5 of 1\d$/);
  await expect(page).not.toHaveURL(/internal=/);
});

test('create a cluster, edit it, switch it off and delete it', async ({ page }) => {
  const name = `E2E Cluster ${Date.now()}`;
  await page.goto('/merchant');
  await page.getByRole('button', { name: 'New Cluster' }).click();
  await expect(page).toHaveURL(/\/merchant\/new$/);

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Cluster Name (EN) is required.')).toBeVisible();
  await expect(page.getByText('Cluster Name (TH) is required.')).toBeVisible();

  await page.getByLabel('Cluster Name (EN)').fill(name);
  await page.getByLabel('Cluster Name (TH)').fill('คลัสเตอร์ทดสอบ');
  await page.getByLabel('Taxpayer Identification No.').fill('0105551234567');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Successfully saved data.', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/merchant$/);

  // The new cluster is in the Cluster Name filter at once.
  await page.getByRole('combobox', { name: 'Cluster Name', exact: true }).fill(name);
  await page.locator('.ant-select-dropdown:visible').getByTitle(name, { exact: true }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(rangeText(page)).toHaveText('1-1 of 1');
  await expect(rows(page).first()).toContainText(name);
  await expect(rows(page).first()).toContainText('Public Used');

  await rows(page).first().getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByLabel('Cluster Name (EN)')).toHaveValue(name);
  await page.getByLabel('Cluster Name (EN)').fill(`${name} edited`);
  await page.getByLabel('Internal Used').check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Successfully saved data.', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/merchant\?merchantId=\d+&page=1$/);
  const row = clusterRow(page, `${name} edited`);
  await expect(row).toContainText('Internal Used');

  await switchOffAndDelete(page, `${name} edited`);
});

test('a used cluster cannot be deleted', async ({ page }) => {
  await page.goto('/merchant?active=false');
  await deleteRefusedAsUsed(page, 'Riverside Parking Co. (closed)');
});

test('leaving a changed form warns first', async ({ page }) => {
  await page.goto('/merchant');
  await page.getByRole('button', { name: 'New Cluster' }).click();
  await page.getByLabel('Cluster Name (EN)').fill('Not saved');

  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  const warning = page.getByRole('dialog').filter({ hasText: LEAVE_WARNING });
  await expect(warning).toBeVisible();
  await answer(warning, 'No');
  await expect(page).toHaveURL(/\/merchant\/new$/);

  await page.getByTestId('sidebar-menu').getByRole('link', { name: 'Cluster', exact: true }).click();
  await expect(warning).toBeVisible();
  await answer(warning, 'Yes');
  await expect(page).toHaveURL(/\/merchant$/);

  // The browser's own prompt guards a reload or a close.
  await page.getByRole('button', { name: 'New Cluster' }).click();
  await page.getByLabel('Cluster Name (EN)').fill('Not saved either');
  const prompt = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const beforeUnload = await prompt;
  expect(beforeUnload.type()).toBe('beforeunload');
  await beforeUnload.accept();
});

test('export downloads the filtered clusters, and says so when none match', async ({ page }) => {
  await page.goto('/merchant?internal=true');
  const sheet = await exportSheet(page, /^Merchant_\d+\.xlsx$/);
  expect(sheet.getRow(1).getCell(1).value).toBe('Cluster ID');
  expect(sheet.actualRowCount).toBe(4);

  await page.goto('/merchant?internal=true&active=false');
  await page.getByRole('button', { name: 'Export' }).click();
  await expect(page.getByText('No matched merchant found')).toBeVisible();
});

test('a failed save shows the server text and leaves the form dirty', async ({ page }) => {
  await page.route('**/api/merchant/*', (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({ status: 400, json: { message: 'body.nameEn: Cluster Name (EN) is required.' } })
      : route.fallback(),
  );
  await page.goto('/merchant?internal=true');
  await clusterRow(page, 'Skyline Living Condominiums').getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Tel').fill('021234567');
  const save = page.getByRole('button', { name: /Save$/ });
  await save.click();
  await expect(notification(page, 'Something went wrong !')).toContainText(
    '(Code: Cluster Name (EN) is required.)',
  );
  await expect(save).toBeEnabled();
  await expect(save).not.toHaveClass(/ant-btn-loading/);
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByRole('dialog').filter({ hasText: LEAVE_WARNING })).toBeVisible();
});

test("a site's switch in the expanded row saves at once", async ({ page }) => {
  await page.goto('/merchant?internal=true&sort=nameEn&order=asc');
  const cluster = clusterRow(page, 'Chao Phraya University of Technology');
  await cluster.getByRole('button', { name: /expand/i }).click();
  const sites = page.getByTestId('site-row');
  const first = sites.first();
  const siteName = (await first.locator('span').first().textContent()) ?? '';
  const site = sites.filter({ hasText: siteName });
  await expect(site.getByRole('switch')).toBeChecked();
  await expect(site.getByRole('button', { name: `Delete ${siteName}` })).toHaveCount(0);

  await site.getByRole('switch').click();
  await expect(notification(page, 'Success')).toContainText('Successfully saved data.');
  await expect(site.getByRole('switch')).not.toBeChecked();
  await expect(site.getByRole('button', { name: `Delete ${siteName}` })).toBeVisible();

  await site.getByRole('switch').click();
  await expect(site.getByRole('switch')).toBeChecked();
  await expect(site.getByRole('button', { name: `Delete ${siteName}` })).toHaveCount(0);
});

test('an unknown cluster id shows the not-found page', async ({ page }) => {
  await page.goto('/merchant/99999');
  await expect(page.getByText("Sorry, this page can't be found.", { exact: true })).toBeVisible();
  await expect(notification(page, 'Something went wrong !')).toHaveCount(0);
});
