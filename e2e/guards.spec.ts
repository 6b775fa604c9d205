import { loginAsThroughUi, loginThroughUi } from './fixtures/auth.ts';
import { expect, test } from './fixtures/test.ts';
import { ROLE_USERS, SPEC_USERS } from './fixtures/users.ts';

const LANDING_TITLE = 'Term&Condition and Privacy Policy';

test.describe('signed out', () => {
  for (const path of ['/user-detail', '/merchant', '/charger/12', '/landing']) {
    test(`${path} sends to /login`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
      await expect(page.getByTestId('sidebar-menu')).toHaveCount(0);
    });
  }

  test('/ redirects to /login', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
  });
});

test('a signed-in user visiting /login is sent home to /user-detail', async ({ page }) => {
  await loginAsThroughUi(page, ROLE_USERS.landlord);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/user-detail$/);
  await expect(page.getByRole('heading', { name: 'User Detail' })).toBeVisible();
  // The root too: / goes to /login, which sends a signed-in user home.
  await page.goto('/');
  await expect(page).toHaveURL(/\/user-detail$/);
});

test('a signed-in user who has not accepted the terms is sent to /landing', async ({ page }) => {
  await loginThroughUi(page, SPEC_USERS.notAccepted.email);
  await expect(page).toHaveURL(/\/landing$/);
  await expect(page.getByRole('heading', { name: LANDING_TITLE })).toBeVisible();

  for (const path of ['/user-detail', '/merchant', '/charger/12', '/no-such-page']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/landing$/);
    await expect(page.getByRole('heading', { name: LANDING_TITLE })).toBeVisible();
    await expect(page.getByTestId('sidebar-menu')).toHaveCount(0);
  }
  // /login sends home, and home sends on to /landing.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/landing$/);

  // Log Out on the landing page signs out for real.
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/landing');
  await expect(page).toHaveURL(/\/login$/);
});
