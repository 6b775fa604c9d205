import { loginAs } from './fixtures/auth.ts';
import { chargerRows } from './fixtures/charger.ts';
import { columnHeader, opened, rangeText, rows, tableSettled } from './fixtures/list.ts';
import { modal } from './fixtures/modal.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Locator, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/**
 * Tables that hold real data (issue 11): the list kit fits each table to its room. Columns give way by
 * priority, the identifying ones never; a long text is cut with '…' and shown whole in a tooltip.
 */

/** A 255-character value, the longest a brand's name may be (a realistic start, then filler). */
const LONG_NAME =
  `Kempower Satellite Distributed DC Fast Charging System with Dynamic Power Sharing ${'and Extended Cable Management '.repeat(6)}`
    .slice(0, 255)
    .trimEnd();

/** Fails unless `target` is wholly inside the window and inside its table's visible part (not scrolled out). */
async function expectInView(target: Locator) {
  await expect(target).toBeVisible();
  const inside = await target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const holder = element.closest('.ant-table-content, .ant-table-body, .ant-table-header');
    const room = holder ? holder.getBoundingClientRect() : { left: 0, right: window.innerWidth };
    const left = Math.max(0, room.left);
    const right = Math.min(window.innerWidth, room.right);
    return box.width > 0 && box.left >= left - 0.5 && box.right <= right + 0.5;
  });
  expect(inside, `${await target.textContent()} is in view`).toBe(true);
}

/** The table of the page (or of `scope`) does not scroll sideways: every column it shows is in its room. */
async function expectNoSidewaysScroll(scope: Page | Locator) {
  if ('goto' in scope) await tableSettled(scope);
  const content = scope.locator('.ant-table-content').first();
  const [scroll, client] = await content.evaluate((element) => [element.scrollWidth, element.clientWidth]);
  expect(scroll).toBeLessThanOrEqual(client);
}

/** The header titles of the table that are cut or wrap onto a second line. */
const brokenHeaders = (scope: Page | Locator) =>
  scope.locator('.ant-table-thead th').evaluateAll((cells) =>
    cells
      .filter((cell) => {
        const title = cell.querySelector('.ant-table-column-title') ?? cell;
        const range = document.createRange();
        range.selectNodeContents(title);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        return lines.size > 1 || title.scrollWidth > title.clientWidth;
      })
      .map((cell) => cell.textContent),
  );

/** The cell of `row` under the header `title`. */
async function cellUnder(page: Page, row: Locator, title: string) {
  const headers = await page.locator('.ant-table-thead th').allTextContents();
  const index = headers.indexOf(title);
  expect(index, `a column '${title}'`).toBeGreaterThanOrEqual(0);
  return row.locator(':scope > td').nth(index);
}

/** Answers the list call of `path` with the real answer, `change` applied to its first item. */
async function changeFirstItem(page: Page, path: string, key: string, change: Record<string, unknown>) {
  await page.route(
    (url) => url.pathname === `/api${path}` && url.searchParams.has('page'),
    async (route) => {
      // The charger list reloads itself every 5 s: a call the page drops meanwhile is left alone.
      const response = await route.fetch().catch(() => null);
      const body = await response?.json().catch(() => null);
      if (!response || !body) return;
      body[key][0] = { ...body[key][0], ...change };
      await route.fulfill({ response, json: body }).catch(() => undefined);
    },
  );
}

test.describe('as admin', () => {
  test.beforeEach(async ({ page }) => {
    await loginAs(page, ROLE_USERS.admin);
  });

  const SITE_WIDTHS = [
    {
      width: 1440,
      height: 900,
      columns: ['Cluster ID', 'Cluster Name', 'Site ID', 'Site Name', 'Business hour', 'Area type'],
    },
    // Since issue 31 columns are sized by content: the address gives way rather than be cut, and the short
    // Site ID (and Area type at 1000 px) fit where a wide Cluster Name would be cut.
    { width: 1000, height: 800, columns: ['Site ID', 'Site Name', 'Area type'] },
    { width: 390, height: 844, columns: ['Site ID', 'Site Name'] },
  ];
  for (const { width, height, columns } of SITE_WIDTHS) {
    test(`site list at ${width} px: the site's name, the switch and the actions in view`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height });
      await page.goto('/landlord');
      await expect(rangeText(page)).toHaveText(/^1-10 of \d+$/);
      const shown = [...columns, 'Inactive/Active', 'Action'];
      await expect(page.locator('.ant-table-thead th')).toHaveText(shown);
      for (const title of shown) await expectInView(columnHeader(page, title));
      await expectNoSidewaysScroll(page);
      if (width > 390) expect(await brokenHeaders(page)).toEqual([]);

      const first = rows(page).first();
      await expectInView(await cellUnder(page, first, 'Site Name'));
      await expect(await cellUnder(page, first, 'Site Name')).toHaveText('Siam Square Parking B2');
      await expectInView(first.getByRole('switch'));
      await expectInView(first.getByRole('button', { name: 'View' }));

      // The pager keeps its size changer and quick jumper at every width (document 2).
      await expectInView(page.locator('.ant-pagination-options-size-changer'));
      await expectInView(page.locator('.ant-pagination-options-quick-jumper input'));
      await shoot(page, `site-list-${width}.png`);
    });
  }

  test('a 255-character brand name is cut with a tooltip; Power Type and Min Power stay in view', async ({
    page,
  }) => {
    // The list's real answer with a long name in its first row: no brand is added that other specs count.
    await changeFirstItem(page, '/charger-brand', 'chargerBrands', { name: LONG_NAME });
    await page.goto('/charger-brand');
    await expect(rangeText(page)).toHaveText(/^1-\d+ of \d+$/);
    const row = rows(page).first();
    await expect(row).toContainText(LONG_NAME);
    await expectNoSidewaysScroll(page);
    for (const title of ['Name', 'Power Type', 'Min Power (kW)', 'Inactive/Active', 'Action']) {
      await expectInView(columnHeader(page, title).first());
    }
    await expectInView(await cellUnder(page, row, 'Power Type'));
    await expectInView(await cellUnder(page, row, 'Min Power (kW)'));
    await expect(row.locator(':scope > td')).toHaveCount(6);
    // One line, as high as the other rows.
    const [long, other] = await Promise.all([row.boundingBox(), rows(page).nth(1).boundingBox()]);
    expect(long?.height).toBe(other?.height);

    const name = (await cellUnder(page, row, 'Name')).locator('.list-cell-text');
    const [scrollWidth, clientWidth] = await name.evaluate((element) => [
      element.scrollWidth,
      element.clientWidth,
    ]);
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    expect(await name.evaluate((element) => getComputedStyle(element).textOverflow)).toBe('ellipsis');
    await name.hover();
    await expect(page.getByRole('tooltip')).toHaveText(LONG_NAME);
    await shoot(page, 'charger-brand-long-name.png');

    // A name that fits has no tooltip.
    await page.mouse.move(0, 0);
    await expect(page.getByRole('tooltip')).toBeHidden();
    await (await cellUnder(page, rows(page).nth(1), 'Power Type')).locator('.list-cell-text').hover();
    await expect(page.getByRole('tooltip')).toBeHidden();
  });

  test('charger list: one line a charger; the actions of a row with Delete never cover Last Seen', async ({
    page,
  }) => {
    // The switched-off demo chargers first (they offer Delete), the first with the longest names.
    await changeFirstItem(page, '/charger', 'chargers', {
      merchantNameEn: LONG_NAME,
      landlordNameEn: LONG_NAME,
      nameEn: LONG_NAME,
      chargerBrandName: LONG_NAME,
      // Heard from before it was switched off.
      lastSeenAt: new Date().toISOString(),
    });
    await page.goto('/charger?sort=active&order=asc');
    await expect(rangeText(page)).toHaveText(/^1-10 of \d+$/);
    await expectNoSidewaysScroll(page);
    expect(await brokenHeaders(page)).toEqual([]);
    for (const row of [chargerRows(page).first(), chargerRows(page).nth(1)]) {
      await expect(row.getByRole('button', { name: /^Delete / })).toBeVisible();
      const lastSeen = await cellUnder(page, row, 'Last Seen');
      await expect(lastSeen).toHaveText(/^(-|\d{2}\/\d{2}\/25\d{2} \d{2}:\d{2})$/);
      await expectInView(lastSeen);
      await expectInView(row.getByRole('button', { name: /^Delete / }));
      const seen = await lastSeen.boundingBox();
      for (const pinned of [
        await cellUnder(page, row, 'Inactive/Active'),
        await cellUnder(page, row, 'Action'),
      ]) {
        const box = await pinned.boundingBox();
        expect(box && seen && box.x >= seen.x + seen.width - 0.5, 'a pinned cell right of Last Seen').toBe(
          true,
        );
      }
      // The text of Last Seen is whole.
      const text = lastSeen.locator('.list-cell-text');
      expect(await text.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }
    // Ten chargers, one line each: they fit a 900 px high window's table.
    const heights = await chargerRows(page).evaluateAll((all) => all.map((row) => row.clientHeight));
    expect(new Set(heights).size).toBe(1);
    await shoot(page, 'charger-list-delete-rows.png');
  });

  test('Web Admin User at 1440 px shows its columns whole, Site Name included', async ({ page }) => {
    await page.goto('/web-admin');
    await expect(rangeText(page)).toHaveText(/^1-10 of \d+$/);
    // Group Name gives way first (issue 31: rather than cut two name columns); Columns brings it back.
    const titles = ['Email', 'Name-Surname', 'Role', 'Cluster Name', 'Site Name', 'Status', 'Action'];
    await expect(page.locator('.ant-table-thead th')).toHaveText(titles);
    for (const title of titles) await expectInView(columnHeader(page, title));
    await tableSettled(page);
    expect(await brokenHeaders(page)).toEqual([]);
    await expectNoSidewaysScroll(page);
  });

  test('Batch History at 1440 px: By whole, Download CSV in view', async ({ page }) => {
    const job = (id: number, kind: 'hard-reset' | 'config') => ({
      id,
      kind,
      status: 'finished',
      total: 142,
      done: 142,
      configurations: kind === 'config' ? [{ key: 'HeartbeatInterval', value: '300' }] : null,
      createdByEmail: ROLE_USERS.admin,
      startedAt: '2026-01-15T03:04:05.000Z',
      finishedAt: '2026-01-15T03:05:05.000Z',
      counts: { Accepted: 120, Rejected: 2, NotSupported: 3, Offline: 12, Timeout: 5 },
    });
    // The history of two runs (the live spec runs real ones; these are fixed so the test stands alone).
    await page.route('**/api/charger/batch/jobs?*', (route) =>
      route.fulfill({ json: { total: 2, jobs: [job(2, 'config'), job(1, 'hard-reset')] } }),
    );
    await page.goto('/charger');
    await page.getByRole('button', { name: /Batch History$/ }).click();
    const dialog = modal(page, 'Batch History');
    await opened(dialog);
    const jobs = dialog.locator('.ant-table-tbody tr.ant-table-row');
    await expect(jobs).toHaveCount(2);
    await expectNoSidewaysScroll(dialog);
    for (const row of await jobs.all()) {
      const by = row.locator('td', { hasText: ROLE_USERS.admin }).locator('.list-cell-text');
      await expect(by).toHaveText(ROLE_USERS.admin);
      expect(await by.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      await expectInView(row.getByRole('button', { name: /^Download CSV/ }));
    }
    await expect(dialog).toContainText('HeartbeatInterval = 300');
    await shoot(page, 'charger-batch-history.png');
  });
});
