import { loginAs } from './fixtures/auth.ts';
import { exportSheet, pick, rangeText, rows, rowWith, saveForm, search } from './fixtures/list.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

// Issue 36: who changed what. The price plans are audited on the server (price.service.ts): an edit made in
// the browser is read back from the plan's History, field by field.

// One worker, in order: the phone test reads the entries the first one made, and both change one plan.
test.describe.configure({ mode: 'default' });

/**
 * The demo's retired plan (tools/src/demo-prices.ts): hourly, inactive, no fees. Its Extracharger fee is what
 * the story changes, and puts back at its end: no other spec reads it (the price list shows the rates, and
 * its export test reads the kWh plans only).
 */
const PLAN = 'AC Flat Rate 2024 (retired)';
/** The fee's input: a required field's name starts with its '* ' mark. */
const fee = (page: Page) => page.getByRole('spinbutton', { name: /^(\* )?Extracharger fee \(Baht\/min\)$/ });

/** Opens the plan's setting page from the price list; answers its id. */
async function openPlan(page: Page): Promise<string> {
  await page.goto('/price');
  await rowWith(page, PLAN).getByRole('button', { name: 'View' }).click();
  await expect(page).toHaveURL(/\/price\/\d+$/);
  await expect(fee(page)).toBeVisible();
  return new URL(page.url()).pathname.split('/').at(-1)!;
}

/** The opened row's field changes (the table below an expanded entry). */
const changes = (page: Page) => page.locator('.audit-changes .audit-change');
const changeRow = (page: Page, field: string) =>
  changes(page).filter({ has: page.getByText(field, { exact: true }) });

test.describe('as admin', () => {
  test('an edit of a price plan shows in its History with the field diff; filter by action and user; export', async ({
    page,
  }) => {
    await loginAs(page, ROLE_USERS.admin);
    const id = await openPlan(page);
    await expect(fee(page)).toHaveValue('0');
    await fee(page).fill('1.25');
    await saveForm(page);
    await expect(page).toHaveURL(/\/price(\?|$)/);

    // The plan's History: the audit log filtered to it, newest first.
    await rowWith(page, PLAN).getByRole('button', { name: 'View' }).click();
    await page.getByRole('button', { name: 'History' }).click();
    await expect(page).toHaveURL(new RegExp(`/audit-log\\?entity=price&entityId=${id}$`));
    await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
    await expect(rangeText(page)).toHaveText('1-1 of 1');
    const entry = rows(page).first();
    await expect(entry).toContainText('e2e-admin@example.com');
    await expect(entry).toContainText('Admin');
    await expect(entry).toContainText('Price');
    await expect(entry).toContainText('Update');
    // Thai locale: the Buddhist year.
    await expect(entry).toContainText(new RegExp(`/${new Date().getFullYear() + 543} \\d{2}:\\d{2}`));
    await expect(entry.getByRole('link', { name: `Open Price ${id}` })).toHaveText(id);

    // Opened: the one field that changed, before (struck through) and after.
    await entry.getByRole('button', { name: 'Expand row' }).click();
    const change = changeRow(page, 'penaltyBahtPerMin');
    await expect(change).toBeVisible();
    const before = change.locator('[data-side="before"]');
    const after = change.locator('[data-side="after"]');
    await expect(before).toHaveText('0');
    await expect(after).toHaveText('1.25');
    await expect(before).toHaveCSS('text-decoration-line', 'line-through');
    await expect(after).not.toHaveCSS('text-decoration-line', 'line-through');
    await expect(changes(page)).toHaveCount(1);
    await shoot(page, 'audit-log-1440.png');

    // The filters: another action finds nothing, Update finds it again; the user filter finds it by email.
    await pick(page, 'Action', 'Create');
    await search(page);
    await expect(page).toHaveURL(/action=create/);
    await expect(page.getByText('No Data yet!')).toBeVisible();
    await pick(page, 'Action', 'Update');
    await pick(page, 'User', 'e2e-admin@example.com');
    await search(page);
    await expect(page).toHaveURL(/action=update/);
    await expect(page).toHaveURL(/userId=\d+/);
    await expect(rangeText(page)).toHaveText('1-1 of 1');

    // Export: the same filters, one line per entry with its changes.
    const sheet = await exportSheet(page, /^AuditLog_\d+\.xlsx$/);
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'ID',
      'Time',
      'User',
      'Role',
      'IP',
      'Entity',
      'Entity ID',
      'Action',
      'Changes',
      'Details',
    ]);
    expect(sheet.rowCount).toBe(2);
    const line = sheet.getRow(2);
    expect(line.getCell(3).value).toBe('e2e-admin@example.com');
    expect(line.getCell(6).value).toBe('price');
    expect(line.getCell(7).value).toBe(id);
    expect(line.getCell(8).value).toBe('update');
    expect(String(line.getCell(9).value)).toContain('penaltyBahtPerMin: 0 → 1.25');

    // The entity's id links to the plan; the fee is put back (a second entry, listed first).
    await entryLink(page, id).click();
    await expect(page).toHaveURL(new RegExp(`/price/${id}$`));
    await expect(fee(page)).toHaveValue('1.25');
    await fee(page).fill('0');
    await saveForm(page);
    await page.goto(`/audit-log?entity=price&entityId=${id}`);
    await expect(rangeText(page)).toHaveText('1-2 of 2');
    await rows(page).first().getByRole('button', { name: 'Expand row' }).click();
    await expect(changeRow(page, 'penaltyBahtPerMin').locator('[data-side="before"]')).toHaveText('1.25');
    await expect(changeRow(page, 'penaltyBahtPerMin').locator('[data-side="after"]')).toHaveText('0');
  });

  test('at phone width the opened entry still reads field, before and after', async ({ page }) => {
    await loginAs(page, ROLE_USERS.admin);
    const id = await openPlan(page);
    await page.setViewportSize({ width: 390, height: 844 });
    // The story above made two entries for the plan: the fee set, then put back.
    await page.goto(`/audit-log?entity=price&entityId=${id}&action=update`);
    await expect(rangeText(page)).toHaveText('1-2 of 2');
    const entry = rows(page).first();
    await entry.getByRole('button', { name: 'Expand row' }).click();
    // A block per change: the field, then its before and after, each on a line of its own.
    const change = changes(page).first();
    await expect(change).toBeVisible();
    await expect(change.locator('.audit-field')).toBeVisible();
    await expect(change.locator('.audit-change-label')).toHaveText(['Before', 'After']);
    await expect(change.locator('.audit-field')).toHaveText('penaltyBahtPerMin');
    await expect(change.locator('[data-side="before"]')).toHaveText('1.25');
    await expect(change.locator('[data-side="before"]')).toHaveCSS('text-decoration-line', 'line-through');
    await expect(change.locator('[data-side="after"]')).toHaveText('0');
    // Nothing pushes the page sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shoot(page, 'audit-log-390.png');
  });
});

function entryLink(page: Page, id: string) {
  return rows(page)
    .first()
    .getByRole('link', { name: `Open Price ${id}` });
}

test('a role other than admin has no Audit Log entry, its route refuses, and no History button', async ({
  page,
}) => {
  await loginAs(page, ROLE_USERS.marketting);
  const menu = page.getByTestId('sidebar-menu');
  await expect(menu.getByRole('link', { name: 'Price', exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Audit Log', exact: true })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Alert Settings', exact: true })).toHaveCount(0);
  await page.goto('/audit-log');
  await expect(page.getByText('Sorry, you are not authorized to access this page.')).toBeVisible();
  // The API refuses too.
  const token = await page.evaluate(
    () => (JSON.parse(sessionStorage.getItem('ev.session') ?? '{}') as { accessToken?: string }).accessToken,
  );
  const answer = await page.request.get('/api/audit-log', { headers: { 'X-ACCESS-TOKEN': token ?? '' } });
  expect(answer.status()).toBe(403);
  // Marketing edits prices, but the plan's History is the admin's.
  await page.goto('/price');
  await rowWith(page, PLAN).getByRole('button', { name: 'View' }).click();
  await expect(fee(page)).toBeVisible();
  await expect(page.getByRole('button', { name: 'History' })).toHaveCount(0);
});
