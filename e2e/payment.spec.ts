import { notification, openAs } from './fixtures/auth.ts';
import { BOOKINGS } from './fixtures/bookings.ts';
import { opened, rangeText, rowWith } from './fixtures/list.ts';
import { field, modal } from './fixtures/modal.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/** Transaction Management (document 3, sections 2, 4, 5 and 8) on the payments e2e/serve.ts seeds. */

const CARD = BOOKINGS.refund.payment.invoiceNo;
const QR = BOOKINGS.qrPaid.payment.invoiceNo;

test('a card payment is refunded once, for manual settlement; QR Promptpay has no refund', async ({
  page,
}) => {
  await openAs(page, ROLE_USERS.admin, '/charging-payment?invoiceNo=E2E-INV');
  await expect(rangeText(page)).toHaveText('1-2 of 2');
  for (const title of [
    'Invoice No',
    'Name',
    'Booking Id',
    'Date',
    'Method',
    'Amount (THB)',
    'Refund',
    'Action',
  ]) {
    await expect(page.getByRole('columnheader', { name: title, exact: true })).toBeVisible();
  }
  const qr = rowWith(page, QR);
  await expect(qr).toContainText('QR Promptpay');
  await expect(qr.getByRole('button', { name: `Refund ${QR}` })).toBeDisabled();
  const card = rowWith(page, CARD);
  await expect(card).toContainText('Pimchanok Suwannarat');
  await expect(card).toContainText('Credit / Debit Card');
  await expect(card).toContainText('100.00');

  await card.getByRole('button', { name: `Refund ${CARD}` }).click();
  const dialog = modal(page, `Refund ${CARD}`);
  await opened(dialog);
  await expect(dialog).toContainText('No payment provider is connected');
  await expect(dialog).toContainText('recorded with a credit note for manual settlement');
  await expect(field(dialog, 'Amount')).toHaveValue('100');
  await shoot(page, 'payment-refund.png');

  const save = dialog.getByRole('button', { name: 'Save' });
  await field(dialog, 'Amount').fill('');
  await save.click();
  await expect(dialog.getByText('Please input number', { exact: true })).toBeVisible();
  await field(dialog, 'Amount').fill('150');
  await expect(dialog.getByText('must be at most the 100.00 THB paid', { exact: true })).toBeVisible();
  await field(dialog, 'Amount').fill('40');
  const refunded = page.waitForResponse((response) => response.url().includes('/refund'));
  await save.click();
  const answer = await refunded;
  expect(answer.status()).toBe(200);
  expect(answer.request().postDataJSON()).toEqual({ amount: 40 });
  await expect(notification(page, 'Refunded successfully!')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card.locator('[data-refund]')).toHaveText('Recorded: settle manually');
  await expect(card.getByRole('button', { name: `Refund ${CARD}` })).toBeDisabled();
  await card.locator('[data-refund]').hover();
  await expect(page.locator('.ant-tooltip')).toContainText(/40\.00 THB on .*credit note CN-\d{4}-\d{6}/);
});

test('the filters: name and method narrow the list; other roles may not open it', async ({ page }) => {
  await openAs(page, ROLE_USERS.admin, `/charging-payment?userName=${BOOKINGS.qrPaid.email}`);
  await expect(rangeText(page)).toHaveText('1-1 of 1');
  await expect(rowWith(page, QR)).toBeVisible();
  await page.goto('/charging-payment?paymentMethod=qr&invoiceNo=E2E-INV');
  await expect(rangeText(page)).toHaveText('1-1 of 1');
  await expect(rowWith(page, QR)).toBeVisible();
  await page.getByRole('button', { name: 'Log Out' }).click();
  await openAs(page, ROLE_USERS.callcenter, '/charging-payment');
  await expect(page.getByText('Sorry, you are not authorized to access this page.')).toBeVisible();
});
