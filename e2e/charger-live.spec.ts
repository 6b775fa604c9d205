import fs from 'node:fs';
import { notification, openAs } from './fixtures/auth.ts';
import { chargerRow, connectorRow, connectorTable, expand } from './fixtures/charger.ts';
import { cellUnder, opened, rangeText } from './fixtures/list.ts';
import { modal } from './fixtures/modal.ts';
import { chargeOnQuietCharger, E2E_BATCH_TOKEN, QUIET_CHARGER } from './fixtures/ocpp.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Locator, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

// Live OCPP: e2e/serve.ts connects the active demo chargers (LIVE_CHARGER among them) as simulated chargers
// and sets BATCH_COMMAND_TOKEN.
// One at a time, in order: a Hard Reset All restarts the simulated chargers.
test.describe.configure({ mode: 'default' });

/** A simulated charger at Metro Plaza, whose connectors have a blocker number. */
const LIVE_CHARGER = 'TH-MP-SIAMSQUAREB2-01';
const LIVE_CONNECTOR = 10001;
/** A demo member no other spec uses: charges on QUIET_CHARGER's last connector. */
const QUIET_MEMBER = 'araya.c@example.net';
const CSV_HEADER = 'Charger Id,Result,Detail,Time';
const RESULTS = /^(Accepted|Rejected|NotSupported|Offline|Timeout)$/;

const progress = (page: Page) => page.getByTestId('batch-progress');
const run = (page: Page, title: string) => modal(page, title).getByRole('button', { name: 'Run' }).click();

/** Opens a batch modal from the list's button. */
async function open(page: Page, title: string) {
  // A button with an icon is named after it too ('history Batch History').
  await page.getByRole('button', { name: new RegExp(`${title}$`) }).click();
  const dialog = modal(page, title);
  await opened(dialog);
  return dialog;
}

/** Runs with the right token and checks the end: 'n / n', the 1.5 s message, the CSV of every charger. */
async function runToTheEnd(page: Page, title: string, fileName: RegExp) {
  const dialog = modal(page, title);
  await dialog.getByLabel('Token').fill(E2E_BATCH_TOKEN);
  const download = page.waitForEvent('download', { timeout: 60_000 });
  await run(page, title);
  await expect(progress(page)).toBeVisible();
  const file = await download;
  await expect(page.locator('.ant-message')).toContainText(`${title} finished.`);
  const [done, total] = ((await progress(page).getByRole('heading').textContent()) ?? '')
    .split(' / ')
    .map(Number);
  expect(total).toBeGreaterThan(0);
  expect(done).toBe(total);
  expect(file.suggestedFilename()).toMatch(fileName);
  const lines = fs
    .readFileSync(await file.path(), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toBe(CSV_HEADER);
  expect(lines).toHaveLength((total ?? 0) + 1);
  for (const line of lines.slice(1)) expect(line.split(',')[1]).toMatch(RESULTS);
  await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
}

/** Picks an offered key; a click while the options re-render (the row's error leaving) is tried again. */
async function pickKey(page: Page, field: Locator, key: string) {
  await expect(async () => {
    await page
      .locator('.ant-select-dropdown:visible')
      .getByTitle(key, { exact: true })
      .click({ timeout: 2000 });
    await expect(field).toHaveValue(key, { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
}

test("a call-center agent unlocks a connector from the charger screen and sees the charger's answer", async ({
  page,
}) => {
  await openAs(page, ROLE_USERS.callcenter, `/charger/${LIVE_CHARGER}`);
  const operations = page.getByTestId('charger-operations');
  await expect(operations).toBeVisible();
  const first = page.getByTestId('operations-connector-1');
  await first.getByRole('button', { name: 'Unlock' }).click();
  await expect(notification(page, 'Unlock connector 1: Unlocked')).toBeVisible();
  await first.getByRole('button', { name: 'Ask status' }).click();
  await expect(notification(page, 'Status of connector 1: Accepted')).toBeVisible();
  // The admin's operations are not offered to the call center (the server refuses them too).
  await expect(operations.getByRole('button', { name: 'Hard reset' })).toHaveCount(0);
  await expect(operations.getByRole('button', { name: 'Read configuration' })).toHaveCount(0);
  await shoot(page, 'charger-operations-callcenter.png');
});

test("a call-center agent unlocks a connector from the list's opened row", async ({ page }) => {
  await openAs(page, ROLE_USERS.callcenter, `/charger?id=${LIVE_CHARGER}`);
  await expand(page, LIVE_CHARGER);
  const connector = connectorRow(page, LIVE_CHARGER, LIVE_CONNECTOR);
  await connector.getByRole('button', { name: `Unlock ${LIVE_CONNECTOR}` }).click();
  await expect(notification(page, 'Unlock connector 1: Unlocked')).toBeVisible();
});

test("an admin reads the charger's configuration and changes a key", async ({ page }) => {
  await openAs(page, ROLE_USERS.admin, `/charger/${LIVE_CHARGER}`);
  await page.getByRole('button', { name: 'Read configuration' }).click();
  const keys = page.getByTestId('configuration-keys');
  await expect(keys.getByRole('row', { name: /NumberOfConnectors/ })).toContainText('Read-only');
  await page.getByLabel('Key to change').fill('MeterValueSampleInterval');
  await page
    .locator('.ant-select-dropdown:visible')
    .getByTitle('MeterValueSampleInterval', { exact: true })
    .click();
  await page.getByLabel('New value').fill('45');
  await page.getByRole('button', { name: 'Change', exact: true }).click();
  await expect(notification(page, 'Change MeterValueSampleInterval: Accepted')).toBeVisible();
  await expect(keys.getByRole('row', { name: /MeterValueSampleInterval/ })).toContainText('45');
  await shoot(page, 'charger-operations-admin.png');
});

test('a call-center agent sends the charger its local list and reads its version back', async ({ page }) => {
  await openAs(page, ROLE_USERS.callcenter, `/charger/${LIVE_CHARGER}`);
  const list = page.getByTestId('local-list');
  await list.getByRole('button', { name: 'Send local list' }).click();
  await expect(notification(page, 'Send local list: Accepted')).toBeVisible();
  // The read that follows: the charger holds the version it last accepted from us.
  await expect(page.getByTestId('local-list-version')).toContainText(
    /^Charger holds version (\d+); last accepted from us: \1 \(/,
  );
  await shoot(page, 'charger-local-list.png');
});

test.describe('as admin', () => {
  // Every column of the charger list (and of Batch History) shows at 1920 px; at 1440 px the cluster and the
  // progress give way rather than be cut (issue 31), and these tests read cells by position.
  test.use({ viewport: { width: 1920, height: 1080 } });
  test.beforeEach(async ({ page }) => {
    await openAs(page, ROLE_USERS.admin, '/charger');
    await expect(rangeText(page)).toHaveText(/of \d+$/);
  });

  test('a connected charger shows Online with its last-seen time, and its blockers answer', async ({
    page,
  }) => {
    await page.goto(`/charger?id=${LIVE_CHARGER}`);
    const row = chargerRow(page, LIVE_CHARGER);
    await expect(row.locator('.ant-tag-green').filter({ hasText: 'Online' })).toBeVisible();
    await expect(await cellUnder(page, row, 'Last Seen')).toHaveText(/^\d{2}\/\d{2}\/25\d{2} \d{2}:\d{2}$/);
    await expect(await cellUnder(page, row, 'Protocol')).toHaveText(/^OCPP (1\.6J|2\.0\.1)$/);
    await expand(page, LIVE_CHARGER);
    const connector = connectorRow(page, LIVE_CHARGER, LIVE_CONNECTOR);
    await connector.getByRole('button', { name: `Open blocker ${LIVE_CONNECTOR}` }).click();
    await expect(notification(page, 'Send open blocker successfully!')).toBeVisible();
    await connector.getByRole('button', { name: `Close blocker ${LIVE_CONNECTOR}` }).click();
    await expect(notification(page, 'Send close blocker successfully!')).toBeVisible();
  });

  test('status tags follow what the charger reports, without a reload', async ({ page, request }) => {
    // On the quiet charger (no random activity) a member's session is the only change: the spec starts it.
    await page.goto(`/charger?id=${QUIET_CHARGER}`);
    await expand(page, QUIET_CHARGER);
    const statuses = () => connectorTable(page, QUIET_CHARGER).locator('[data-status]').allTextContents();
    await expect.poll(async () => (await statuses()).length).toBe(4);
    const last = async () => (await statuses())[3] ?? '';
    await expect.poll(last).toMatch(/^available$/i);
    const { token, bookingId } = await chargeOnQuietCharger(request, QUIET_MEMBER, 3);
    // The charger reports Charging; the list reloads itself every 5 s.
    await expect.poll(last, { timeout: 15_000, intervals: [500] }).toMatch(/^charging$/i);
    // The member stops; the charger reports Finishing.
    const stop = await request.post(`/api/member/booking/${bookingId}/stop`, {
      headers: { 'x-access-token': token },
    });
    expect(stop.status(), await stop.text()).toBe(200);
    await expect.poll(last, { timeout: 15_000, intervals: [500] }).not.toMatch(/^charging$/i);
  });

  test('Hard Reset All asks for the token, refuses a wrong one, then runs with progress and a CSV', async ({
    page,
  }) => {
    const dialog = await open(page, 'Hard Reset All');
    await run(page, 'Hard Reset All');
    await expect(dialog.getByText('Token is required.', { exact: true })).toBeVisible();
    await dialog.getByLabel('Token').fill('not the token');
    const refused = page.waitForResponse((response) =>
      response.url().includes('/api/charger/batch/hard-reset'),
    );
    await run(page, 'Hard Reset All');
    expect((await refused).status()).toBe(403);
    await expect(notification(page, 'Something went wrong !')).toContainText(
      'Please re-login or contact web admin. (Code: The batch token is not valid.)',
    );
    // Refused before it started: the token can be typed again.
    await expect(dialog.getByLabel('Token')).toBeVisible();
    await expect(progress(page)).toHaveCount(0);
    await runToTheEnd(page, 'Hard Reset All', /^Hard-Reset_\d+\.csv$/);
  });

  test('Config All takes key/value pairs, standard keys offered, each key once', async ({ page }) => {
    const dialog = await open(page, 'Config All');
    await dialog.getByLabel('Key 1').fill('');
    await run(page, 'Config All');
    await expect(dialog.getByText('Token is required.', { exact: true })).toBeVisible();
    await expect(dialog.getByText('Key is required.', { exact: true })).toBeVisible();

    await dialog.getByLabel('Key 1').fill('heartbeat');
    await pickKey(page, dialog.getByLabel('Key 1'), 'HeartbeatInterval');
    await expect(dialog.getByLabel('Value 1')).toHaveAttribute('placeholder', 'A whole number, e.g. 300');
    await dialog.getByLabel('Value 1').fill('300');
    await dialog.getByRole('button', { name: 'Add configuration' }).click();
    await dialog.getByLabel('Key 2').fill('HeartbeatInterval');
    await dialog.getByLabel('Value 2').fill('600');
    await dialog.getByLabel('Token').fill(E2E_BATCH_TOKEN);
    await run(page, 'Config All');
    await expect(dialog.getByText('Each key may appear once.', { exact: true })).toBeVisible();
    // A key of the charger's own is typed freely.
    await dialog.getByLabel('Key 2').fill('VendorDisplayBrightness');
    await expect(dialog.getByLabel('Value 2')).toHaveAttribute('placeholder', 'Value');
    await dialog.getByRole('button', { name: 'Remove configuration 2' }).click();
    await expect(dialog.getByTestId('configuration-row')).toHaveCount(1);
    await runToTheEnd(page, 'Config All', /^Config_\d+\.csv$/);
  });

  test('Batch History lists the runs with their results and CSV', async ({ page }) => {
    const dialog = await open(page, 'Batch History');
    const jobs = dialog.locator('.ant-table-tbody tr.ant-table-row');
    await expect(jobs.first()).toBeVisible();
    await expect(dialog).toContainText('Hard Reset All');
    await expect(dialog).toContainText('Config All');
    await expect(dialog).toContainText('HeartbeatInterval = 300');
    await expect(jobs.first()).toContainText(/\d+ \/ \d+/);
    const download = page.waitForEvent('download');
    await jobs
      .first()
      .getByRole('button', { name: /^Download CSV/ })
      .click();
    expect((await download).suggestedFilename()).toMatch(/^(Hard-Reset|Config)_\d+\.csv$/);
  });

  test("Send Local List All sends every charger its members' id tags, with progress and a CSV", async ({
    page,
  }) => {
    const dialog = await open(page, 'Send Local List All');
    await expect(dialog).toContainText("the members' id tags valid there");
    await runToTheEnd(page, 'Send Local List All', /^Local-List_\d+\.csv$/);
  });
});

test('a run cannot be closed until it ends; an error event stops it with the notice', async ({ page }) => {
  await openAs(page, ROLE_USERS.admin, '/charger');
  // The answer is held back, then the stream reports one charger and fails.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/charger/batch/hard-reset?*', async (route) => {
    await held;
    await route.fulfill({
      status: 200,
      contentType: 'text/event-stream',
      body: [
        'event: size\ndata: 2\n\n',
        'event: update\ndata: {"id":"TH-A","result":"Accepted"}\n\n',
        'event: error\ndata: {"message":"Database unavailable"}\n\n',
      ].join(''),
    });
  });
  const dialog = await open(page, 'Hard Reset All');
  await dialog.getByLabel('Token').fill('held');
  await run(page, 'Hard Reset All');
  const close = dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' });
  await expect(progress(page).getByRole('heading')).toHaveText('0 / …');
  await expect(close).toBeDisabled();
  await expect(dialog.locator('.ant-modal-close')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();

  release();
  await expect(notification(page, 'Something went wrong !')).toContainText('(Code: Database unavailable)');
  await expect(progress(page)).toContainText('Stopped: Database unavailable');
  await expect(progress(page).getByRole('heading')).toHaveText('1 / 2');
  await expect(progress(page).locator('[data-result="Accepted"]')).toHaveText('Accepted: 1');
  // No job was named: nothing to download.
  await expect(dialog.getByRole('button', { name: 'Download CSV' })).toHaveCount(0);
  await close.click();
  await expect(dialog).toBeHidden();
});

test('other roles have no batch buttons and the server refuses them', async ({ page }) => {
  await openAs(page, ROLE_USERS.callcenter, '/charger');
  await expect(rangeText(page)).toHaveText(/of \d+$/);
  await expect(page.getByRole('button', { name: 'Hard Reset All' })).toHaveCount(0);
  const token = await page.evaluate(
    () => JSON.parse(sessionStorage.getItem('ev.session') ?? '{}').accessToken,
  );
  const response = await page.request.get(`/api/charger/batch/hard-reset?token=${E2E_BATCH_TOKEN}`, {
    headers: { 'X-ACCESS-TOKEN': token },
  });
  expect(response.status()).toBe(403);
});
