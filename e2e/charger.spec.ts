import fs from 'node:fs';
import { loginAs, notification, openAs } from './fixtures/auth.ts';
import {
  chargerRow,
  chargerRows,
  connectorRow,
  connectorTable,
  expand,
  idFilter,
} from './fixtures/charger.ts';
import {
  cellUnder,
  clearData,
  columnHeader,
  exportSheet,
  opened,
  pick,
  rangeText,
  search,
  selectNamed,
} from './fixtures/list.ts';
import { modal } from './fixtures/modal.ts';
import { OFFLINE_CHARGER } from './fixtures/ocpp.ts';
import { expect, type Locator, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

// Demo data (tools/src/demo-chargers.ts): 145 chargers; Metro Plaza connectors have a blocker (judjodId),
// the university's (CPTU) keep old printed QR codes. e2e/serve.ts connects every active one but
// OFFLINE_CHARGER as simulated chargers, whose statuses change now and then.

/** The width and height of a PNG file, from its IHDR chunk, after checking its signature. */
function pngSize(file: string) {
  const bytes = fs.readFileSync(file);
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

const TAG_COLOURS: Record<string, string> = {
  AVAILABLE: 'green',
  PREPARING: 'orange',
  CHARGING: 'orange',
  PAUSED: 'orange',
  FINISHING: 'orange',
  UNKNOWN: 'red',
  UNAVAILABLE: 'red',
  FAULTED: 'red',
};

/**
 * Every status tag of a connector table has its status's colour (read at once: the list reloads every 5 s
 * and the simulated chargers change statuses); answers the statuses shown.
 */
async function checkTagColours(table: Locator) {
  const tags = await table.locator('[data-status]').evaluateAll((found) =>
    found.map((tag) => ({
      status: tag.getAttribute('data-status') ?? '',
      text: tag.textContent,
      css: tag.className,
    })),
  );
  for (const { status, text, css } of tags) {
    expect(text).toMatch(new RegExp(`^${status}`));
    expect(css).toMatch(new RegExp(`ant-tag-${TAG_COLOURS[status]}`));
  }
  return tags.map((tag) => tag.status);
}

test.describe('as admin', () => {
  // Every column of the charger list (and of Batch History) shows at 1920 px; at 1440 px the cluster and the
  // progress give way rather than be cut (issue 31), and these tests read cells by position.
  test.use({ viewport: { width: 1920, height: 1080 } });
  test.beforeEach(async ({ page }) => {
    await loginAs(page, ROLE_USERS.admin);
  });

  test('the list: role columns, admin buttons, filters and Clear Data', async ({ page }) => {
    // 145 demo chargers, and one more while charger-setting.spec.ts runs its story.
    const ALL = /^1-10 of 14[56]$/;
    await page.goto('/charger');
    await expect(rangeText(page)).toHaveText(ALL);
    const headers = ['Cluster Name', 'Site Name', 'Charger Id', 'Charger Name', 'Charger Brand', 'Online'];
    for (const title of [...headers, 'Last Seen', 'Inactive/Active', 'Action']) {
      await expect(columnHeader(page, title)).toBeVisible();
    }
    // Buttons with an icon are named after it too ('download Export').
    for (const name of [
      'Hard Reset All',
      'Config All',
      'Send Local List All',
      'Batch History',
      'New Charger',
      'Export',
    ]) {
      await expect(page.getByRole('button', { name: new RegExp(`${name}$`) })).toBeVisible();
    }
    // Online or Offline as a tag; the last frame's Thai date and time, or '-' if never heard from.
    const first = chargerRows(page).first();
    await expect(first.locator('.ant-tag')).toHaveText(/^(Online|Offline)$/);
    await expect(await cellUnder(page, first, 'Last Seen')).toHaveText(
      /^(-|\d{2}\/\d{2}\/25\d{2} \d{2}:\d{2})$/,
    );

    await pick(page, 'Cluster Name', 'Metro Plaza Shopping Centres');
    await pick(page, 'Site Name', 'Siam Square Parking B2');
    await search(page);
    await expect(rangeText(page)).toHaveText('1-2 of 2');
    await expect(page).toHaveURL(/merchantId=\d+&landlordId=\d+/);
    await expect(chargerRow(page, 'TH-MP-SIAMSQUAREB2-01')).toContainText('ABB Terra 184 (50.00 kW)');
    await expect(chargerRow(page, 'TH-MP-SIAMSQUAREB2-02')).toContainText('ABB Terra AC W22 (22.00 kW)');

    await clearData(page);
    await expect(rangeText(page)).toHaveText(ALL);
    // SELECT ALL picks every brand; one brand then narrows the list to its chargers.
    await pick(page, 'Charger Brand', 'SELECT ALL');
    await search(page);
    await expect(page).toHaveURL(/(chargerBrandId=\d+.*){5}/);
    await expect(rangeText(page)).toHaveText(ALL);
    await clearData(page);
    await expect(page).not.toHaveURL(/chargerBrandId/);
    await pick(page, 'Charger Brand', 'Delta DC Wallbox (25.00 kW)');
    await search(page);
    await expect(page).toHaveURL(/chargerBrandId=\d+&page=1/);
    await expect(rangeText(page)).toHaveText(/^1-\d+ of (?!14[56]$)\d+$/);
    for (const row of await chargerRows(page).all())
      await expect(row).toContainText('Delta DC Wallbox (25.00 kW)');

    await clearData(page);
    await idFilter(page).fill('siamsquareb2');
    await page.getByRole('textbox', { name: 'Connector Name', exact: true }).fill('chademo');
    await search(page);
    await expect(rangeText(page)).toHaveText('1-1 of 1');
    await expect(chargerRow(page, 'TH-MP-SIAMSQUAREB2-01')).toBeVisible();

    // The connector id takes digits only.
    await clearData(page);
    const connectorId = page.getByRole('textbox', { name: 'Connector Id', exact: true });
    await connectorId.fill('id-10003');
    await expect(connectorId).toHaveValue('10003');
    await search(page);
    await expect(page).toHaveURL(/connectorId=10003/);
    await expect(rangeText(page)).toHaveText('1-1 of 1');
    await expect(chargerRow(page, 'TH-MP-SIAMSQUAREB2-02')).toBeVisible();
  });

  test('a row expands to its connectors, status tags in their colours, kept open while the list reloads', async ({
    page,
  }) => {
    await page.goto('/charger?id=TH-MP-ASOK-0');
    await expect(rangeText(page)).toHaveText('1-4 of 4');
    await expand(page, 'TH-MP-ASOK-01');
    await expand(page, OFFLINE_CHARGER);
    const connectors = connectorTable(page, 'TH-MP-ASOK-01');
    for (const title of [
      'Connector Id',
      'Connector Name',
      'Connector Type',
      'Charging Speed (kW)',
      'Status',
    ]) {
      await expect(connectors.locator('th').filter({ hasText: title })).toBeVisible();
    }
    await expect(connectors).toContainText('180.00');
    expect(await checkTagColours(connectors)).toHaveLength(3);
    expect(await checkTagColours(connectorTable(page, OFFLINE_CHARGER))).toHaveLength(2);
    // Metro Plaza connectors have a blocker number: both blocker buttons are offered.
    const first = connectors.locator('tr.ant-table-row').first();
    await expect(first.getByRole('button', { name: /^Open blocker/ })).toBeEnabled();
    await expect(first.getByRole('button', { name: /^Close blocker/ })).toBeEnabled();

    // The list reloads every 5 s while visible; the rows stay expanded.
    const reload = (response: { url: () => string }) => /\/api\/charger\?/.test(response.url());
    await page.waitForResponse(reload, { timeout: 8000 });
    await page.waitForResponse(reload, { timeout: 8000 });
    await expect(connectors).toBeVisible();
    await expect(connectorTable(page, OFFLINE_CHARGER)).toBeVisible();
    expect(await checkTagColours(connectors)).toHaveLength(3);

    // An inactive charger is not connected: its connector stays UNAVAILABLE, in red.
    await page.goto('/charger?id=TH-SK-RATCHADA-03');
    await expand(page, 'TH-SK-RATCHADA-03');
    const tag = connectorTable(page, 'TH-SK-RATCHADA-03').locator('[data-status]');
    await expect(tag).toHaveText('UNAVAILABLE');
    await expect(tag).toHaveClass(/ant-tag-red/);
  });

  test('QR code: the old printed code where there is one, downloaded as a 200 px PNG', async ({ page }) => {
    await page.goto('/charger?id=TH-CU-DORM-01');
    await expand(page, 'TH-CU-DORM-01');
    const row = connectorRow(page, 'TH-CU-DORM-01', 10172);
    // No blocker number at the university: the blocker buttons are disabled.
    await expect(row.getByRole('button', { name: /^Open blocker/ })).toBeDisabled();
    await expect(row.getByRole('button', { name: /^Close blocker/ })).toBeDisabled();
    await row.getByRole('button', { name: 'QR 10172' }).click();
    const dialog = modal(page, 'QR Code');
    await opened(dialog);
    await expect(dialog).toContainText('https://qr.example.com/ev/10172');
    const canvas = dialog.getByRole('img', { name: 'QR code of connector 10172' });
    await expect(canvas).toHaveJSProperty('width', 200);

    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download QR' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('QrCodeEVCharger.png');
    expect(pngSize(await file.path())).toEqual({ width: 200, height: 200 });

    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  });

  test('a connector without an old QR code shows its token', async ({ page }) => {
    const listed = page.waitForResponse((response) => /\/api\/charger\?/.test(response.url()));
    await page.goto('/charger?id=TH-MP-SIAMSQUAREB2-01');
    const token: string = (await (await listed).json()).chargers[0].connectors[0].token;
    expect(token).toMatch(/^[0-9a-f]{24}$/);
    await expand(page, 'TH-MP-SIAMSQUAREB2-01');
    await connectorRow(page, 'TH-MP-SIAMSQUAREB2-01', 10001)
      .getByRole('button', { name: 'QR 10001' })
      .click();
    const dialog = modal(page, 'QR Code');
    await opened(dialog);
    await expect(dialog).toContainText(token);
  });

  test('a blocker command to a charger that is not connected fails with the reason', async ({ page }) => {
    await page.goto(`/charger?id=${OFFLINE_CHARGER}`);
    await expand(page, OFFLINE_CHARGER);
    const call = page.waitForResponse((response) =>
      response.url().endsWith('/api/connector/10022/open-blocker'),
    );
    await connectorRow(page, OFFLINE_CHARGER, 10022)
      .getByRole('button', { name: 'Open blocker 10022' })
      .click();
    expect((await call).status()).toBe(409);
    const notice = notification(page, 'Failed!');
    await expect(notice).toContainText('Failed to send open blocker.');
    await expect(notice).toContainText(`Charger ${OFFLINE_CHARGER} is offline.`);
  });

  test('export: one line per connector of the filtered chargers, and a message when none match', async ({
    page,
  }) => {
    await page.goto('/charger?id=TH-MP-SIAMSQUAREB2');
    await expect(rangeText(page)).toHaveText('1-2 of 2');
    const sheet = await exportSheet(page, /^Charger_\d{14}\.xlsx$/);
    const values = (row: number) => (sheet.getRow(row).values as unknown[]).slice(1);
    expect(values(1)).toContain('Charger Id');
    expect(values(1)).toContain('Connector Id');
    expect(sheet.actualRowCount).toBe(5);
    const ids = [2, 3, 4, 5].map((row) => values(row)[values(1).indexOf('Connector Id')]);
    expect(ids).toEqual([10001, 10002, 10003, 10004]);

    await idFilter(page).fill('no such charger');
    await search(page);
    await expect(page.getByText('No Data yet!')).toBeVisible();
    await page.getByRole('button', { name: 'Export' }).click();
    await expect(notification(page, 'No matched charger found')).toBeVisible();
  });
});

test('a cluster user sees its chargers with the site column, no cluster column and no batch buttons', async ({
  page,
}) => {
  await openAs(page, ROLE_USERS.merchant, '/charger');
  await expect(rangeText(page)).toHaveText(/^1-10 of \d+$/);
  await expect(columnHeader(page, 'Site Name')).toBeVisible();
  await expect(columnHeader(page, 'Cluster Name')).toHaveCount(0);
  await expect(selectNamed(page, 'Cluster Name')).toHaveCount(0);
  await expect(selectNamed(page, 'Site Name')).toBeVisible();
  for (const name of ['Hard Reset All', 'Config All', 'Send Local List All', 'Batch History']) {
    await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole('button', { name: 'New Charger', exact: true })).toBeVisible();
  for (const row of await chargerRows(page).all())
    await expect(row).toHaveAttribute('data-row-key', /^TH-MP-/);
});

test('a site user sees only its site, with neither place column', async ({ page }) => {
  await openAs(page, ROLE_USERS.landlord, '/charger');
  await expect(rangeText(page)).toHaveText('1-2 of 2');
  await expect(columnHeader(page, 'Site Name')).toHaveCount(0);
  await expect(columnHeader(page, 'Cluster Name')).toHaveCount(0);
  await expect(chargerRow(page, 'TH-MP-SIAMSQUAREB2-01')).toBeVisible();
});

test('the marketing role has no charger screen', async ({ page }) => {
  await openAs(page, ROLE_USERS.marketting, '/charger');
  await expect(page.getByText('Sorry, you are not authorized to access this page.')).toBeVisible();
});
