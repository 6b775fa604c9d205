import path from 'node:path';
import type { Landlord, SitePower } from '@ev/shared';
import { loginAs } from './fixtures/auth.ts';
import { pick, saveForm } from './fixtures/list.ts';
import { chargeOnQuietCharger, QUIET_CHARGER } from './fixtures/ocpp.ts';
import { SCREENSHOT_DIR, shoot } from './fixtures/screenshot.ts';
import { type APIRequestContext, expect, type Page, test } from './fixtures/test.ts';
import { E2E_PASSWORD, ROLE_USERS } from './fixtures/users.ts';

/**
 * Issue 34's browser acceptance: an operator sets a site's limit in Site Setting and watches its Live load,
 * the chart of the last hour against the limit and each session's allowance now. The site is the quiet
 * charger's (no random activity): a member's session there is the spec's own, on a connector no other spec
 * uses (booking takes the first, charger-live the last). The limit is generous (every session there gets its
 * minimum, none waits), so the specs charging beside it see a charger that still charges; it is put back at
 * the end.
 */
const MEMBER = 'sarah.t@example.com';
const CONNECTOR_INDEX = 1;
const LIMIT_KW = '400';

async function staffHeaders(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', {
    data: { email: ROLE_USERS.admin, pass: E2E_PASSWORD, type: 'admin' },
  });
  expect(login.status()).toBe(200);
  return { 'x-access-token': ((await login.json()) as { accessToken: string }).accessToken };
}

/** A picture of one section of the setting form, from its title down (`height` px). */
async function shootSection(page: Page, title: string, name: string, height = 360) {
  const divider = page.locator('.setting-form .ant-divider').filter({ hasText: title });
  await divider.scrollIntoViewIfNeeded();
  const form = await page.locator('.setting-form').boundingBox();
  const top = await divider.boundingBox();
  if (!form || !top) throw new Error(`No ${title} section`);
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, name),
    clip: { x: form.x - 8, y: top.y - 8, width: form.width + 16, height },
    animations: 'disabled',
  });
}

/** The Site Setting body of a site as read (the answer's own fields left out), with these power fields. */
function siteBody(site: Landlord, power: Pick<Landlord, 'maxPowerKw' | 'phases' | 'voltage'>) {
  const { id: _id, merchantNameEn: _name, internal: _internal, active: _active, ...fields } = site;
  return { ...fields, ...power };
}

test('a limit set in Site Setting shows its Live load: the chart against the limit, the sessions and their allowances', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const staff = await staffHeaders(request);
  const quiet = (await (await request.get(`/api/charger/${QUIET_CHARGER}`, { headers: staff })).json()) as {
    charger: { nameEn: string; landlordId: number; connectors: Array<{ nameEn: string }> };
  };
  const siteId = quiet.charger.landlordId;
  const connectorName = quiet.charger.connectors[CONNECTOR_INDEX]?.nameEn ?? '';
  const before = (
    (await (await request.get(`/api/landlord/${siteId}`, { headers: staff })).json()) as {
      landlord: Landlord;
    }
  ).landlord;
  let session: { token: string; bookingId: number } | undefined;

  try {
    await loginAs(page, ROLE_USERS.admin);
    await page.goto(`/landlord/${siteId}`);
    const maxPower = page.getByLabel('Max power (kW)', { exact: true });
    await expect(maxPower).toBeVisible();
    if (before.maxPowerKw === null) await expect(page.getByTestId('live-load')).toHaveCount(0);

    // The Power section: the limit, and the supply's phases with its voltage (one without the other is refused).
    await maxPower.fill(LIMIT_KW);
    await page.getByLabel('Voltage (V)', { exact: true }).fill('');
    await pick(page, 'Phases', '3 (three-phase)');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(
      page.getByText('Voltage (V) is required when Phases is set.', { exact: true }),
    ).toBeVisible();
    await shootSection(page, 'Power', 'site-power-form.png');
    await page.getByLabel('Voltage (V)', { exact: true }).fill('230');
    await saveForm(page);
    await expect(page).toHaveURL(/\/landlord(\?|$)/);

    // Saved: the site shows it again after a reload, with its Live load.
    await page.goto(`/landlord/${siteId}`);
    await expect(maxPower).toHaveValue(LIMIT_KW);
    await expect(page.getByLabel('Voltage (V)', { exact: true })).toHaveValue('230');
    await expect(page.locator('.ant-form-item').filter({ hasText: 'Phases' })).toContainText(
      '3 (three-phase)',
    );
    const card = page.getByTestId('live-load');
    await expect(card).toBeVisible();
    const chart = card.getByRole('img', { name: /^Site power over the last hour: .*a 400 kW limit/ });
    await expect(chart).toBeVisible();
    await expect(chart.getByTestId('load-chart-limit')).toContainText('Limit 400 kW');

    // A member charges at the site: the session shows with its allowance, then its power on the chart.
    session = await chargeOnQuietCharger(request, MEMBER, CONNECTOR_INDEX);
    const row = card
      .getByTestId('live-load-sessions')
      .locator('tr.ant-table-row')
      .filter({ hasText: quiet.charger.nameEn })
      .filter({ hasText: connectorName });
    await expect(row).toBeVisible({ timeout: 20_000 });
    const allowance = row.locator('td').nth(3);
    await expect
      .poll(async () => Number(await allowance.textContent()), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await expect(row.locator('.ant-tag').filter({ hasText: /^(Accepted|Pending)$/ })).toBeVisible({
      timeout: 20_000,
    });
    await expect(row.locator('.ant-tag').filter({ hasText: 'Waiting' })).toHaveCount(0);
    // Meter values come every 20 s: the minute's point follows.
    await expect(chart.getByTestId('load-chart-line')).toBeVisible({ timeout: 60_000 });
    const power = (await (
      await request.get(`/api/landlord/${siteId}/power`, { headers: staff })
    ).json()) as SitePower;
    expect(power.maxPowerKw).toBe(Number(LIMIT_KW));
    expect(power.sessions.reduce((sum, item) => sum + item.allowanceKw, 0)).toBeLessThanOrEqual(
      Number(LIMIT_KW),
    );

    await shoot(page, 'site-power.png');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(chart).toBeVisible();
    await card.screenshot({ path: path.join(SCREENSHOT_DIR, 'site-power-390.png'), animations: 'disabled' });
  } finally {
    if (session) {
      await request.post(`/api/member/booking/${session.bookingId}/stop`, {
        headers: { 'x-access-token': session.token },
      });
    }
    // The site as it was: the specs after this one find no limit there.
    const restored = await request.patch(`/api/landlord/${siteId}`, {
      headers: staff,
      data: siteBody(before, {
        maxPowerKw: before.maxPowerKw,
        phases: before.phases,
        voltage: before.voltage,
      }),
    });
    expect(restored.status(), await restored.text()).toBe(200);
  }
});
