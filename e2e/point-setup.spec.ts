import { formatThaiDateTime, POINT_MESSAGES } from '@ev/shared';
import { loginAs, notification, openAs } from './fixtures/auth.ts';
import { clickToClose, opened, rows, rowWith } from './fixtures/list.ts';
import { answerDiscard, modal, saveModal } from './fixtures/modal.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Locator, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/**
 * Point Setup (document 3; issue 21): the earn/redeem rate cards. The cards are shared state of the e2e server
 * (no other spec touches them; the demo's three are there from the start), so these tests run in order: a pending card is created and edited, a card
 * from the current minute is in force at once, the form's messages, then the pending card is deleted.
 */
test.describe.configure({ mode: 'default' });

const DAY = 24 * 3_600_000;
const BANGKOK_MS = 7 * 3_600_000;
/** An instant's Bangkok date and time as the picker takes it ('2026-11-26 17:30'). */
const wallClock = (ms: number) => new Date(ms + BANGKOK_MS).toISOString().slice(0, 16).replace('T', ' ');
/** The instant of a Bangkok date and time. */
const instantOf = (wall: string) => `${wall.replace(' ', 'T')}:00+07:00`;
/** The list's Effective Date and the card's name in its actions and confirmation. */
const shown = (wall: string) => formatThaiDateTime(instantOf(wall));
const nameOf = (wall: string) => `rate card of ${shown(wall)}`;

/** The pending card: it starts next year. */
const PENDING_AT = `${new Date().getUTCFullYear() + 1}-01-15 09:00`;

const openPage = async (page: Page) => {
  await openAs(page, ROLE_USERS.admin, '/point-setup');
  await expect(page.getByRole('heading', { name: 'Point Setup' })).toBeVisible();
};

/** One of the card's numbers: the Baht or Point field of the Earn or Redeem pair. */
const amount = (dialog: Locator, pair: 'Earn' | 'Redeem', label: 'Baht' | 'Point') =>
  dialog.getByRole('group', { name: pair }).getByLabel(new RegExp(`^(\\* )?${label}$`));
const dateField = (dialog: Locator) => dialog.getByLabel(/^(\* )?Effective Date$/);

/** Types a Bangkok date and time into the Effective Date picker and confirms it. */
async function pickDate(dialog: Locator, wall: string) {
  const input = dateField(dialog);
  await input.click();
  await input.fill(wall);
  await input.press('Enter');
  await expect(input).toHaveValue(wall);
}

interface Card {
  fromBaht: string;
  toPoint: string;
  fromPoint: string;
  toBaht: string;
  at: string;
}

async function openNew(page: Page) {
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const dialog = modal(page, 'New Rate Card');
  await opened(dialog);
  return dialog;
}

async function fillCard(dialog: Locator, card: Card) {
  await amount(dialog, 'Earn', 'Baht').fill(card.fromBaht);
  await amount(dialog, 'Earn', 'Point').fill(card.toPoint);
  await amount(dialog, 'Redeem', 'Point').fill(card.fromPoint);
  await amount(dialog, 'Redeem', 'Baht').fill(card.toBaht);
  await pickDate(dialog, card.at);
}

test('no cards: the list says so', async ({ page }) => {
  // The list answered empty, whatever cards the server holds.
  await page.route('**/api/point', (route) =>
    route.request().method() === 'GET' ? route.fulfill({ json: { points: [] } }) : route.continue(),
  );
  await openPage(page);
  await expect(page.getByText('No Data yet!', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New', exact: true })).toBeVisible();
});

test('a card starting next year is Pending, with Edit and Delete; Edit saves its new numbers', async ({
  page,
}) => {
  await openPage(page);
  const dialog = await openNew(page);
  await fillCard(dialog, { fromBaht: '25', toPoint: '1', fromPoint: '100', toBaht: '10', at: PENDING_AT });
  await saveModal(page, dialog, 'POST', '/api/point');
  await expect(dialog).toBeHidden();

  const row = rowWith(page, shown(PENDING_AT));
  await expect(row).toContainText('25.00 THB → 1.00 point(s)');
  await expect(row).toContainText('100.00 point(s) → 10.00 THB');
  await expect(row.locator('.ant-tag')).toHaveText('Pending');
  await expect(row.getByRole('button', { name: `Delete ${nameOf(PENDING_AT)}` })).toBeVisible();

  await row.getByRole('button', { name: `Edit ${nameOf(PENDING_AT)}` }).click();
  const edit = modal(page, 'Edit Rate Card');
  await opened(edit);
  await expect(amount(edit, 'Earn', 'Baht')).toHaveValue('25');
  await expect(amount(edit, 'Redeem', 'Point')).toHaveValue('100');
  await expect(dateField(edit)).toHaveValue(PENDING_AT);
  // Thousands separators while typing.
  await amount(edit, 'Earn', 'Baht').fill('1234.5');
  await expect(amount(edit, 'Earn', 'Baht')).toHaveValue('1,234.5');
  await amount(edit, 'Redeem', 'Point').fill('2500');
  await amount(edit, 'Redeem', 'Baht').fill('12.75');
  await saveModal(page, edit, 'PATCH', '/api/point/');
  await expect(edit).toBeHidden();
  await expect(row).toContainText('1,234.50 THB → 1.00 point(s)');
  await expect(row).toContainText('2,500.00 point(s) → 12.75 THB');
  await expect(row.locator('.ant-tag')).toHaveText('Pending');
});

test('a card from the current minute is in force at once: first, Active, without Edit or Delete', async ({
  page,
}) => {
  await openPage(page);
  // The demo's cards are there too: the count is taken before.
  await expect(rowWith(page, shown(PENDING_AT))).toBeVisible();
  const before = await rows(page).count();
  // The server takes a start up to a minute past. The current minute, picked in its first 40 seconds, is
  // less than a minute past when the save arrives.
  const seconds = new Date().getUTCSeconds();
  if (seconds >= 40) await page.waitForTimeout((60 - seconds) * 1000 + 200);
  const now = wallClock(Date.now());
  const dialog = await openNew(page);
  await fillCard(dialog, { fromBaht: '20', toPoint: '1', fromPoint: '50', toBaht: '5', at: now });
  await saveModal(page, dialog, 'POST', '/api/point');
  await expect(dialog).toBeHidden();

  // After a reload too: the server tells the statuses by its clock.
  await page.reload();
  await expect(rows(page)).toHaveCount(before + 1);
  const first = rows(page).first();
  await expect(first).toContainText(shown(now));
  await expect(first).toContainText('20.00 THB → 1.00 point(s)');
  await expect(first.locator('.ant-tag')).toHaveText('Active');
  await expect(first.getByRole('button')).toHaveCount(0);
  const pendingRow = rowWith(page, shown(PENDING_AT));
  await expect(pendingRow).toContainText(shown(PENDING_AT));
  await expect(pendingRow.locator('.ant-tag')).toHaveText('Pending');
  await expect(pendingRow.getByRole('button', { name: `Edit ${nameOf(PENDING_AT)}` })).toBeVisible();
  await shoot(page, 'point-setup.png');
});

test("the form's messages, earlier days disabled, and the server's refusal keeps the modal open", async ({
  page,
}) => {
  await openPage(page);
  const dialog = await openNew(page);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog.getByText(POINT_MESSAGES.baht, { exact: true })).toHaveCount(2);
  await expect(dialog.getByText(POINT_MESSAGES.point, { exact: true })).toHaveCount(2);
  await expect(dialog.getByText(POINT_MESSAGES.validFrom, { exact: true })).toBeVisible();

  await amount(dialog, 'Earn', 'Baht').fill('1.234');
  await expect(dialog.getByText(POINT_MESSAGES.bahtDecimals, { exact: true })).toBeVisible();
  await amount(dialog, 'Earn', 'Point').fill('12345678');
  await expect(amount(dialog, 'Earn', 'Point')).toHaveValue('12,345,678');
  await expect(dialog.getByText(POINT_MESSAGES.length, { exact: true })).toBeVisible();
  // A divider must be more than 0.
  await amount(dialog, 'Redeem', 'Point').fill('0');
  await expect(dialog.getByText(POINT_MESSAGES.pointPositive, { exact: true })).toBeVisible();

  // Earlier days are disabled in the picker; today is not.
  await dateField(dialog).click();
  const panel = dialog.page().locator('.ant-picker-dropdown:visible');
  const today = wallClock(Date.now()).slice(0, 10);
  const yesterday = wallClock(Date.now() - DAY).slice(0, 10);
  await expect(panel.locator(`td[title="${today}"]`)).not.toHaveClass(/ant-picker-cell-disabled/);
  // On a month's first day the panel may not show the day before: go back a month.
  if ((await panel.locator(`td[title="${yesterday}"]`).count()) === 0) {
    await panel.locator('.ant-picker-header-prev-btn').click();
  }
  await expect(panel.locator(`td[title="${yesterday}"]`)).toHaveClass(/ant-picker-cell-disabled/);
  await shoot(page, 'point-setup-modal.png');

  // Valid numbers at the pending card's start: the server refuses it (409), the modal stays with the message.
  await amount(dialog, 'Earn', 'Baht').fill('10');
  await amount(dialog, 'Earn', 'Point').fill('1');
  await amount(dialog, 'Redeem', 'Point').fill('100');
  await amount(dialog, 'Redeem', 'Baht').fill('10');
  await pickDate(dialog, PENDING_AT);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(notification(page, 'Something went wrong !')).toContainText(POINT_MESSAGES.sameInstant);
  await expect(dialog.getByText(POINT_MESSAGES.sameInstant, { exact: true })).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect(amount(dialog, 'Earn', 'Baht')).toBeEnabled();

  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await answerDiscard(page, 'Yes');
  await expect(dialog).toBeHidden();
});

test('Delete asks first, then the pending card goes; the active one stays', async ({ page }) => {
  await openPage(page);
  const name = nameOf(PENDING_AT);
  const row = rowWith(page, shown(PENDING_AT));
  await expect(row).toBeVisible();
  const before = await rows(page).count();
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: `Delete ${name}?` });
  await expect(confirm).toContainText(`Do you want to delete this ${name}?`);
  await clickToClose(confirm, confirm.getByRole('button', { name: 'Delete', exact: true }));
  await expect(notification(page, 'Deleted Successfully !')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(rows(page)).toHaveCount(before - 1);
  await expect(rows(page).first().locator('.ant-tag')).toHaveText('Active');
});

test('roles outside admin and marketting see the 403 page', async ({ page }) => {
  await loginAs(page, ROLE_USERS.callcenter);
  await expect(page.getByTestId('sidebar-menu')).not.toContainText('Point Setup');
  await page.goto('/point-setup');
  await expect(page.getByText('Sorry, you are not authorized to access this page.')).toBeVisible();
});
