import { headerUserLink, loginThroughUi, notification, userDetailRow } from './fixtures/auth.ts';
import { expect, test } from './fixtures/test.ts';
import { E2E_PASSWORD, ROLE_USERS, SPEC_USERS } from './fixtures/users.ts';

test.describe('login', () => {
  test('the login page identifies the charging system and offers the spec controls', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByText(/charging system/i).first()).toBeVisible();
    await expect(page.getByLabel('Username', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Remember me' })).not.toBeChecked();
    await expect(page.getByRole('button', { name: 'Forgot Password?' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
  });

  test('empty fields show the required messages and call nothing', async ({ page }) => {
    await page.goto('/login');
    let loginCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/login')) loginCalls += 1;
    });
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByText('Username is required.', { exact: true })).toBeVisible();
    await expect(page.getByText('Password is required.', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(loginCalls).toBe(0);
  });

  test('a wrong password shows Login Fail! and stays on /login', async ({ page }) => {
    await loginThroughUi(page, ROLE_USERS.merchant, 'Wrong12345');
    const notice = notification(page, 'Login Fail!');
    await expect(notice).toBeVisible();
    await expect(notice).toContainText("Username or Password isn't correct.");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeEnabled();
  });

  test('a locked user gets the generic error with code locked', async ({ page }) => {
    await loginThroughUi(page, SPEC_USERS.locked.email, E2E_PASSWORD);
    const notice = notification(page, 'Something went wrong !');
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('Please re-login or contact web admin. (Code: locked)');
    await expect(notification(page, 'Login Fail!')).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a successful login lands on /user-detail with the name and role label', async ({ page }) => {
    await loginThroughUi(page, ROLE_USERS.callcenter);
    await expect(page).toHaveURL(/\/user-detail$/);
    await expect(page.getByRole('heading', { name: 'User Detail' })).toBeVisible();
    await expect(userDetailRow(page, 'Name-Surname')).toContainText('E2E callcenter Tester');
    await expect(userDetailRow(page, 'Email')).toContainText(ROLE_USERS.callcenter);
    await expect(userDetailRow(page, 'Role')).toContainText('Call center');
    await expect(userDetailRow(page, 'Password')).toContainText('********');
    await expect(headerUserLink(page)).toHaveText('E2E callcenter Tester');
  });
});
