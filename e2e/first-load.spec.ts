import { isJsOrCss, recordTransfers } from '@ev/tools/transfer';
import { loginThroughUi } from './fixtures/auth.ts';
import { expect, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/** Issue 11: what a cold sign-in page may cost an operator on mobile data, compressed, headers included. */
const LOGIN_BUDGET_BYTES = 250 * 1024;

test.describe('first load', () => {
  test('a cold /login transfers at most 250 KB of JavaScript and CSS, and the form works', async ({
    page,
  }) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    // A first visit: nothing from an earlier test may come from the cache.
    await cdp.send('Network.clearBrowserCache');
    const record = recordTransfers(cdp);

    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');

    const code = record.take().filter(isJsOrCss);
    const bytes = code.reduce((total, transfer) => total + transfer.encoded, 0);
    const list = code
      .sort((a, b) => b.encoded - a.encoded)
      .map((transfer) => `${(transfer.encoded / 1024).toFixed(1)} KB ${new URL(transfer.url).pathname}`)
      .join('\n');
    // Served precompressed: every script and style sheet came over the wire smaller than it is.
    expect(code.length, 'scripts and style sheets loaded').toBeGreaterThan(1);
    for (const transfer of code.filter((t) => t.decoded > 4096)) {
      expect(transfer.encoded, `${transfer.url} compressed`).toBeLessThan(transfer.decoded);
    }
    expect(bytes, `JS+CSS of a cold /login, ${(bytes / 1024).toFixed(1)} KB:\n${list}`).toBeLessThanOrEqual(
      LOGIN_BUDGET_BYTES,
    );
    // The shell, the screens, the map and the QR code load when they are opened, not with the sign-in page.
    expect(list).not.toMatch(
      /\/(layout|list-page|[a-z-]+-setting-page|[a-z-]+-list-page|map-picker|qr-modal)-/,
    );

    // The rules load on the first check of a field: the required messages still show.
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByText('Username is required.', { exact: true })).toBeVisible();
    await expect(page.getByText('Password is required.', { exact: true })).toBeVisible();
  });

  test('a screen whose code is still on its way shows the loading bar, after sign-in and from the menu', async ({
    page,
  }) => {
    // Hold a screen's code back, as a slow line would, until the test lets it through.
    const hold = async (chunk: RegExp) => {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(chunk, async (route) => {
        await held;
        await route.continue();
      });
      return release;
    };
    const loading = page.getByRole('progressbar', { name: 'Loading' });

    const releaseHome = await hold(/\/assets\/user-detail-page-[^/]+\.js$/);
    await loginThroughUi(page, ROLE_USERS.admin);
    // Signed in, the profile's code not there yet: the bar, not an empty page.
    await expect(loading).toBeVisible();
    releaseHome();
    await expect(page).toHaveURL(/\/user-detail$/, { timeout: 20_000 });
    await expect(page.getByRole('rowheader', { name: 'Email', exact: true })).toBeVisible();
    await expect(loading).toHaveCount(0);

    const releaseSites = await hold(/\/assets\/landlord-list-page-[^/]+\.js$/);
    await page.getByTestId('sidebar-menu').getByRole('link', { name: 'Site', exact: true }).click();
    await expect(loading).toBeVisible();
    // The profile stays on screen until the next one can show.
    await expect(page.getByRole('rowheader', { name: 'Email', exact: true })).toBeVisible();
    releaseSites();
    await expect(page).toHaveURL(/\/landlord$/);
    await expect(page.locator('.ant-table-tbody')).toBeVisible();
    await expect(loading).toHaveCount(0);
  });
});
