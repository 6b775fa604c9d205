import fs from 'node:fs';
import { notification, openAs } from './fixtures/auth.ts';
import { expand } from './fixtures/charger.ts';
import { pick } from './fixtures/list.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

// What a charger said (issue 32): e2e/serve.ts connects the demo chargers as simulated chargers; this one (Metro
// Plaza Chatuchak, in the call center's and the cluster user's view) is used by no other spec.
const CHARGER = 'TH-MP-CHATUCHAK-01';
/** Its neighbour, also used by no other spec. */
const SECOND_CHARGER = 'TH-MP-CHATUCHAK-02';

test('the Messages part tails a charger live, opens a payload and downloads the log as CSV', async ({
  page,
}) => {
  await openAs(page, ROLE_USERS.callcenter, `/charger/${CHARGER}`);
  const section = page.getByTestId('charger-messages');
  const log = page.getByTestId('message-log');
  await expect(section).toBeVisible();
  // It has been connected since the server started: an open connection, from the simulator's address.
  const connection = page.getByTestId('charger-connections').locator('tr.ant-table-row').first();
  await expect(connection).toContainText('Open');
  await expect(connection).toContainText('127.0.0.1');
  // Its boot is in the log.
  await expect(log.locator('tr.ant-table-row').first()).toBeVisible();

  // Only the TriggerMessage frames, live; then the Operations' trigger sends one.
  await pick(page, 'Action', 'TriggerMessage');
  await section.getByRole('switch', { name: 'Live' }).click();
  await expect(section.getByRole('switch', { name: 'Live' })).toBeChecked();
  await pick(page, 'Message to trigger', 'Heartbeat');
  await page.getByTestId('charger-operations').getByRole('button', { name: 'Send', exact: true }).click();
  await expect(notification(page, 'Trigger Heartbeat: Accepted')).toBeVisible();
  const answered = Date.now();
  // Both frames come on top, marked new: our call and the charger's answer, paired with its action.
  const fresh = log.locator('tr.ant-table-row[data-new="true"]');
  await expect(fresh).toHaveCount(2);
  test.info().annotations.push({
    type: 'tail',
    description: `new frames shown ${Date.now() - answered} ms after the answer`,
  });
  const call = fresh.filter({ hasText: 'requestedMessage' });
  await expect(call).toContainText('Out');
  await expect(call).toContainText('call');
  await expect(fresh.filter({ hasText: 'Accepted' })).toContainText('result');

  // The call opens to its whole payload.
  await call.getByRole('button', { name: /expand/i }).click();
  await expect(section.locator('pre.message-payload')).toHaveText('{\n  "requestedMessage": "Heartbeat"\n}');
  await shoot(page, 'charger-messages.png');

  const download = page.waitForEvent('download');
  await section.getByRole('button', { name: /CSV$/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^messages_${CHARGER}_\\d{14}\\.csv$`));
  const lines = fs
    .readFileSync(await file.path(), 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe('Id,Time,Charger Id,Direction,Kind,Action,Message Id,Protocol,Payload');
  expect(lines.length).toBeGreaterThanOrEqual(3);
  for (const line of lines.slice(1)) expect(line).toContain(`,${CHARGER},`);
  for (const line of lines.slice(1)) expect(line).toMatch(/,(in|out),(call|result),TriggerMessage,/);
});

test('on a later page, Live counts the new frames and leads back to them', async ({ page }) => {
  await openAs(page, ROLE_USERS.callcenter, `/charger/${SECOND_CHARGER}`);
  const section = page.getByTestId('charger-messages');
  const log = page.getByTestId('message-log');
  const send = page.getByTestId('charger-operations').getByRole('button', { name: 'Send', exact: true });
  await expect(log.locator('tr.ant-table-row').first()).toBeVisible();
  // Enough TriggerMessage frames for a second page (each trigger is two: call and answer), tailed on the first.
  await pick(page, 'Action', 'TriggerMessage');
  await expect(log.getByText('No Data yet!')).toBeVisible();
  await section.getByRole('switch', { name: 'Live' }).click();
  for (let i = 0; i < 6; i++) {
    await send.click();
    await expect(log.locator('.ant-pagination-total-text')).toHaveText(
      `1-${Math.min(10, 2 * (i + 1))} of ${2 * (i + 1)}`,
    );
  }
  await log.locator('.ant-pagination-item-2').click();
  await expect(log.locator('.ant-pagination-item-2')).toHaveClass(/ant-pagination-item-active/);
  await send.click();
  const fresh = section.getByTestId('fresh-messages');
  await expect(fresh).toContainText('2 new messages since the first page');
  await fresh.getByRole('button', { name: 'Show newest' }).click();
  await expect(log.locator('.ant-pagination-item-1')).toHaveClass(/ant-pagination-item-active/);
  await expect(fresh).toHaveCount(0);
  await expect(log.locator('tr.ant-table-row').first()).toContainText('TriggerMessage');
});

test("the charger list's opened row shows the charger's vendor, model and firmware from its boot", async ({
  page,
}) => {
  await openAs(page, ROLE_USERS.admin, `/charger?id=${CHARGER}`);
  await expand(page, CHARGER);
  const boot = page.getByTestId(`boot-info-${CHARGER}`);
  await expect(boot).toContainText('Vendor: EV Simulator');
  await expect(boot).toContainText('Firmware: 1.6.0-sim');
  await expect(boot).toContainText(/Model: \S+/);
  await shoot(page, 'charger-list-boot-info.png');
});

test("a cluster user sees the Messages part of its cluster's charger", async ({ page }) => {
  // Every charger role has charger.messages, each in its scope (the API test covers 403 and 404).
  await openAs(page, ROLE_USERS.merchant, `/charger/${CHARGER}`);
  await expect(page.getByTestId('charger-messages')).toBeVisible();
  await expect(page.getByTestId('charger-connections')).toBeVisible();
});
