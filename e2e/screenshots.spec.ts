import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { loginAs, loginThroughUi, userDetailRow } from './fixtures/auth.ts';
import { ROLE_USERS, SPEC_USERS } from './fixtures/users.ts';

/**
 * The acceptance screenshots. Written outside the work tree (E2E_SCREENSHOTS or the temp dir) so a
 * test run leaves the checkout clean; the reviewed copies are kept in docs/screenshots/.
 */
const DIR = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'ev-e2e-screenshots');

async function shoot(page: Page, name: string) {
  // Web fonts change the layout; wait for them so the picture is the final one.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.screenshot({ path: path.join(DIR, name), fullPage: true, animations: 'disabled' });
}

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
  await loginAs(page, ROLE_USERS.admin);
  await page.goto('/merchant');
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
  await loginAs(page, ROLE_USERS.admin);
  await page.goto('/merchant');
  await page.locator('.ant-table-row').first().getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByLabel('Cluster Name (EN)')).not.toHaveValue('');
  await shoot(page, 'cluster-setting.png');
});
