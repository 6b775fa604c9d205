import { loginAs, loginThroughUi, openAs, userDetailRow } from './fixtures/auth.ts';
import { E2E_BATCH_TOKEN } from './fixtures/ocpp.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, test } from './fixtures/test.ts';
import { ROLE_USERS, SPEC_USERS } from './fixtures/users.ts';

test('login page', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByText(/charging system/i).first()).toBeVisible();
  await expect(page.getByLabel('Username', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Remember me' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Forgot Password?' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
  await shoot(page, 'login.png');
});

test('landing page', async ({ page }) => {
  await loginThroughUi(page, SPEC_USERS.landingShot.email);
  await expect(page).toHaveURL(/\/landing$/);
  await expect(page.getByRole('heading', { name: 'Term&Condition and Privacy Policy' })).toBeVisible();
  const box = page.getByRole('document', { name: 'Term&Condition and Privacy Policy text' });
  await expect(box.getByRole('heading', { name: 'ข้อกำหนดและเงื่อนไข' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accept', exact: true })).toBeDisabled();
  await shoot(page, 'landing.png');
});

test('shell as admin at /user-detail', async ({ page }) => {
  await loginAs(page, ROLE_USERS.admin);
  await expect(page.getByTestId('sidebar-menu')).toContainText('Contact Us');
  await expect(userDetailRow(page, 'Name-Surname')).toContainText('E2E admin Tester');
  await expect(userDetailRow(page, 'Role')).toContainText('Admin');
  await expect(userDetailRow(page, 'Password')).toContainText('********');
  await expect(page.getByRole('button', { name: 'See pea token' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('Version');
  await shoot(page, 'shell-admin.png');
});

test('cluster list, one row expanded, as admin', async ({ page }) => {
  await openAs(page, ROLE_USERS.admin, '/merchant');
  await expect(page.locator('.ant-pagination-total-text')).toHaveText(/^1-10 of \d+$/);
  await page
    .locator('.ant-table-row')
    .first()
    .getByRole('button', { name: /expand/i })
    .click();
  await expect(page.getByText(/^Site Name \(\d+\)$/)).toBeVisible();
  await shoot(page, 'cluster-list.png');
});

test('cluster setting, editing a cluster, as admin', async ({ page }) => {
  await openAs(page, ROLE_USERS.admin, '/merchant');
  await page.locator('.ant-table-row').first().getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByLabel('Cluster Name (EN)')).not.toHaveValue('');
  await shoot(page, 'cluster-setting.png');
});

test('site list as admin, with the cluster columns', async ({ page }) => {
  await openAs(page, ROLE_USERS.admin, '/landlord');
  await expect(page.locator('.ant-pagination-total-text')).toHaveText(/^1-10 of \d+$/);
  await expect(page.locator('.ant-table-thead')).toContainText('Cluster Name');
  await shoot(page, 'site-list-admin.png');
});

test('site list as a cluster user: its own sites, no cluster columns', async ({ page }) => {
  await openAs(page, ROLE_USERS.merchant, '/landlord');
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  await expect(page.locator('.ant-table-thead')).not.toContainText('Cluster Name');
  await shoot(page, 'site-list-merchant.png');
});

test('site setting with opening hours and the map pin', async ({ page }) => {
  await openAs(page, ROLE_USERS.admin, '/landlord?businessHoursType=period');
  await page
    .locator('.ant-table-row')
    .filter({ hasText: 'Siam Square Parking B2' })
    .getByRole('button', { name: 'View' })
    .click();
  await expect(page.getByLabel('Site Name (EN)')).toHaveValue('Siam Square Parking B2');
  await expect(page.getByTestId('business-hour-row').first()).toBeVisible();
  await expect(page.locator('.map-picker-pin')).toBeVisible();
  await shoot(page, 'site-setting.png');
});

test('group list with the site names tooltip', async ({ page }) => {
  await openAs(page, ROLE_USERS.admin, '/party');
  const count = page.getByText(/^\d+ landlord\(s\)$/).first();
  await count.hover();
  await expect(page.getByRole('tooltip')).toBeVisible();
  await shoot(page, 'group-list.png');
});

test('group setting, editing a group', async ({ page }) => {
  await openAs(page, ROLE_USERS.admin, '/party');
  await page.locator('.ant-table-row').first().getByRole('button', { name: 'View' }).click();
  await expect(page.getByLabel('Group Name (EN)')).not.toHaveValue('');
  await shoot(page, 'group-setting.png');
});

test('charger list as admin, a row expanded with its connectors', async ({ page }) => {
  await openAs(page, ROLE_USERS.admin, '/charger?id=TH-MP-ASOK-0');
  const row = page.locator('tr.ant-table-row[data-row-key="TH-MP-ASOK-01"]');
  await row.getByRole('button', { name: /expand/i }).click();
  await expect(page.getByTestId('connectors-TH-MP-ASOK-01').locator('[data-status]')).toHaveCount(3);
  await shoot(page, 'charger-list.png');

  await page.getByRole('button', { name: 'QR 10015' }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: 'QR Code' });
  await expect(dialog.getByRole('img', { name: 'QR code of connector 10015' })).toBeVisible();
  await expect(dialog).not.toHaveClass(/ant-zoom/);
  await shoot(page, 'charger-qr.png');
});

test('charger setting with its connectors', async ({ page }) => {
  await openAs(page, ROLE_USERS.admin, '/charger/TH-MP-ASOK-01');
  await expect(page.getByLabel('Charger Name (EN)')).not.toHaveValue('');
  await expect(page.getByTestId('connector-row')).toHaveCount(3);
  await page.getByRole('button', { name: 'Add Connector' }).click();
  // The click scrolled the page: back to the top, so the sticky header and sidebar sit where they belong.
  await page.evaluate(() => window.scrollTo(0, 0));
  await shoot(page, 'charger-setting.png');
});

test('charger batch command progress', async ({ page }) => {
  await openAs(page, ROLE_USERS.admin, '/charger');
  await page.getByRole('button', { name: 'Config All' }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: 'Config All' });
  await dialog.getByLabel('Key 1').fill('HeartbeatInterval');
  await dialog.getByLabel('Value 1').fill('300');
  await shoot(page, 'charger-config-all.png');
  await dialog.getByLabel('Token').fill(E2E_BATCH_TOKEN);
  const download = page.waitForEvent('download', { timeout: 60_000 });
  await dialog.getByRole('button', { name: 'Run' }).click();
  await download;
  await expect(dialog.getByTestId('batch-progress').getByRole('heading')).toHaveText(/^(\d+) \/ \1$/);
  await shoot(page, 'charger-batch-progress.png');
});
