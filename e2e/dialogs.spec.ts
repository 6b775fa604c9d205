import { loginAs, openAs } from './fixtures/auth.ts';
import { expand } from './fixtures/charger.ts';
import { answer, clickToClose, LEAVE_WARNING, opened, rangeText } from './fixtures/list.ts';
import { discardConfirm, modal } from './fixtures/modal.ts';
import { expect, type Locator, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/** Where this spec's own pictures go (looked at by hand; the acceptance set is screenshots.spec.ts). */
const SHOTS = process.env.DIALOG_SHOTS;
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}`, animations: 'disabled' });
};

/** The rendered width of an open dialog (antd's .ant-modal carries role=dialog), once it has zoomed in. */
async function dialogWidth(dialog: Locator) {
  await opened(dialog);
  return (await dialog.boundingBox())?.width ?? 0;
}

/** The dialog is `percent` of the viewport's width, to a pixel. */
async function expectWidth(page: Page, dialog: Locator, percent: number) {
  const viewport = page.viewportSize()?.width ?? 0;
  expect(Math.abs((await dialogWidth(dialog)) - (viewport * percent) / 100)).toBeLessThanOrEqual(1);
}

// Document 2: modals 95% up to 1000 px, 65% above; document 1: the name modal 70%/40%, the password modal
// 85%/50% (docs/decisions.md).
for (const { width, height, wide } of [
  { width: 1440, height: 900, wide: true },
  { width: 1000, height: 800, wide: false },
]) {
  test.describe(`modal widths at ${width} px`, () => {
    test.use({ viewport: { width, height } });
    const docTwo = wide ? 65 : 95;

    test('the QR, Hard Reset All, Config All and Batch History dialogs', async ({ page }) => {
      await openAs(page, ROLE_USERS.admin, '/charger?id=TH-CU-DORM-01');
      await expand(page, 'TH-CU-DORM-01');
      await page.getByRole('button', { name: 'QR 10172' }).click();
      const qr = modal(page, 'QR Code');
      await expectWidth(page, qr, docTwo);
      await shot(page, `qr-${width}.png`);
      await clickToClose(qr, qr.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }));

      for (const title of ['Hard Reset All', 'Config All', 'Batch History']) {
        // A button with an icon is named after it too ('history Batch History').
        await page.getByRole('button', { name: new RegExp(`${title}$`) }).click();
        const dialog = modal(page, title);
        await expectWidth(page, dialog, docTwo);
        const close = dialog
          .locator('.ant-modal-footer')
          .getByRole('button', { name: title === 'Batch History' ? 'Close' : 'Cancel' });
        await clickToClose(dialog, close);
      }
    });

    test('the name and password modals', async ({ page }) => {
      await openAs(page, ROLE_USERS.admin, '/user-detail');
      await page.getByRole('button', { name: 'Edit Name-Surname', exact: true }).click();
      const name = page.getByRole('dialog', { name: 'Edit Name-Surname', exact: true });
      await expectWidth(page, name, wide ? 40 : 70);
      await clickToClose(name, name.getByRole('button', { name: 'Cancel', exact: true }));

      await page.getByRole('button', { name: 'Edit Password', exact: true }).click();
      const password = page.getByRole('dialog', { name: 'Change Password', exact: true });
      await expectWidth(page, password, wide ? 50 : 85);
      await shot(page, `password-${width}.png`);
      await clickToClose(password, password.getByRole('button', { name: 'Cancel', exact: true }));
    });
  });
}

/** The answers a confirmation offers, in order. */
const answers = (dialog: Locator) => dialog.getByRole('button').allTextContents();

test('the leave warning and Discard changes answer alike: No and Yes', async ({ page }) => {
  await openAs(page, ROLE_USERS.admin, '/user-detail');
  await page.getByRole('button', { name: 'Edit Name-Surname', exact: true }).click();
  const name = page.getByRole('dialog', { name: 'Edit Name-Surname', exact: true });
  await opened(name);
  await name.getByLabel('Name', { exact: true }).fill('Somchai');
  await name.getByRole('button', { name: 'Cancel', exact: true }).click();
  const discard = discardConfirm(page);
  await expect(discard).toContainText(LEAVE_WARNING);
  await opened(discard);
  expect(await answers(discard)).toEqual(['No', 'Yes']);
  await answer(discard, 'Yes');
  await expect(name).toBeHidden();

  await page.goto('/price/new');
  await page.getByLabel('Description (EN)', { exact: true }).fill('Changed');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  const leave = page.getByRole('dialog').filter({ hasText: LEAVE_WARNING });
  await opened(leave);
  expect(await answers(leave)).toEqual(['No', 'Yes']);
  await answer(leave, 'No');
  await expect(page).toHaveURL(/\/price\/new$/);
});

test.describe('the site map', () => {
  const map = (page: Page) => page.locator('.map-picker .leaflet-container');
  const notice = (page: Page) => page.locator('.map-picker').getByRole('status');
  const credit = (page: Page) => page.locator('.map-picker .leaflet-control-attribution');
  const latitude = (page: Page) => page.getByLabel('Latitude', { exact: true });
  const longitude = (page: Page) => page.getByLabel('Longitude', { exact: true });
  // A 1 x 1 PNG: a tile that loads.
  const TILE = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  const TILE_CONFIG = { mapTileUrl: '/e2e-tiles/{z}/{x}/{y}.png', mapAttribution: '© E2E Tiles' };

  async function clickMap(page: Page) {
    const box = await map(page).boundingBox();
    if (!box) throw new Error('The map is not on the page');
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  }

  test.beforeEach(async ({ page }) => {
    await loginAs(page, ROLE_USERS.admin);
  });

  test('with no tiles (none configured here) the map says so, and a click still sets the point', async ({
    page,
  }) => {
    await page.goto('/landlord/new');
    await expect(notice(page)).toHaveText(
      'Map tiles are unavailable: the pin and the coordinates still work.',
    );
    await expect(credit(page)).toHaveCount(0);
    await expect(latitude(page)).toHaveValue('');
    // The notice lies over the map's top; a click anywhere, even on it, reaches the map.
    await clickMap(page);
    await expect(latitude(page)).toHaveValue(/^13\.\d+$/);
    await expect(longitude(page)).toHaveValue(/^100\.\d+$/);
    await expect(page.locator('.map-picker-pin')).toBeVisible();
    const first = await latitude(page).inputValue();
    const box = await notice(page).boundingBox();
    if (!box) throw new Error('The notice is not on the page');
    await page.mouse.click(box.x + 10, box.y + box.height / 2);
    await expect(latitude(page)).not.toHaveValue(first);
    await shot(page, 'map-no-tiles.png');
  });

  test('the tile credit shows when the site form is the first page and the settings answer late', async ({
    page,
  }) => {
    let answerConfig = () => {};
    const configAsked = new Promise<void>((resolve) => {
      answerConfig = resolve;
    });
    await page.route('**/api/app-config', async (route) => {
      await configAsked;
      await route.fulfill({ json: TILE_CONFIG });
    });
    await page.route('**/e2e-tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: TILE }));
    await page.goto('/landlord/new');
    // The map is drawn before the settings answer.
    await expect(map(page)).toBeVisible();
    answerConfig();
    await expect(credit(page)).toContainText('© E2E Tiles');
    await expect(page.locator('.map-picker .leaflet-tile-loaded').first()).toBeAttached();
    await expect(notice(page)).toHaveCount(0);
  });

  test('tiles that fail to load bring the notice; the point is still set by a click', async ({ page }) => {
    await page.route('**/api/app-config', (route) => route.fulfill({ json: TILE_CONFIG }));
    await page.route('**/e2e-tiles/**', (route) => route.abort());
    await page.goto('/landlord/new');
    await expect(notice(page)).toBeVisible();
    await expect(credit(page)).toContainText('© E2E Tiles');
    await clickMap(page);
    await expect(latitude(page)).toHaveValue(/^13\.\d+$/);
  });
});

interface Sample {
  count: string;
  /** The bar's drawn width as a share of its rail. */
  bar: number;
  closeDisabled: boolean | null;
  closeColor: string | null;
}

/**
 * Replaces the batch stream with one the test writes to (`window.__batch.push(text)` / `.end()`), so each
 * event arrives on its own, and records what the dialog shows after every change of its DOM: the count, the
 * bar's drawn width and the Close button. A MutationObserver runs before the next frame is drawn, so a bar
 * still easing toward the count, or a button still fading in, is seen as it is drawn.
 */
async function controlTheStream(page: Page) {
  await page.addInitScript(() => {
    const original = window.fetch;
    const scope = window as unknown as Record<string, unknown>;
    window.fetch = (input, init) => {
      if (!String(input instanceof Request ? input.url : input).includes('/api/charger/batch/hard-reset'))
        return original(input, init);
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          scope.__batch = {
            push: (text: string) => controller.enqueue(encoder.encode(text)),
            end: () => controller.close(),
          };
        },
      });
      return Promise.resolve(
        new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
      );
    };
    const samples: Sample[] = [];
    scope.__samples = samples;
    new MutationObserver(() => {
      const progress = document.querySelector('[data-testid="batch-progress"]');
      if (!progress) return;
      const rail = progress.querySelector('.ant-progress-rail')?.getBoundingClientRect().width ?? 0;
      const track = progress.querySelector('.ant-progress-track')?.getBoundingClientRect().width ?? 0;
      const close = [...document.querySelectorAll<HTMLButtonElement>('.ant-modal-footer button')].find(
        (button) => button.textContent === 'Close',
      );
      const sample: Sample = {
        count: progress.querySelector('h3')?.textContent ?? '',
        bar: rail ? track / rail : 0,
        closeDisabled: close ? close.disabled : null,
        closeColor: close ? getComputedStyle(close).backgroundColor : null,
      };
      const last = samples.at(-1);
      if (JSON.stringify(last) !== JSON.stringify(sample)) samples.push(sample);
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

const push = (page: Page, text: string) =>
  page.evaluate(
    (chunk) => (window as unknown as { __batch: { push(t: string): void } }).__batch.push(chunk),
    text,
  );
const update = (id: string, result: string) => `event: update\ndata: {"id":"${id}","result":"${result}"}\n\n`;
const RESULTS = [
  'Accepted',
  'Accepted',
  'Accepted',
  'Offline',
  'Accepted',
  'Timeout',
  'Accepted',
  'Rejected',
];

test('batch progress counts each result as it arrives, the bar drawn from the same count; Close is enabled at once', async ({
  page,
}) => {
  await controlTheStream(page);
  await openAs(page, ROLE_USERS.admin, '/charger');
  await expect(rangeText(page)).toHaveText(/of \d+$/);
  await page.getByRole('button', { name: /Hard Reset All$/ }).click();
  const dialog = modal(page, 'Hard Reset All');
  await opened(dialog);
  await dialog.getByLabel('Token').fill('any');
  await dialog.getByRole('button', { name: 'Run' }).click();
  // Away from the footer: Close, where Run was, would take its hover colours.
  await page.mouse.move(0, 0);
  const count = dialog.getByTestId('batch-progress').getByRole('heading');
  await expect(count).toHaveText('0 / …');

  const total = 142;
  await push(page, `event: size\ndata: ${total}\n\n`);
  await expect(count).toHaveText(`0 / ${total}`);
  // Results one by one, then some together, as the server writes what came in the same tick.
  for (let n = 1; n <= 3; n++) {
    await push(page, update(`TH-E2E-${n}`, RESULTS[n % RESULTS.length]!));
    await expect(count).toHaveText(`${n} / ${total}`);
  }
  let sent = 3;
  while (sent < 60) {
    let chunk = '';
    for (let i = 0; i < 19; i++) chunk += update(`TH-E2E-${++sent}`, RESULTS[sent % RESULTS.length]!);
    await push(page, chunk);
    await expect(count).toHaveText(`${sent} / ${total}`);
  }
  await shot(page, 'batch-mid-run.png');
  let rest = '';
  while (sent < total) rest += update(`TH-E2E-${++sent}`, RESULTS[sent % RESULTS.length]!);
  const download = page.waitForEvent('download');
  await push(page, rest);
  await page.evaluate(() => (window as unknown as { __batch: { end(): void } }).__batch.end());
  await expect(count).toHaveText(`${total} / ${total}`);
  await download;
  const close = dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' });
  await expect(close).toBeEnabled();
  await shot(page, 'batch-finished.png');

  const samples = await page.evaluate(() => (window as unknown as { __samples: Sample[] }).__samples);
  const counted = samples.filter((sample) => /^\d+ \/ \d+$/.test(sample.count));
  // Every count on its way was shown: 0, 1, 2, 3, 22, 41, 60, 142.
  const shown = [...new Set(counted.map((sample) => Number(sample.count.split(' / ')[0])))];
  expect(shown).toEqual([0, 1, 2, 3, 22, 41, 60, total]);
  // Whenever a count was drawn, the bar stood where it says (to a pixel of its ~800 px rail).
  for (const sample of counted) {
    const [done, of] = sample.count.split(' / ').map(Number) as [number, number];
    expect(sample.bar, `the bar beside '${sample.count}'`).toBeCloseTo(done / of, 2);
  }
  // The first time Close was enabled it already had the colours it keeps.
  const firstEnabled = samples.find((sample) => sample.closeDisabled === false);
  const finalColor = await close.evaluate((button) => getComputedStyle(button).backgroundColor);
  expect(firstEnabled?.closeColor).toBe(finalColor);
  await close.click();
  await expect(dialog).toBeHidden();
});
