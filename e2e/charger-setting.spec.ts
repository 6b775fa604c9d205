import { loginAs, openAs } from './fixtures/auth.ts';
import { chargerRow, connectorTable, expand, idFilter } from './fixtures/charger.ts';
import {
  answer,
  LEAVE_WARNING,
  pick,
  rangeText,
  saveForm,
  search,
  switchOffAndDelete,
} from './fixtures/list.ts';
import { choose } from './fixtures/modal.ts';
import { expect, type Locator, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

const form = (page: Page) => page.locator('.setting-form');
const field = (page: Page, label: string) => form(page).getByLabel(label, { exact: true });
const cards = (page: Page) => page.getByTestId('connector-row');
const addConnector = (page: Page) => page.getByRole('button', { name: 'Add Connector' }).click();
const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true }).click();
const password = (page: Page) => field(page, 'OCPP Password');
const message = (page: Page, text: string) => page.getByText(text, { exact: true });

/** Fills a connector card; `id` only where it can be typed (a row added in this edit). */
async function fillConnector(page: Page, card: Locator, id: number, type: string, price: string) {
  await card.getByLabel('Connector Id').fill(String(id));
  await card.getByLabel('Token').fill(`e2e-token-${id}`);
  await card.getByLabel('Connector Name (EN)').fill(`${type} ${id}`);
  await card.getByLabel('Connector Name (TH)').fill(`หัวชาร์จ ${type} ${id}`);
  await choose(page, card, 'Connector Type', type);
  await card.getByLabel('Charging Speed').fill('22.5');
  await choose(page, card, 'Price', price);
}

test.describe('as admin', () => {
  test.beforeEach(async ({ page }) => {
    await loginAs(page, ROLE_USERS.admin);
  });

  test('create a charger with two connectors, edit it (saved connectors stay), then delete it', async ({
    page,
  }) => {
    // A long story: create, reload, edit, reload, delete.
    test.slow();
    const stamp = Date.now();
    const id = `E2E-${stamp}`;
    const name = `E2E Charger ${stamp}`;
    // Connector ids are global: unique to this run.
    const base = Number(String(stamp).slice(-8));
    await page.goto(`/charger?id=${id}`);
    await page.getByRole('button', { name: 'New Charger' }).click();
    await expect(page).toHaveURL(/\/charger\/new$/);
    await expect(page.getByRole('heading', { name: 'Charger Setting' })).toBeVisible();
    await expect(page.getByTestId('connection-info')).toHaveCount(0);

    await save(page);
    // The spec reuses the name's text for the id.
    await expect(message(page, 'Charger Name (EN) is required.')).toHaveCount(2);
    await expect(message(page, 'Charger Name (TH) is required.')).toBeVisible();
    await expect(message(page, 'Site Name is required.')).toBeVisible();
    await expect(message(page, 'Charger Brand is required.')).toBeVisible();

    await field(page, 'Charger Id').fill(id);
    await field(page, 'Charger Name (EN)').fill(name);
    await field(page, 'Charger Name (TH)').fill(`ตู้ชาร์จ ${stamp}`);
    await pick(page, 'Charger Brand', 'Delta DC Wallbox (25.00 kW)');
    // Not in a place whose chargers another spec counts (Metro Plaza, Siam Square Parking B2).
    await pick(page, 'Cluster Name', 'Chao Phraya University of Technology');
    await pick(page, 'Site Name', 'Rangsit Campus Dormitory Zone');
    await password(page).fill('too short');
    await expect(
      message(page, 'OCPP Password must be 16 to 40 printable characters without spaces.'),
    ).toBeVisible();
    await password(page).fill('e2e-ocpp-password-1');

    await addConnector(page);
    await addConnector(page);
    await expect(cards(page)).toHaveCount(2);
    await save(page);
    for (const text of [
      'Connector ID is required.',
      'Token is required.',
      'Connector Name (EN) is required.',
      'Connector Type is required.',
      'Charging Speed is required.',
      'Price Code is required.',
    ]) {
      await expect(message(page, text)).toHaveCount(2);
    }
    await fillConnector(page, cards(page).nth(0), base, 'CCS2', 'DC Fast Charge (7.50 Baht/kWh)');
    await fillConnector(
      page,
      cards(page).nth(1),
      base,
      'Type 2',
      'AC Pay per Minute (45.00 Baht/hr, billed per minute)',
    );
    await cards(page).nth(1).getByLabel('Judjod Id').fill('77');
    await save(page);
    await expect(message(page, 'Connector IDs must be unique.')).toBeVisible();
    await cards(page)
      .nth(1)
      .getByLabel('Connector Id')
      .fill(String(base + 1));
    await saveForm(page);
    await expect(page).toHaveURL(new RegExp(`/charger\\?id=${id}$`));

    await expect(rangeText(page)).toHaveText('1-1 of 1');
    await expand(page, id);
    await expect(connectorTable(page, id).locator('tr.ant-table-row')).toHaveCount(2);
    await expect(connectorTable(page, id)).toContainText('22.50');
    await expect(
      connectorTable(page, id).getByRole('button', { name: `Open blocker ${base + 1}` }),
    ).toBeEnabled();
    await expect(
      connectorTable(page, id).getByRole('button', { name: `Open blocker ${base}` }),
    ).toBeDisabled();

    await chargerRow(page, id).getByRole('button', { name: 'View' }).click();
    await expect(field(page, 'Charger Id')).toHaveValue(id);
    await expect(field(page, 'Charger Id')).toBeDisabled();
    await expect(page.getByTestId('connection-info')).toContainText('Offline');
    await expect(password(page)).toHaveAttribute('placeholder', 'A password is set: leave empty to keep it');
    // Saved connectors: their id is fixed and they cannot be removed.
    await expect(cards(page)).toHaveCount(2);
    for (const card of await cards(page).all()) {
      await expect(card.getByLabel('Connector Id')).toBeDisabled();
      await expect(card.getByRole('button', { name: /^Remove connector/ })).toHaveCount(0);
    }
    await expect(cards(page).nth(0).getByLabel('Connector Id')).toHaveValue(String(base));
    await expect(cards(page).nth(1).getByLabel('Judjod Id')).toHaveValue('77');

    // A row added in this edit can be removed, and its id typed.
    await addConnector(page);
    await expect(cards(page)).toHaveCount(3);
    await expect(cards(page).nth(2).getByLabel('Connector Id')).toBeEnabled();
    await cards(page).nth(2).getByRole('button', { name: 'Remove connector 3' }).click();
    await expect(cards(page)).toHaveCount(2);
    await addConnector(page);
    await fillConnector(page, cards(page).nth(2), base + 2, 'CHAdeMO', 'DC Fast Charge (7.50 Baht/kWh)');
    await field(page, 'Charger Name (EN)').fill(`${name} edited`);
    await form(page)
      .getByRole('checkbox', { name: /Remove password/ })
      .check();
    await expect(password(page)).toBeDisabled();
    await saveForm(page);

    await chargerRow(page, id).getByRole('button', { name: 'View' }).click();
    await expect(field(page, 'Charger Name (EN)')).toHaveValue(`${name} edited`);
    await expect(cards(page)).toHaveCount(3);
    await expect(cards(page).nth(2).getByLabel('Connector Id')).toBeDisabled();
    await expect(cards(page).nth(2).getByLabel('Connector Name (EN)')).toHaveValue(`CHAdeMO ${base + 2}`);
    await expect(password(page)).toHaveAttribute('placeholder', 'No password is set: leave empty for none');
    await expect(form(page).getByRole('checkbox', { name: /Remove password/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();

    await expect(page).toHaveURL(new RegExp(`/charger\\?id=${id}$`));
    await switchOffAndDelete(page, `${name} edited`);
  });

  test('leaving a changed charger form warns first', async ({ page }) => {
    await page.goto('/charger');
    await idFilter(page).fill('TH-MP-SIAMSQUAREB2-01');
    await search(page);
    await chargerRow(page, 'TH-MP-SIAMSQUAREB2-01').getByRole('button', { name: 'View' }).click();
    await expect(field(page, 'Charger Name (EN)')).toHaveValue('Siam Square Parking B2 – DC 01');
    // Adding a connector row is a change too.
    await addConnector(page);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const warning = page.getByRole('dialog').filter({ hasText: LEAVE_WARNING });
    await answer(warning, 'No');
    await expect(page).toHaveURL(/\/charger\/TH-MP-SIAMSQUAREB2-01$/);
    await expect(cards(page)).toHaveCount(3);

    await page.getByTestId('sidebar-menu').getByText('Charger Brand').click();
    await answer(warning, 'Yes');
    await expect(page).toHaveURL(/\/charger-brand$/);
  });
});

test('a site user creates into its own site: no cluster or site field', async ({ page }) => {
  await openAs(page, ROLE_USERS.landlord, '/charger/new');
  await expect(page.getByRole('heading', { name: 'Charger Setting' })).toBeVisible();
  await expect(field(page, 'Charger Name (EN)')).toBeVisible();
  await expect(page.getByRole('combobox', { name: /Cluster Name|Site Name/ })).toHaveCount(0);
  await page.goto('/charger/TH-MP-SIAMSQUAREB2-01');
  await expect(field(page, 'Site Name')).toHaveValue('Siam Square Parking B2');
  await expect(field(page, 'Site Name')).toBeDisabled();
  await page.goto('/charger/TH-TW-RAYONG-02');
  await expect(page.getByText("Sorry, this page can't be found.")).toBeVisible();
});
