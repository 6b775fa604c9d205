import { loginThroughUi, userDetailRow } from './fixtures/auth.ts';
import { type Browser, type BrowserContext, expect, test } from './fixtures/test.ts';
import { SPEC_USERS } from './fixtures/users.ts';

/**
 * A browser restart: the old context's pages close, and a new context starts from what it persisted.
 * storageState() keeps cookies and localStorage but not sessionStorage, as a real restart does.
 */
async function restart(browser: Browser, context: BrowserContext): Promise<BrowserContext> {
  for (const open of context.pages()) await open.close();
  const storageState = await context.storageState();
  await context.close();
  return browser.newContext({ storageState });
}

test.describe('Remember me', () => {
  test('a remembered session survives a browser restart', async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await loginThroughUi(page, SPEC_USERS.remember.email, undefined, { remember: true });
    await expect(page).toHaveURL(/\/user-detail$/);
    await expect(page.getByRole('heading', { name: 'User Detail' })).toBeVisible();

    const restarted = await restart(browser, context);
    const again = await restarted.newPage();
    // The stored token still works against the server, not only in the browser.
    const self = again.waitForResponse((response) => response.url().endsWith('/api/user/self'));
    await again.goto('/user-detail');
    expect((await self).status()).toBe(200);
    await expect(again).toHaveURL(/\/user-detail$/);
    await expect(userDetailRow(again, 'Email')).toContainText(SPEC_USERS.remember.email);
    await expect(userDetailRow(again, 'Role')).toContainText('Customer station');
    await restarted.close();
  });

  test('without Remember me a browser restart signs the user out', async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await loginThroughUi(page, SPEC_USERS.noRemember.email);
    await expect(page).toHaveURL(/\/user-detail$/);
    await expect(page.getByRole('heading', { name: 'User Detail' })).toBeVisible();
    // Within the tab the session lives on across a reload.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'User Detail' })).toBeVisible();

    const restarted = await restart(browser, context);
    const again = await restarted.newPage();
    await again.goto('/user-detail');
    await expect(again).toHaveURL(/\/login$/);
    await expect(again.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
    await restarted.close();
  });
});
