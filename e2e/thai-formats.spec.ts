import { THAI_FORMAT_MESSAGES } from '@ev/shared';
import { loginAs } from './fixtures/auth.ts';
import { expect, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

test.beforeEach(async ({ page }) => {
  await loginAs(page, ROLE_USERS.admin);
});

/** Counts the writes a page sends to `path` (a refused form must send none). */
function writesTo(page: Page, path: string) {
  const writes: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET' && new URL(request.url()).pathname.startsWith(path))
      writes.push(request.url());
  });
  return writes;
}

const fieldError = (page: Page, label: string) =>
  page
    .locator('.ant-form-item')
    .filter({ has: page.getByLabel(label, { exact: true }) })
    .locator('.ant-form-item-explain');

test('the cluster form refuses a Tel and a Tax ID that are not Thai formats, keeping what was typed', async ({
  page,
}) => {
  const writes = writesTo(page, '/api/merchant');
  await page.goto('/merchant/new');
  await page.getByLabel('Cluster Name (EN)').fill('Formats');
  await page.getByLabel('Cluster Name (TH)').fill('รูปแบบ');
  const taxId = page.getByLabel('Taxpayer Identification No.', { exact: true });
  const tel = page.getByLabel('Tel', { exact: true });
  await taxId.fill('0105551234568');
  await tel.fill('abc-😀-ไทย');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(fieldError(page, 'Taxpayer Identification No.')).toHaveText(
    THAI_FORMAT_MESSAGES.taxIdCheckDigit,
  );
  await expect(fieldError(page, 'Tel')).toHaveText(THAI_FORMAT_MESSAGES.telCharacters);
  await expect(taxId).toHaveValue('0105551234568');
  await expect(tel).toHaveValue('abc-😀-ไทย');

  await taxId.fill('010555123456');
  await tel.fill('02-123-456');
  await expect(fieldError(page, 'Taxpayer Identification No.')).toHaveText(THAI_FORMAT_MESSAGES.taxIdDigits);
  await expect(fieldError(page, 'Tel')).toHaveText(THAI_FORMAT_MESSAGES.telDigits);

  // Valid values clear the messages; nothing was sent while the form was refused.
  await taxId.fill('0105551234567');
  await tel.fill('081 234 5678');
  await expect(fieldError(page, 'Taxpayer Identification No.')).toHaveCount(0);
  await expect(fieldError(page, 'Tel')).toHaveCount(0);
  expect(writes).toEqual([]);
});

test('the site form refuses a Tel that is not a Thai number', async ({ page }) => {
  const writes = writesTo(page, '/api/landlord');
  await page.goto('/landlord/new');
  const tel = page.getByLabel('Tel', { exact: true });
  await tel.fill('1129');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(fieldError(page, 'Tel')).toHaveText(THAI_FORMAT_MESSAGES.telDigits);
  await expect(tel).toHaveValue('1129');
  await tel.fill('+6621234567');
  await expect(fieldError(page, 'Tel')).toHaveCount(0);
  expect(writes).toEqual([]);
});
