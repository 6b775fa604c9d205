import { PROMOTION_MESSAGES } from '@ev/shared';
import { loginAs } from './fixtures/auth.ts';
import { BOOKINGS } from './fixtures/bookings.ts';
import { answer, LEAVE_WARNING, opened, rangeText, rows, rowWith, search } from './fixtures/list.ts';
import { answerDiscard, choose, field as dialogField, modal } from './fixtures/modal.ts';
import { expect, type Locator, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/**
 * A typed number is never silently changed (issue 31): in every form, a number out of its range keeps what
 * was typed, shows the rule's message under its field, and Save sends nothing. Each case changes one field of
 * an otherwise valid form, so that field alone is what Save refuses. No test saves: the records stay as the
 * demo made them.
 */

test.beforeEach(async ({ page }) => {
  await loginAs(page, ROLE_USERS.admin);
});

/** Every write (POST, PATCH, PUT, DELETE) the page sends to the API from now on. */
function watchWrites(page: Page) {
  const writes: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/') && request.method() !== 'GET')
      writes.push(`${request.method()} ${pathname}`);
  });
  return writes;
}

/** The form item holding an input: its own message shows there. */
const itemOf = (input: Locator) =>
  input.locator(
    'xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " ant-form-item ")][1]',
  );

interface Case {
  input: Locator;
  typed: string;
  /** The input's text: the typed text, with the field's thousands separators where it has them. */
  shown?: string;
  message: string;
  /** A valid value put back afterwards, so the next case is alone in being out of range. */
  valid: string;
}

/**
 * Types the number and leaves the field: the message shows under it and the input keeps the text; Save keeps
 * both and stays on the form. Then the valid value goes back and the message goes.
 */
async function refused(save: Locator, { input, typed, shown = typed, message, valid }: Case) {
  const error = itemOf(input).locator('.ant-form-item-explain-error');
  await input.fill(typed);
  await input.blur();
  await expect(input).toHaveValue(shown);
  await expect(error).toHaveText(message);
  await save.click();
  await expect(error).toHaveText(message);
  await expect(input).toHaveValue(shown);
  await input.fill(valid);
  await input.blur();
  await expect(error).toHaveCount(0);
}

/** Leaves a setting page without saving (the leave warning, then the list). */
async function leavePage(page: Page, list: RegExp) {
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  const warning = page.getByRole('dialog').filter({ hasText: LEAVE_WARNING });
  await opened(warning);
  await answer(warning, 'Yes');
  await expect(page).toHaveURL(list);
}

/** Closes a dialog without saving (the discard confirmation). */
async function closeDialog(page: Page, dialog: Locator) {
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await answerDiscard(page, 'Yes');
  await expect(dialog).toBeHidden();
}

const field = (page: Page, label: string) => page.locator('.setting-form').getByLabel(label, { exact: true });
const saveButton = (scope: Page | Locator) => scope.getByRole('button', { name: 'Save', exact: true });

let n = 0;
const fresh = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${n++}`;

/** The fields every promotion type has, valid. */
async function fillPromotion(page: Page, code: string) {
  await field(page, 'Code').fill(code);
  await field(page, 'Promotion Name (EN)').fill(`Range ${code}`);
  await field(page, 'Promotion Name (TH)').fill(`ช่วง ${code}`);
  for (const [label, value] of [
    ['Start Date', '2026-12-01 00:00'],
    ['End Date', '2027-01-31 23:59'],
  ] as const) {
    await field(page, label).click();
    await field(page, label).fill(value);
    await page.keyboard.press('Enter');
    await expect(field(page, label)).toHaveValue(value);
  }
  await page.getByText('Show', { exact: true }).click();
}

/** The code is nowhere in the list: nothing was saved. */
async function noPromotion(page: Page, code: string) {
  await expect(page.getByRole('button', { name: 'New Promotion' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Code' }).fill(code);
  await search(page);
  await expect(page).toHaveURL(new RegExp(`code=${code}`));
  await expect(page.getByText('No Data yet!')).toBeVisible();
}

test("Number of code 0 and 1001 say 'Number of code must be between 1-1000', stay as typed and save nothing", async ({
  page,
}) => {
  const code = fresh('RANGE');
  await page.goto('/promotion/discount/new');
  await expect(page.getByRole('heading', { name: 'Promotion Code Setting' })).toBeVisible();
  await fillPromotion(page, code);
  await page.getByText('Public', { exact: true }).click();
  await field(page, 'Discount (%)').fill('10');
  await field(page, 'Discount (THB)').fill('50');
  const writes = watchWrites(page);
  const save = saveButton(page);
  const count = field(page, 'Number of code');
  for (const typed of ['0', '1001']) {
    await refused(save, { input: count, typed, message: PROMOTION_MESSAGES.count, valid: '1' });
  }
  await refused(save, {
    input: field(page, 'Usage per code'),
    typed: '0',
    message: PROMOTION_MESSAGES.total,
    valid: '',
  });
  for (const typed of ['101', '-1']) {
    await refused(save, {
      input: field(page, 'Discount (%)'),
      typed,
      message: PROMOTION_MESSAGES.discountPercentRange,
      valid: '10',
    });
  }
  await refused(save, {
    input: field(page, 'Discount (THB)'),
    typed: '-1',
    message: 'Discount (THB) must be 0 or more.',
    valid: '50',
  });
  await leavePage(page, /\/promotion\/discount(\?|$)/);
  expect(writes).toEqual([]);
  await noPromotion(page, code);
});

test("a point code's Point below 0 stays as typed and saves nothing", async ({ page }) => {
  const code = fresh('RANGEPT');
  await page.goto('/promotion/point/new');
  await expect(page.getByRole('heading', { name: 'Point Code Setting' })).toBeVisible();
  await fillPromotion(page, code);
  await field(page, 'Point').fill('20');
  const writes = watchWrites(page);
  await refused(saveButton(page), {
    input: field(page, 'Point'),
    typed: '-5',
    message: 'Point must be 0 or more.',
    valid: '20',
  });
  await leavePage(page, /\/promotion\/point(\?|$)/);
  expect(writes).toEqual([]);
  await noPromotion(page, code);
});

test('the rate card: each number below its least stays as typed and saves nothing', async ({ page }) => {
  await page.goto('/point-setup');
  await expect(page.getByRole('heading', { name: 'Point Setup' })).toBeVisible();
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const dialog = modal(page, 'New Rate Card');
  await opened(dialog);
  const amount = (pair: 'Earn' | 'Redeem', label: 'Baht' | 'Point') =>
    dialog.getByRole('group', { name: pair }).getByLabel(new RegExp(`^(\\* )?${label}$`));
  await amount('Earn', 'Baht').fill('25');
  await amount('Earn', 'Point').fill('1');
  await amount('Redeem', 'Point').fill('100');
  await amount('Redeem', 'Baht').fill('10');
  const date = dialog.getByLabel(/^(\* )?Effective Date$/);
  await date.click();
  await date.fill(`${new Date().getUTCFullYear() + 2}-03-01 09:00`);
  await date.press('Enter');
  const writes = watchWrites(page);
  const save = saveButton(dialog);
  await refused(save, {
    input: amount('Earn', 'Baht'),
    typed: '-5',
    message: 'Baht must be more than 0.',
    valid: '25',
  });
  await refused(save, {
    input: amount('Earn', 'Point'),
    typed: '-5',
    message: 'Point must be 0 or more.',
    valid: '1',
  });
  await refused(save, {
    input: amount('Redeem', 'Point'),
    typed: '-1000',
    shown: '-1,000',
    message: 'Point must be more than 0.',
    valid: '100',
  });
  await refused(save, {
    input: amount('Redeem', 'Baht'),
    typed: '-5',
    message: 'Baht must be 0 or more.',
    valid: '10',
  });
  await closeDialog(page, dialog);
  expect(writes).toEqual([]);
});

test("a price plan's rates, fees and delay below 0 stay as typed and save nothing", async ({ page }) => {
  // The demo's hourly plan: Baht/hr and its override rows' Baht/hr are open, Baht/kWh is fixed at 0.
  await page.goto('/price');
  await rowWith(page, 'AC Normal Charge – hourly').getByRole('button', { name: 'View' }).click();
  await expect(field(page, 'Baht/hr')).toHaveValue('40');
  const writes = watchWrites(page);
  const save = saveButton(page);
  const cases: Array<[Locator, string]> = [
    [field(page, 'Baht/hr'), 'Baht/hr'],
    [field(page, 'Extracharger fee (Baht/min)'), 'Extracharger fee (Baht/min)'],
    [field(page, 'Penalty fee (Baht/min)'), 'Penalty fee (Baht/min)'],
    [field(page, 'Penalty delay (min)'), 'Penalty delay (min)'],
    [page.getByLabel('Weekday 1 Baht/hr'), 'Baht/hr'],
    [page.getByLabel('Dated 1 Baht/hr'), 'Baht/hr'],
  ];
  for (const [input, label] of cases) {
    const valid = await input.inputValue();
    await refused(save, { input, typed: '-1', message: `${label} must be 0 or more.`, valid });
  }
  await leavePage(page, /\/price(\?|$)/);
  expect(writes).toEqual([]);
});

test('a charger brand: Min Power 0 and past its largest stays as typed and saves nothing', async ({
  page,
}) => {
  await page.goto('/charger-brand');
  await rowWith(page, 'ABB Terra 184').getByRole('button', { name: 'View' }).click();
  const minPower = field(page, 'Min Power');
  await expect(minPower).toHaveValue('50');
  const writes = watchWrites(page);
  const save = saveButton(page);
  await refused(save, {
    input: minPower,
    typed: '0',
    message: 'Min Power must be at least 0.01.',
    valid: '50',
  });
  await refused(save, {
    input: minPower,
    typed: '10000000',
    shown: '10,000,000',
    message: 'Min Power must be at most 9,999,999.99.',
    valid: '50',
  });
  await leavePage(page, /\/charger-brand(\?|$)/);
  expect(writes).toEqual([]);
});

test("a charger's connectors: Connector Id, Judjod Id and Charging Speed out of range save nothing", async ({
  page,
}) => {
  await page.goto('/charger/TH-MP-ASOK-04');
  await expect(page.getByRole('heading', { name: 'Charger Setting' })).toBeVisible();
  const cards = page.getByTestId('connector-row');
  const saved = cards.first();
  await expect(saved.getByLabel('Charging Speed')).not.toHaveValue('');
  const writes = watchWrites(page);
  const save = saveButton(page);
  const speed = await saved.getByLabel('Charging Speed').inputValue();
  await refused(save, {
    input: saved.getByLabel('Charging Speed'),
    typed: '0',
    message: 'Charging Speed must be at least 0.01.',
    valid: speed,
  });
  await refused(save, {
    input: saved.getByLabel('Judjod Id'),
    typed: '-1',
    message: 'Judjod Id must be a whole number of 0 or more.',
    valid: await saved.getByLabel('Judjod Id').inputValue(),
  });
  // A connector added in this edit, complete but for its id.
  const before = await cards.count();
  await page.getByRole('button', { name: 'Add Connector' }).click();
  const added = cards.nth(before);
  await added.getByLabel('Token').fill('e2e-range-token');
  await added.getByLabel('Connector Name (EN)').fill('Range check');
  await added.getByLabel('Connector Name (TH)').fill('ตรวจช่วง');
  await choose(page, added, 'Connector Type', 'CCS2');
  await added.getByLabel('Charging Speed').fill('22');
  await choose(page, added, 'Price', 'DC Fast Charge (7.50 Baht/kWh)');
  await refused(save, {
    input: added.getByLabel('Connector Id'),
    typed: '0',
    message: 'Connector ID must be a whole number of 1 or more.',
    valid: '1',
  });
  await leavePage(page, /\/charger(\?|$)/);
  expect(writes).toEqual([]);
});

test("a site's latitude and longitude past the globe stay as typed and save nothing", async ({ page }) => {
  await page.goto('/landlord?size=1');
  await rows(page).first().getByRole('button', { name: 'View' }).click();
  const latitude = field(page, 'Latitude');
  await expect(latitude).not.toHaveValue('');
  const writes = watchWrites(page);
  const save = saveButton(page);
  const lat = await latitude.inputValue();
  const lng = await field(page, 'Longitude').inputValue();
  await refused(save, {
    input: latitude,
    typed: '91',
    message: 'Latitude must be between -90 and 90.',
    valid: lat,
  });
  await refused(save, {
    input: field(page, 'Longitude'),
    typed: '-181',
    message: 'Longitude must be between -180 and 180.',
    valid: lng,
  });
  // The Power section (issue 34): empty is no limit, a typed one is never rounded nor moved into range.
  const maxPower = field(page, 'Max power (kW)');
  const limit = await maxPower.inputValue();
  for (const [typed, message] of [
    ['0', 'Max power (kW) must be greater than 0.'],
    ['12.345', 'Max power (kW) must have at most 2 decimals.'],
    ['100001', 'Max power (kW) must be at most 100,000.'],
  ] as const) {
    await refused(save, { input: maxPower, typed, message, valid: limit });
  }
  const voltage = field(page, 'Voltage (V)');
  const volts = await voltage.inputValue();
  await refused(save, {
    input: voltage,
    typed: '99',
    message: 'Voltage (V) must be a whole number from 100 to 1000.',
    valid: volts,
  });
  await leavePage(page, /\/landlord(\?|$)/);
  expect(writes).toEqual([]);
});

test('Refund: an amount of 0 or past what was paid stays as typed and refunds nothing', async ({ page }) => {
  const { invoiceNo } = BOOKINGS.refundRange.payment;
  await page.goto(`/charging-payment?invoiceNo=${invoiceNo}`);
  await expect(rangeText(page)).toHaveText('1-1 of 1');
  await rowWith(page, invoiceNo)
    .getByRole('button', { name: `Refund ${invoiceNo}` })
    .click();
  const dialog = modal(page, `Refund ${invoiceNo}`);
  await opened(dialog);
  const amount = dialogField(dialog, 'Amount');
  await expect(amount).toHaveValue('100');
  const writes = watchWrites(page);
  const save = saveButton(dialog);
  await refused(save, { input: amount, typed: '0', message: 'must be more than 0', valid: '100' });
  await refused(save, {
    input: amount,
    typed: '100.01',
    message: 'must be at most the 100.00 THB paid',
    valid: '100',
  });
  await closeDialog(page, dialog);
  expect(writes).toEqual([]);
  await expect(rowWith(page, invoiceNo).getByRole('button', { name: `Refund ${invoiceNo}` })).toBeEnabled();
});

test('Set amount: an amount or a part below 0 stays as typed and sets nothing', async ({ page }) => {
  const query = new URLSearchParams({ userName: BOOKINGS.amountRange.email });
  await page.goto(`/booking-management?${query}`);
  await expect(rangeText(page)).toHaveText('1-1 of 1');
  const row = rows(page).first();
  const id = await row.getAttribute('data-row-key');
  await row.getByRole('button', { name: `Set amount booking #${id}` }).click();
  const dialog = modal(page, `Set amount of booking #${id}`);
  await opened(dialog);
  const input = (label: string) => dialogField(dialog, label);
  await expect(input('By power')).toHaveValue('90');
  const writes = watchWrites(page);
  const save = saveButton(dialog);
  await refused(save, { input: input('Amount'), typed: '-1', message: 'must be 0 or more', valid: '' });
  for (const [label, valid] of [
    ['By power', '90'],
    ['By duration', '0'],
    ['By penalty', '10'],
  ] as const) {
    await refused(save, { input: input(label), typed: '-0.5', message: 'must be 0 or more', valid });
  }
  await closeDialog(page, dialog);
  expect(writes).toEqual([]);
});
