import { RPCClient } from '@ev/server/ocpp/rpc';
import type { AlertListResponse } from '@ev/shared';
import { clickAndExpectSaved, notification, openAs } from './fixtures/auth.ts';
import { createCharger } from './fixtures/ocpp.ts';
import { shoot } from './fixtures/screenshot.ts';
import { type APIRequestContext, expect, type Page, test } from './fixtures/test.ts';
import { E2E_PASSWORD, ROLE_USERS, SPEC_USERS } from './fixtures/users.ts';

// Issue 36: alerts in the app. The e2e server checks the conditions every second (serve.ts, ALERTS_EVERY_MS),
// and only SPEC_USERS.alerts hears of them in the app, so the live notices stay on this spec's screens.

/** The header's bell; its name says how many alerts are unread. */
const bell = (page: Page) => page.locator('.shell-header').getByRole('button', { name: /^Alerts/ });

async function unread(page: Page): Promise<number> {
  const label = (await bell(page).getAttribute('aria-label')) ?? '';
  return Number(/(\d+) unread/.exec(label)?.[1] ?? 0);
}

/** A row of the settings' table: its fields are named after the condition. */
const threshold = (page: Page, condition: string) =>
  page.getByRole('spinbutton', { name: `${condition} threshold (minutes)` });

async function tokenOf(request: APIRequestContext, email: string) {
  const login = await request.post('/api/auth/login', { data: { email, pass: E2E_PASSWORD, type: 'admin' } });
  expect(login.status()).toBe(200);
  return { 'x-access-token': ((await login.json()) as { accessToken: string }).accessToken };
}

// One worker, in order: the settings' screenshot shows them as the server starts (the live test sets a
// threshold to 0 for a while).
test.describe.configure({ mode: 'default' });

const changedSetting = (page: Page, condition: string) =>
  page.waitForResponse(
    (response) =>
      response.request().method() === 'PATCH' &&
      new URL(response.url()).pathname === `/api/alert-settings/${condition}`,
  );

test('a user chooses what they hear about, in the app and by mail', async ({ page }) => {
  await openAs(page, SPEC_USERS.alertsSubscriber.email, '/alerts');
  await expect(page.getByRole('heading', { name: 'Alerts', exact: true })).toBeVisible();
  const card = page.getByTestId('alert-subscriptions');
  const inApp = card.getByRole('switch', { name: 'Refund pending in app' });
  const mail = card.getByRole('switch', { name: 'Refund pending by mail' });
  // The e2e server left this user nothing in the app (serve.ts).
  await expect(inApp).not.toBeChecked();
  await expect(mail).not.toBeChecked();
  await inApp.click();
  await mail.click();
  await clickAndExpectSaved(
    page,
    card.getByRole('button', { name: 'Save' }),
    'PUT',
    '/api/alert-subscriptions',
  );

  await page.reload();
  await expect(card.getByRole('switch', { name: 'Refund pending in app' })).toBeChecked();
  await expect(card.getByRole('switch', { name: 'Refund pending by mail' })).toBeChecked();
  await expect(card.getByRole('switch', { name: 'Payment pending by mail' })).not.toBeChecked();
});

test('the settings refuse what the server would, say what it refused, and keep the secret write-only', async ({
  page,
}) => {
  await openAs(page, ROLE_USERS.admin, '/alert-settings');
  await expect(threshold(page, 'Refund pending')).toBeVisible();
  const writes: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH') writes.push(request.url());
  });
  const save = page.getByRole('button', { name: 'Save Refund pending' });
  const url = page.getByRole('textbox', { name: 'Refund pending webhook URL' });
  const secret = page.getByLabel('Refund pending new webhook secret');
  const row = page.locator('.alert-settings-table tr').filter({ has: url });
  const message = (text: string) => row.getByText(text, { exact: true });

  // The form's own checks, with the shared schema's words: nothing is sent.
  await threshold(page, 'Refund pending').fill('-1');
  await save.click();
  await expect(message('Threshold (minutes) must be 0 or more.')).toBeVisible();
  await threshold(page, 'Refund pending').fill('1.5');
  await expect(message('Threshold (minutes) must be a whole number.')).toBeVisible();
  await threshold(page, 'Refund pending').fill('30');
  await url.fill('ftp://hooks.example.com/ev');
  await secret.fill('too short');
  await save.click();
  await expect(message('Webhook URL must be an http or https URL.')).toBeVisible();
  await expect(message('Webhook secret must be at least 16 characters.')).toBeVisible();
  expect(writes).toEqual([]);

  // A URL without a secret: the server refuses (its calls are signed), and the page says why.
  await url.fill('http://127.0.0.1:9/ev-hook');
  await secret.fill('');
  const refused = changedSetting(page, 'refund-pending');
  await save.click();
  expect((await refused).status()).toBe(400);
  const refusal = notification(page, 'Something went wrong !');
  await expect(refusal).toContainText('Webhook secret is required with a webhook URL.');
  await refusal.getByRole('button', { name: 'Close' }).click();
  await expect(refusal).toHaveCount(0);

  // With a secret it saves; the secret is then only 'Set', never shown again.
  await secret.fill('e2e-webhook-secret-0001');
  await clickAndExpectSaved(page, save, 'PATCH', '/api/alert-settings/refund-pending');
  await expect(row.locator('[data-secret="set"]')).toHaveText('Set');
  await expect(secret).toHaveValue('');
  // While the URL is saved, the secret stays: Clear waits for the URL to go.
  const clear = row.getByRole('button', { name: 'Clear Refund pending webhook secret' });
  await expect(clear).toBeDisabled();
  await page.getByText('Successfully saved data.', { exact: true }).waitFor({ state: 'hidden' });
  await shoot(page, 'alert-settings-1440.png');

  // Put back as it was: no URL, no secret.
  await url.fill('');
  await clickAndExpectSaved(page, save, 'PATCH', '/api/alert-settings/refund-pending');
  await page.getByText('Successfully saved data.', { exact: true }).waitFor({ state: 'hidden' });
  await expect(clear).toBeEnabled();
  await clear.click();
  const dialog = page
    .getByRole('dialog')
    .filter({ hasText: "Clear the webhook secret of 'Refund pending'?" });
  await clickAndExpectSaved(
    page,
    dialog.getByRole('button', { name: 'Clear', exact: true }),
    'PATCH',
    '/api/alert-settings/refund-pending',
  );
  await expect(row.locator('[data-secret="unset"]')).toHaveText('Not set');
});

test('a charger that faults rings the bell live; its alert opens the charger', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const id = `E2E-ALERT-${Date.now()}`;
  const remove = await createCharger(page.request, id, '1.6');
  const client = new RPCClient({
    endpoint: `${baseURL!.replace(/^http/, 'ws')}/ocpp`,
    identity: id,
    protocols: ['ocpp1.6'],
    strictMode: true,
    reconnect: false,
  } as never);
  const admin = await tokenOf(page.request, ROLE_USERS.admin);
  // Put back at the end: the demo data's threshold (1 minute), whatever it is.
  const settings = (await (await page.request.get('/api/alert-settings', { headers: admin })).json()) as {
    settings: Array<{ condition: string; thresholdMin: number }>;
  };
  const thresholdMin = settings.settings.find(
    (setting) => setting.condition === 'charger-faulted',
  )!.thresholdMin;
  try {
    await client.connect();
    await client.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'Raw 1.6' });
    await client.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available' });

    // The admin lets a fault fire at once: threshold 0 minutes.
    const bellLoaded = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/alerts' && response.ok(),
    );
    await openAs(page, SPEC_USERS.alerts.email, '/alert-settings');
    await bellLoaded;
    const before = await unread(page);
    await expect(threshold(page, 'Charger faulted')).toBeVisible();
    await threshold(page, 'Charger faulted').fill('0');
    const saved = changedSetting(page, 'charger-faulted');
    await page.getByRole('button', { name: 'Save Charger faulted' }).click();
    expect((await saved).ok()).toBe(true);
    await expect(page.getByText('Successfully saved data.', { exact: true })).toBeVisible();
    await expect(page.getByText('Successfully saved data.', { exact: true })).toBeHidden();

    // The charger faults: the page hears of it over the stream, with no reload and no click.
    await client.call('StatusNotification', {
      connectorId: 1,
      errorCode: 'GroundFailure',
      status: 'Faulted',
    });
    const notice = notification(page, 'Charger faulted').filter({ hasText: id });
    await expect(notice).toBeVisible({ timeout: 20_000 });
    await expect(notice).toContainText(`Charger ${id} at Rangsit Campus Dormitory Zone faulted`);
    await expect.poll(() => unread(page)).toBeGreaterThan(before);

    // The bell lists it, open and unread; it opens the charger.
    await bell(page).click();
    const panel = page.getByTestId('alert-bell-panel');
    const item = panel.getByRole('button').filter({ hasText: id });
    await expect(item).toBeVisible();
    await expect(item).toContainText('Charger faulted');
    await expect(item).toContainText('Open');
    await expect(item).toHaveClass(/unread/);
    await shoot(page, 'alerts-bell-1440.png');
    await item.click();
    await expect(page).toHaveURL(new RegExp(`/charger/${id}$`));
    await expect(page.getByRole('heading', { name: 'Charger Setting' })).toBeVisible();
    // Opened, it is read.
    const listener = await tokenOf(page.request, SPEC_USERS.alerts.email);
    await expect
      .poll(async () => {
        const body = (await (
          await page.request.get('/api/alerts?page=1&size=50&open=true', { headers: listener })
        ).json()) as AlertListResponse;
        return body.alerts.find((alert) => alert.subjectId === id)?.read;
      })
      .toBe(true);
  } finally {
    await page.request.patch('/api/alert-settings/charger-faulted', {
      headers: admin,
      data: { thresholdMin },
    });
    await client
      .call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available' })
      .catch(() => undefined);
    await client.close({ force: true }).catch(() => undefined);
    await remove();
  }
});
