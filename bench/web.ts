/**
 * What the web app costs a browser on a slow line: loads `/login` cold in Debian's Chromium, signs in, then
 * opens `/charger` from the menu, and reports per step the bytes transferred (the DevTools protocol's
 * encoded lengths: what crossed the wire, headers included) against the same responses decoded (what the
 * server sent before it compressed anything: the baseline, measured in the same run), for JS+CSS and for
 * everything, plus the time to a usable screen on an emulated 10 Mbit/s line with 40 ms latency.
 *
 *   npm run bench:web        (builds the web app if stale; PGlite in memory)
 */
import path from 'node:path';
import { isJsOrCss, type Transfer as Response, recordTransfers } from '@ev/tools/transfer';
import { chromium, type Page } from 'playwright-core';
import { buildIfStale } from '../tools/build-if-stale.mjs';
import { BENCH_ADMIN as ADMIN, startInProcessServer } from './in-process-server.ts';

/** 10 Mbit/s down, 5 up, 40 ms: a site office on mobile data. */
const LINE = {
  offline: false,
  latency: 40,
  downloadThroughput: 10_000_000 / 8,
  uploadThroughput: 5_000_000 / 8,
};

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sum = (responses: Response[], key: 'encoded' | 'decoded') =>
  responses.reduce((total, response) => total + response[key], 0);

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
}

// WEB_DIST measures a build elsewhere as it is; otherwise apps/web/dist, rebuilt when its sources changed.
const webDist = process.env.WEB_DIST
  ? path.resolve(process.env.WEB_DIST)
  : path.resolve(import.meta.dirname, '../apps/web/dist');
if (!process.env.WEB_DIST) buildIfStale();
const server = await startInProcessServer({ webDist });
const { base } = server;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});

const rows: Array<{ step: string; responses: Response[]; ms: number }> = [];
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  await cdp.send('Network.emulateNetworkConditions', LINE);
  const record = recordTransfers(cdp);

  let start = Date.now();
  await page.goto(`${base}/login`);
  await page.getByRole('button', { name: 'Log in', exact: true }).waitFor();
  let ms = Date.now() - start;
  await settle(page);
  rows.push({ step: 'cold /login', responses: record.take(), ms });

  await page.getByLabel('Username', { exact: true }).fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.pass);
  start = Date.now();
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL(/\/user-detail$/);
  await page.getByRole('rowheader', { name: 'Email', exact: true }).waitFor();
  ms = Date.now() - start;
  await settle(page);
  rows.push({ step: 'sign in → /user-detail', responses: record.take(), ms });

  start = Date.now();
  const menu = page.getByTestId('sidebar-menu');
  await menu.getByText('Devices', { exact: true }).click();
  await menu.getByRole('link', { name: 'Charger', exact: true }).click();
  await page.waitForURL(/\/charger$/);
  await page.locator('.ant-table-tbody').waitFor();
  ms = Date.now() - start;
  await settle(page);
  rows.push({ step: 'menu → /charger', responses: record.take(), ms });
} finally {
  await browser.close();
  await server.close();
}

console.log(`Chromium, emulated line ${LINE.downloadThroughput * 8e-6} Mbit/s, ${LINE.latency} ms\n`);
console.log(
  '| step | requests | JS+CSS transferred | JS+CSS decoded (baseline) | ratio | all transferred | all decoded | ready |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const { step, responses, ms } of rows) {
  const code = responses.filter(isJsOrCss);
  const ratio = sum(code, 'decoded') ? sum(code, 'encoded') / sum(code, 'decoded') : 0;
  console.log(
    `| ${step} | ${responses.length} | ${kb(sum(code, 'encoded'))} | ${kb(sum(code, 'decoded'))} | ${ratio.toFixed(2)}x | ${kb(sum(responses, 'encoded'))} | ${kb(sum(responses, 'decoded'))} | ${ms} ms |`,
  );
}
for (const { step, responses } of rows) {
  console.log(`\n${step}:`);
  for (const response of responses
    .sort((a, b) => b.encoded - a.encoded)
    .slice(0, Number(process.env.BENCH_TOP ?? 8))) {
    console.log(
      `  ${kb(response.encoded).padStart(10)}  ${kb(response.decoded).padStart(10)}  ${response.url.replace(base, '')}`,
    );
  }
}
