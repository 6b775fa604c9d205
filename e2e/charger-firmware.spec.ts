import fs from 'node:fs';
import { notification, openAs } from './fixtures/auth.ts';
import { opened } from './fixtures/list.ts';
import { modal } from './fixtures/modal.ts';
import { E2E_BATCH_TOKEN } from './fixtures/ocpp.ts';
import { shoot } from './fixtures/screenshot.ts';
import { type APIRequestContext, expect, test } from './fixtures/test.ts';
import { E2E_PASSWORD, ROLE_USERS } from './fixtures/users.ts';

// Firmware & diagnostics (issue 32): e2e/serve.ts connects the demo chargers as simulated chargers, which
// download a firmware file through its one-time link, reboot with its version and upload their diagnostics.
// The brand and its chargers are picked here: Lanna Stop's ABB Terra AC W22 chargers, which no other spec uses;
// Delta DC Wallbox is the demo brand whose chargers answer NotSupported (tools/src/demo-brands.ts).
test.describe.configure({ mode: 'default' });

const BRAND = 'ABB Terra AC W22';
const NOT_SUPPORTING_BRAND = 'Delta DC Wallbox';
/** The simulated charger takes its new version from the file's name. */
const VERSION = '9.4.2';
const FILE_NAME = `e2e-firmware-${VERSION}.bin`;
/** A few megabytes, so the upload's progress bar has something to show. */
const IMAGE = Buffer.alloc(3 * 1024 * 1024, 0x5a);

interface Found {
  token: string;
  brandId: number;
  chargerId: string;
}

/** The brand's id and an online charger of it at Lanna Stop (TH-LS-…), through the API as the admin. */
async function brandAndCharger(request: APIRequestContext, brandName: string): Promise<Found> {
  const login = await request.post('/api/auth/login', {
    data: { email: ROLE_USERS.admin, pass: E2E_PASSWORD, type: 'admin' },
  });
  const token = ((await login.json()) as { accessToken: string }).accessToken;
  const headers = { 'x-access-token': token };
  const brands = (await (await request.get('/api/charger-brand?mode=dropdown', { headers })).json()) as {
    chargerBrands: Array<{ id: number; name: string }>;
  };
  const brandId = brands.chargerBrands.find((brand) => brand.name === brandName)!.id;
  const list = (await (
    await request.get(`/api/charger?chargerBrandId=${brandId}&size=100&sort=id&order=asc`, { headers })
  ).json()) as { chargers: Array<{ id: string; online: boolean; active: boolean }> };
  const charger = list.chargers.find(
    (c) => c.active && c.online && (brandName !== BRAND || c.id.startsWith('TH-LS-')),
  );
  expect(charger, `an online ${brandName} charger`).toBeDefined();
  return { token, brandId, chargerId: charger!.id };
}

test('an admin uploads firmware on the brand screen, updates a charger from its screen and watches it reach Installed', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { brandId, chargerId } = await brandAndCharger(page.request, BRAND);

  await openAs(page, ROLE_USERS.admin, `/charger-brand/${brandId}`);
  const firmware = page.getByTestId('brand-firmware');
  await firmware.getByLabel('Firmware version').fill(VERSION);
  await firmware.locator('input[type=file]').setInputFiles({
    name: FILE_NAME,
    mimeType: 'application/octet-stream',
    buffer: IMAGE,
  });
  await expect(notification(page, 'Firmware uploaded')).toBeVisible({ timeout: 30_000 });
  const row = page.getByTestId('brand-firmware-files').getByRole('row', { name: new RegExp(FILE_NAME) });
  await expect(row).toContainText(VERSION);
  await expect(row).toContainText('3.0 MB');
  await expect(row).toContainText(ROLE_USERS.admin);
  await shoot(page, 'charger-brand-firmware.png');

  await openAs(page, ROLE_USERS.admin, `/charger/${chargerId}`);
  const section = page.getByTestId('charger-files');
  // The brand's newest file is offered first.
  await expect(section.getByLabel('Firmware file')).toBeVisible();
  await expect(section.locator('.ant-select-content, .ant-select-selection-item').first()).toContainText(
    FILE_NAME,
  );
  await section.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(notification(page, 'Update firmware: Accepted')).toBeVisible();
  // The steps come as the charger reports them: downloading, downloaded, installing, a reboot, installed.
  await expect(section.getByTestId('firmware-outcome')).toHaveText('Installed', { timeout: 60_000 });
  const steps = section.getByTestId('firmware-steps');
  await expect(steps.locator('.ant-steps-item-finish')).toHaveCount(4);
  await expect(steps).toContainText('Downloading');
  await expect(steps).toContainText('Installed');

  await section.getByRole('button', { name: 'Request diagnostics' }).click();
  await expect(notification(page, 'Request diagnostics: Accepted')).toBeVisible();
  await expect(section.getByTestId('diagnostics-outcome')).toHaveText('Uploaded', { timeout: 30_000 });
  await expect(
    section.getByTestId('diagnostics-files').getByRole('button', { name: /^Download diagnostics-/ }),
  ).toHaveCount(1);
  // The reboot's BootNotification gave the new version, which the screen shows once the update is Installed.
  await expect(page.getByTestId('connection-info')).toContainText(VERSION);
  await shoot(page, 'charger-firmware-installed.png');
});

test('a charger without firmware management answers NotSupported, and the admin sees that answer', async ({
  page,
}) => {
  const { chargerId } = await brandAndCharger(page.request, NOT_SUPPORTING_BRAND);
  await openAs(page, ROLE_USERS.admin, `/charger/${chargerId}`);
  const section = page.getByTestId('charger-files');
  await expect(section.getByRole('button', { name: 'Update', exact: true })).toBeEnabled();
  await section.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(notification(page, 'Update firmware: NotSupported')).toBeVisible();
  await expect(section.getByTestId('firmware-outcome')).toHaveText('NotSupported');
  await section.getByRole('button', { name: 'Request diagnostics' }).click();
  await expect(notification(page, 'Request diagnostics: NotSupported')).toBeVisible();
});

test("every charger of a brand: the batch's progress and its CSV (Delta DC Wallbox: each answers NotSupported, none restarts)", async ({
  page,
}) => {
  const { brandId } = await brandAndCharger(page.request, NOT_SUPPORTING_BRAND);
  await openAs(page, ROLE_USERS.admin, `/charger-brand/${brandId}`);
  const firmware = page.getByTestId('brand-firmware');
  await firmware.getByLabel('Firmware version').fill('1.0.0');
  await firmware.locator('input[type=file]').setInputFiles({
    name: 'delta-1.0.0.bin',
    mimeType: 'application/octet-stream',
    buffer: IMAGE.subarray(0, 100_000),
  });
  await expect(notification(page, 'Firmware uploaded')).toBeVisible();
  await firmware.getByRole('button', { name: 'Update every charger of this brand' }).click();
  const dialog = modal(page, 'Firmware Update');
  await opened(dialog);
  await expect(dialog.getByLabel('Firmware file')).toBeVisible();
  await dialog.getByLabel('Token').fill(E2E_BATCH_TOKEN);
  const download = page.waitForEvent('download', { timeout: 60_000 });
  await dialog.getByRole('button', { name: 'Run' }).click();
  const file = await download;
  await expect(page.locator('.ant-message')).toContainText('Firmware Update finished.');
  const [done, total] = (
    (await dialog.getByTestId('batch-progress').getByRole('heading').textContent()) ?? ''
  )
    .split(' / ')
    .map(Number);
  expect(total).toBeGreaterThan(0);
  expect(done).toBe(total);
  expect(file.suggestedFilename()).toMatch(/^Firmware_\d+\.csv$/);
  const lines = fs
    .readFileSync(await file.path(), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toBe('Charger Id,Result,Detail,Time');
  expect(lines).toHaveLength(total! + 1);
  for (const line of lines.slice(1)) expect(line.split(',')[1]).toMatch(/^(NotSupported|Offline)$/);
  await shoot(page, 'charger-brand-firmware-batch.png');
  await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('roles without the configuration see no firmware and diagnostics', async ({ page }) => {
  const { chargerId } = await brandAndCharger(page.request, BRAND);
  await openAs(page, ROLE_USERS.callcenter, `/charger/${chargerId}`);
  await expect(page.getByTestId('charger-operations')).toBeVisible();
  await expect(page.getByTestId('charger-files')).toHaveCount(0);
});
