import type { AdminRole } from '@ev/shared';
import { headerUserLink, loginAs, notification, userDetailRow } from './fixtures/auth.ts';
import { expect, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/**
 * The sidebar of each role, written by hand from document 1, section 6 (the oracle: not derived from the
 * app's own menu table), with issue 35's Dashboard (first, every role) and Statistics (after Booking Report,
 * its roles), and issue 36's Alerts (last, every role), then the admin's Audit Log and Alert Settings. A
 * group's entry reads 'Group › Item'; the order is the table's.
 */
const EXPECTED_MENU: Record<AdminRole, string[]> = {
  admin: [
    'Dashboard',
    'Site',
    'Group',
    'Cluster',
    'Devices › Charger',
    'Devices › Charger Brand',
    'Price',
    'Private station › Member',
    'Private station › Code',
    'Coupon&point Management › Promotion Code',
    'Coupon&point Management › Point Code',
    'Coupon&point Management › Discount Report',
    'Marketing › Point Setup',
    'Web Admin User',
    'Member Mobile User',
    'Transaction Management',
    'Booking Management',
    'Booking Report',
    'Statistics',
    'Tutorial Management › Tutorials',
    'Tutorial Management › Manage Tutorials',
    'Policy Management › Term&Condition',
    'Policy Management › Privacy Policy',
    'Contact Us',
    'Alerts',
    'Audit Log',
    'Alert Settings',
  ],
  merchant: ['Dashboard', 'Site', 'Devices › Charger', 'Booking Report', 'Statistics', 'Alerts'],
  party: ['Dashboard', 'Site', 'Devices › Charger', 'Booking Report', 'Statistics', 'Alerts'],
  landlord: ['Dashboard', 'Devices › Charger', 'Booking Report', 'Statistics', 'Alerts'],
  callcenter: [
    'Dashboard',
    'Site',
    'Cluster',
    'Devices › Charger',
    'Member Mobile User',
    'Booking Management',
    'Booking Report',
    'Statistics',
    'Alerts',
  ],
  station: [
    'Dashboard',
    'Site',
    'Devices › Charger',
    'Private station › Member',
    'Booking Management',
    'Booking Report',
    'Statistics',
    'Alerts',
  ],
  marketting: [
    'Dashboard',
    'Price',
    'Private station › Code',
    'Coupon&point Management › Promotion Code',
    'Coupon&point Management › Point Code',
    'Coupon&point Management › Discount Report',
    'Marketing › Point Setup',
    'Booking Report',
    'Statistics',
    'Tutorial Management › Tutorials',
    'Tutorial Management › Manage Tutorials',
    'Policy Management › Term&Condition',
    'Policy Management › Privacy Policy',
    'Contact Us',
    'Alerts',
  ],
};

const ROLE_LABELS: Record<AdminRole, string> = {
  admin: 'Admin',
  merchant: 'Cluster',
  party: 'Group',
  landlord: 'Site',
  callcenter: 'Call center',
  station: 'Customer station',
  marketting: 'Marketing',
};

/** Reads the sidebar top to bottom, opening every group to read its items. */
async function readMenu(page: Page): Promise<string[]> {
  const menu = page.getByTestId('sidebar-menu');
  await expect(menu).toBeVisible();
  const top = menu.locator(':scope > li.ant-menu-item, :scope > li.ant-menu-submenu');
  const entries: string[] = [];
  for (const entry of await top.all()) {
    const isGroup = await entry.evaluate((element) => element.classList.contains('ant-menu-submenu'));
    if (!isGroup) {
      entries.push((await entry.textContent())?.trim() ?? '');
      continue;
    }
    const title = entry.locator(':scope > .ant-menu-submenu-title');
    const group = (await title.textContent())?.trim() ?? '';
    await expect(title).toHaveAttribute('aria-expanded', 'false');
    await title.click();
    await expect(title).toHaveAttribute('aria-expanded', 'true');
    const items = entry.locator(':scope > ul li.ant-menu-item');
    await expect(items.first()).toBeVisible();
    for (const item of await items.allTextContents()) entries.push(`${group} › ${item.trim()}`);
  }
  return entries;
}

for (const role of Object.keys(EXPECTED_MENU) as AdminRole[]) {
  test(`the ${role} menu matches the spec`, async ({ page }) => {
    await loginAs(page, ROLE_USERS[role]);
    await expect(userDetailRow(page, 'Role')).toContainText(ROLE_LABELS[role]);
    expect(await readMenu(page)).toEqual(EXPECTED_MENU[role]);
    // 'See pea token' is for admin only (the profile has loaded, so its absence means something).
    await expect(page.getByRole('button', { name: 'See pea token' })).toHaveCount(role === 'admin' ? 1 : 0);
  });
}

test.describe('shell', () => {
  test('the header name links home, a menu entry opens its route, the footer shows copyright and version', async ({
    page,
  }) => {
    await loginAs(page, ROLE_USERS.callcenter);
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText(/©\s*\d{4}/);
    await expect(footer).toContainText(/Version\s+\d+\.\d+\.\d+/);
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toContainText('EV Charging System');

    const cluster = page.getByTestId('sidebar-menu').getByRole('link', { name: 'Cluster', exact: true });
    await cluster.click();
    await expect(page).toHaveURL(/\/merchant$/);
    await expect(page.getByTestId('sidebar-menu').locator('.ant-menu-item-selected')).toHaveText('Cluster');

    const name = headerUserLink(page);
    await expect(name).toHaveText('E2E callcenter Tester');
    await name.click();
    await expect(page).toHaveURL(/\/user-detail$/);
    await expect(page.getByRole('heading', { name: 'User Detail' })).toBeVisible();
  });

  test('Log Out returns to /login and the session is gone', async ({ page }) => {
    await loginAs(page, ROLE_USERS.party);
    const stored = await page.evaluate(() => sessionStorage.getItem('ev.session'));
    const token = (JSON.parse(stored ?? '{}') as { accessToken?: string }).accessToken;
    expect(token).toBeTruthy();

    const logoutCall = page.waitForResponse((response) => response.url().endsWith('/api/auth/logout'));
    await page.getByRole('button', { name: 'Log Out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
    // The app sends the logout call without waiting for it; a page load now would cancel it.
    expect((await logoutCall).ok()).toBe(true);
    expect(
      await page.evaluate(() => [localStorage.getItem('ev.session'), sessionStorage.getItem('ev.session')]),
    ).toEqual([null, null]);
    await page.goto('/user-detail');
    await expect(page).toHaveURL(/\/login$/);

    // The server forgot the token too.
    const self = await page.request.get('/api/user/self', { headers: { 'X-ACCESS-TOKEN': token! } });
    expect(self.status()).toBe(401);
  });

  test("admin's 'See pea token' shows both tokens in a notification", async ({ page }) => {
    await loginAs(page, ROLE_USERS.admin);
    await page.getByRole('button', { name: 'See pea token' }).click();
    const notice = notification(page, 'PEA Token');
    await expect(notice).toBeVisible();
    await expect(notice.getByText('token: e2e-pea-token', { exact: true })).toBeVisible();
    await expect(notice.getByText('tokenC: e2e-pea-token-c', { exact: true })).toBeVisible();
  });
});

test.describe('small things a newcomer meets', () => {
  test('every menu label shows whole, Coupon&point Management included, in the sider and the drawer', async ({
    page,
  }) => {
    await loginAs(page, ROLE_USERS.admin);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const sider = page.locator('.shell-sider');
    const label = sider.locator('.ant-menu-title-content', { hasText: 'Coupon&point Management' });
    await expect(label).toHaveText('Coupon&point Management');
    // Cut with an ellipsis, the text is wider than its box; it must also stay inside the 250 px sider.
    const cut = (root: typeof sider) =>
      root
        .locator('.ant-menu-title-content')
        .evaluateAll((labels) =>
          labels
            .filter(
              (element) =>
                element.scrollWidth > element.clientWidth || element.getBoundingClientRect().right > 250,
            )
            .map((element) => element.textContent),
        );
    expect(await cut(sider)).toEqual([]);
    expect((await sider.boundingBox())?.width).toBe(250);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.locator('.shell-drawer');
    await expect(
      drawer.locator('.ant-menu-title-content', { hasText: 'Coupon&point Management' }),
    ).toBeVisible();
    expect(await cut(drawer)).toEqual([]);
  });

  test('at phone width the header names the product beside the user and Log Out', async ({ page }) => {
    await loginAs(page, ROLE_USERS.admin);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
    const header = page.locator('.shell-header');
    await expect(header.getByText('EV Charging System', { exact: true })).toBeVisible();
    await expect(headerUserLink(page)).toHaveText('E2E admin Tester');
    await expect(header.getByRole('button', { name: 'Log Out' })).toBeVisible();
    // Nothing pushed off the screen: the page does not scroll sideways and each part is whole.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    for (const part of [
      header.getByText('EV Charging System'),
      headerUserLink(page).getByText('E2E admin Tester'),
    ]) {
      expect(await part.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }
  });

  test("'See pea token' on a server without tokens says what is missing, not 'Something went wrong !'", async ({
    page,
  }) => {
    const message =
      'The PEA tokens are not configured on this server: PEA_TOKEN and PEA_TOKEN_C are not set. Ask the server administrator to set them and restart the server.';
    // The e2e server has tokens; this answer is the one apps/server/test/api/reference.test.ts checks.
    await page.route('**/api/pea', (route) => route.fulfill({ status: 503, json: { message } }));
    await loginAs(page, ROLE_USERS.admin);
    await page.getByRole('button', { name: 'See pea token' }).click();
    await expect(notification(page, 'PEA Token')).toContainText(message);
    await expect(notification(page, 'Something went wrong !')).toHaveCount(0);
  });
});
