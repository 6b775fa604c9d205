import path from 'node:path';
import { RPCClient } from '@ev/server/ocpp/rpc';
import type { Landlord, SitePower } from '@ev/shared';
import { loginAs } from './fixtures/auth.ts';
import { pick, saveForm } from './fixtures/list.ts';
import { QUIET_CHARGER } from './fixtures/ocpp.ts';
import { SCREENSHOT_DIR, shoot } from './fixtures/screenshot.ts';
import { type APIRequestContext, expect, type Page, test } from './fixtures/test.ts';
import { E2E_PASSWORD, ROLE_USERS } from './fixtures/users.ts';

/**
 * Issue 34's browser acceptance: an operator sets a site's limit in Site Setting and watches its Live load,
 * the chart of the last hour against the limit and each session's allowance now.
 *
 * The charger is this test's own, a bare ocpp-rpc 1.6 client (strict: every frame checked against the 1.6
 * schemas), at the quiet demo charger's site (a 24-hour site without random activity): a member books it and
 * starts through the member API, and it reports 45 kW every 5 s, so the chart has readings within seconds
 * (the demo's simulated chargers send readings only on their random steps). It takes every command (the power
 * manager's charging profiles too) with Accepted. The limit is generous (every session there gets its minimum, none waits), so the
 * specs charging on the quiet charger meanwhile see a charger that still charges; the site's power fields are
 * put back at the end.
 */
const MEMBER = 'sarah.t@example.com';
const LIMIT_KW = '400';
const CHARGER_LIMIT_KW = '50';
const DRAW_KW = 45;
const METER_EVERY_MS = 5_000;

type Params = Record<string, unknown>;
type Headers = Record<string, string>;

async function staffHeaders(request: APIRequestContext): Promise<Headers> {
  const login = await request.post('/api/auth/login', {
    data: { email: ROLE_USERS.admin, pass: E2E_PASSWORD, type: 'admin' },
  });
  expect(login.status()).toBe(200);
  return { 'x-access-token': ((await login.json()) as { accessToken: string }).accessToken };
}

/** A new 1.6 charger with one 60 kW connector at the site, with the quiet charger's brand and price. */
async function createCharger(request: APIRequestContext, headers: Headers, id: string, siteId: number) {
  const model = (
    (await (await request.get(`/api/charger/${QUIET_CHARGER}`, { headers })).json()) as {
      charger: { chargerBrandId: number; connectors: Array<{ connectorTypeId: number; priceId: number }> };
    }
  ).charger;
  const connectorId = Number(String(Date.now()).slice(-8));
  const created = await request.post('/api/charger', {
    headers,
    data: {
      id,
      nameEn: 'E2E Power DC',
      nameTh: 'ตู้ชาร์จทดสอบกำลังไฟ',
      landlordId: siteId,
      chargerBrandId: model.chargerBrandId,
      ocppProtocol: '1.6',
      connectors: [
        {
          id: connectorId,
          token: `e2e-power-${connectorId}`,
          nameEn: 'CCS2 power',
          nameTh: 'หัวชาร์จทดสอบ',
          connectorTypeId: model.connectors[0]!.connectorTypeId,
          judjodId: null,
          maxPowerKw: 60,
          priceId: model.connectors[0]!.priceId,
        },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  return connectorId;
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
  baseURL,
}) => {
  test.setTimeout(150_000);
  const staff = await staffHeaders(request);
  const quiet = (await (await request.get(`/api/charger/${QUIET_CHARGER}`, { headers: staff })).json()) as {
    charger: { landlordId: number };
  };
  const siteId = quiet.charger.landlordId;
  const before = (
    (await (await request.get(`/api/landlord/${siteId}`, { headers: staff })).json()) as {
      landlord: Landlord;
    }
  ).landlord;
  const chargerId = `E2E-PWR-${Date.now()}`;
  const connectorId = await createCharger(request, staff, chargerId, siteId);

  const asked: Array<{ action: string; params: Params }> = [];
  const client = new RPCClient({
    endpoint: `${baseURL!.replace(/^http/, 'ws')}/ocpp`,
    identity: chargerId,
    protocols: ['ocpp1.6'],
    strictMode: true,
    reconnect: false,
  } as never);
  let transaction: { id: number; wh: number } | undefined;
  let meters: ReturnType<typeof setInterval> | undefined;
  const accept = (action: string) =>
    client.handle(action, (({ params }: { params: Params }) => {
      asked.push({ action, params });
      return { status: 'Accepted' };
    }) as never);
  for (const action of ['ReserveNow', 'CancelReservation', 'SetChargingProfile', 'ClearChargingProfile']) {
    accept(action);
  }
  client.handle('RemoteStartTransaction', (({ params }: { params: Params }) => {
    asked.push({ action: 'RemoteStartTransaction', params });
    // The answer first, then the transaction, as a charger does.
    setTimeout(async () => {
      const started = (await client.call('StartTransaction', {
        connectorId: 1,
        idTag: params.idTag,
        meterStart: 0,
        timestamp: new Date().toISOString(),
      })) as { transactionId: number };
      transaction = { id: started.transactionId, wh: 0 };
      await client.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Charging' });
      meters = setInterval(() => {
        if (!transaction) return;
        transaction.wh += Math.round((DRAW_KW * 1000 * METER_EVERY_MS) / 3_600_000);
        void client
          .call('MeterValues', {
            connectorId: 1,
            transactionId: transaction.id,
            meterValue: [
              {
                timestamp: new Date().toISOString(),
                sampledValue: [
                  { value: String(transaction.wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
                  { value: String(DRAW_KW), measurand: 'Power.Active.Import', unit: 'kW' },
                ],
              },
            ],
          })
          .catch(() => undefined);
      }, METER_EVERY_MS);
    }, 100);
    return { status: 'Accepted' };
  }) as never);

  try {
    await loginAs(page, ROLE_USERS.admin);

    // The charger's own limit, in its Power section.
    await page.goto(`/charger/${chargerId}`);
    const chargerLimit = page.getByLabel('Max power (kW)', { exact: true });
    await chargerLimit.fill(CHARGER_LIMIT_KW);
    await saveForm(page);
    await page.goto(`/charger/${chargerId}`);
    await expect(chargerLimit).toHaveValue(CHARGER_LIMIT_KW);

    // The site's: the limit, and the supply's phases with its voltage (one without the other is refused).
    await page.goto(`/landlord/${siteId}`);
    const maxPower = page.getByLabel('Max power (kW)', { exact: true });
    await expect(maxPower).toBeVisible();
    if (before.maxPowerKw === null) await expect(page.getByTestId('live-load')).toHaveCount(0);
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

    // The charger comes online at the limited site; a member books it and starts.
    await client.connect();
    await client.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'Power DC' });
    await client.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available' });
    const login = await request.post('/api/member/login', { data: { email: MEMBER, pass: 'Demo1234' } });
    expect(login.status()).toBe(200);
    const member = { 'x-access-token': ((await login.json()) as { accessToken: string }).accessToken };
    const now = Date.now();
    const reserved = await request.post('/api/member/booking', {
      headers: member,
      data: {
        connectorId,
        slotStart: new Date(now).toISOString(),
        slotEnd: new Date(now + 3_600_000).toISOString(),
      },
    });
    expect(reserved.status(), await reserved.text()).toBe(200);
    const bookingId = ((await reserved.json()) as { booking: { id: number } }).booking.id;
    for (const step of ['check-in', 'start']) {
      const response = await request.post(`/api/member/booking/${bookingId}/${step}`, { headers: member });
      expect(response.status(), await response.text()).toBe(200);
    }

    // Its session: its allowance (within the charger's own limit), what it draws, how it took its profile.
    const row = card
      .getByTestId('live-load-sessions')
      .locator('tr.ant-table-row')
      .filter({ hasText: 'E2E Power DC' });
    await expect(row).toBeVisible({ timeout: 20_000 });
    await expect(row).toContainText('CCS2 power (#1)');
    const cell = (index: number) => row.locator('td').nth(index);
    await expect
      .poll(async () => Number(await cell(3).textContent()), { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(Number(await cell(3).textContent())).toBeLessThanOrEqual(Number(CHARGER_LIMIT_KW));
    await expect(cell(4)).toHaveText('45.00', { timeout: 20_000 });
    // The power manager sent its TxProfile, which the charger took.
    await expect(row.locator('.ant-tag').filter({ hasText: /^Accepted$/ })).toBeVisible({ timeout: 20_000 });
    const purposes = () =>
      asked
        .filter(({ action }) => action === 'SetChargingProfile')
        .map(
          ({ params }) =>
            (params.csChargingProfiles as { chargingProfilePurpose: string }).chargingProfilePurpose,
        );
    expect(purposes()).toContain('TxProfile');
    await expect(row.locator('.ant-tag').filter({ hasText: 'Waiting' })).toHaveCount(0);
    // The readings make the chart's line; the site's power now is at least this charger's.
    await expect(chart.getByTestId('load-chart-line')).toBeVisible({ timeout: 20_000 });
    const nowKw = async () =>
      Number(/now ([\d,.]+) kW/.exec((await chart.getAttribute('aria-label')) ?? '')?.[1]?.replace(/,/g, ''));
    await expect.poll(nowKw, { timeout: 20_000 }).toBeGreaterThanOrEqual(DRAW_KW);
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
    await page.setViewportSize({ width: 1440, height: 900 });

    // The safe default it was sent at boot and its session's profile, both taken: its screen says so.
    expect(purposes()).toContain('TxDefaultProfile');
    await page.goto(`/charger/${chargerId}`);
    await expect(
      page.getByTestId('connection-info').locator('[data-profile-status="Accepted"]'),
    ).toBeVisible();
    await expect(page.getByLabel('Max power (kW)', { exact: true })).toHaveValue(CHARGER_LIMIT_KW);
    await page.getByTestId('connection-info').screenshot({
      path: path.join(SCREENSHOT_DIR, 'charger-power-profile.png'),
      animations: 'disabled',
    });
    await shootSection(page, 'Power', 'charger-power.png', 150);
  } finally {
    if (meters) clearInterval(meters);
    if (transaction) {
      await client
        .call('StopTransaction', {
          transactionId: transaction.id,
          meterStop: transaction.wh,
          timestamp: new Date().toISOString(),
          reason: 'Local',
        })
        .catch(() => undefined);
    }
    await client.close({ code: 1000, force: true }).catch(() => undefined);
    await request.patch(`/api/charger/${chargerId}`, { headers: staff, data: { active: false } });
    // Kept when its booking refers to it (409), inactive: no list counts it among the active ones.
    await request.delete(`/api/charger/${chargerId}`, { headers: staff });
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
