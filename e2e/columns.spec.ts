import { loginAs } from './fixtures/auth.ts';
import { BOOKINGS } from './fixtures/bookings.ts';
import { columnHeader, rangeText, rows } from './fixtures/list.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Locator, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/**
 * Every column the spec names, reachable at every width (issue 24): the booking and payment lists at the
 * widths staff use. A column that gave way for room is brought back with the Columns control (remembered per
 * user and list); a table then too wide scrolls sideways, its id or name pinned left and its actions right
 * only where they cover nothing for good; labels of a known set are never cut.
 */

/** Document 3, section 2: the booking list's columns, in order. */
const BOOKING_COLUMNS = [
  'ID',
  'Name',
  'Surname',
  'Email',
  'Phone',
  'Cluster',
  'Site',
  'Charger',
  'Connector',
  'Service Date/Time',
  'Duration',
  'Energy (kWh)',
  'Total (THB)',
  'Payment Method',
  'Status',
  'Action',
];
/** The payment list's: the spec's, with the refund's state before the Refund action. */
const PAYMENT_COLUMNS = [
  'Invoice No',
  'Name',
  'Email',
  'Cluster',
  'Site',
  'Booking Id',
  'Date',
  'Method',
  'Amount (THB)',
  'Refund',
  'Action',
];

const WIDTHS = [
  { width: 1920, height: 1080 },
  { width: 1440, height: 900 },
  { width: 1000, height: 800 },
  { width: 390, height: 844 },
];

const headers = (page: Page) => page.locator('.ant-table-thead th');
const columnsButton = (page: Page) => page.getByRole('button', { name: /^Columns, \d+ hidden$/ });
const choices = (page: Page) => page.locator('.list-columns-choice');

/** Opens the Columns control and returns its ticks by title. */
async function openColumns(page: Page) {
  await columnsButton(page).click();
  await expect(choices(page)).toBeVisible();
  return (title: string) => choices(page).getByRole('checkbox', { name: title, exact: true });
}

async function closeColumns(page: Page) {
  await columnsButton(page).click();
  await expect(choices(page)).toBeHidden();
}

/** The titles the Columns control leaves unticked: the columns that gave way. */
async function untickedTitles(page: Page): Promise<string[]> {
  const tick = await openColumns(page);
  const titles = (await choices(page).locator('label').allTextContents()).map((text) => text.trim());
  const unticked: string[] = [];
  for (const title of titles) if (!(await tick(title).isChecked())) unticked.push(title);
  await closeColumns(page);
  return unticked;
}

/**
 * Fails unless the cell can be read whole: the table scrolled sideways (as a user would) to put the cell in
 * the middle of the part no pinned column covers, its left edge, middle and right edge are the cell itself
 * (not a pinned column over it) and inside the window.
 */
async function expectUncovered(cell: Locator, what: string) {
  // Scrolled and measured in one task: the live list reloads itself every 10 s, and a render between two
  // calls could move the cell.
  const hits = await cell.evaluate((element) => {
    element.scrollIntoView({ block: 'center', inline: 'nearest' });
    const cellOf = element.closest('th, td') as HTMLElement;
    const scroller = element.closest('.ant-table-content') as HTMLElement | null;
    // antd marks a pinned cell 'ant-table-cell-fix-start' (left) or '-end' (right).
    const pinned = (side: 'start' | 'end') =>
      [...(cellOf.parentElement?.children ?? [])]
        .filter((sibling) => sibling.classList.contains(`ant-table-cell-fix-${side}`))
        .reduce((sum, sibling) => sum + sibling.getBoundingClientRect().width, 0);
    if (scroller && !cellOf.classList.contains('ant-table-cell-fix')) {
      const free = scroller.clientWidth - pinned('start') - pinned('end');
      scroller.scrollLeft = cellOf.offsetLeft - pinned('start') - (free - cellOf.offsetWidth) / 2;
    }
    const box = element.getBoundingClientRect();
    const y = box.top + box.height / 2;
    return [box.left + 2, box.left + box.width / 2, box.right - 2].map((x) => {
      if (x < 0 || x > window.innerWidth) return `outside the window at ${Math.round(x)}`;
      const hit = document.elementFromPoint(x, y);
      return hit && element.contains(hit) ? 'ok' : `covered by '${hit?.closest('th, td')?.textContent}'`;
    });
  });
  expect(hits, `${what} is whole and uncovered`).toEqual(['ok', 'ok', 'ok']);
}

/** Every header and the first row's cell under it can be read whole. */
async function expectAllUncovered(page: Page) {
  // The mouse off the table: a cell scrolled under it would be hovered, and a tooltip (the Total's breakdown
  // opens to the left of its button) would cover the cell's left edge: the CI failure at 390 px.
  const viewport = page.viewportSize();
  await page.mouse.move(1, (viewport?.height ?? 600) - 1);
  const titles = (await headers(page).allTextContents()).map((text) => text.trim());
  for (const [index, title] of titles.entries()) {
    await expectUncovered(headers(page).nth(index), `the header '${title}'`);
    await expectUncovered(
      rows(page).first().locator(':scope > td').nth(index),
      `the first cell of '${title}'`,
    );
  }
}

/** The cells' texts of a column that are cut (wider than their cell). */
const cutTexts = (page: Page, index: number) =>
  rows(page).evaluateAll(
    (all, column) =>
      all
        .map((row) => row.querySelectorAll(':scope > td')[column] as HTMLElement | undefined)
        .filter((cell): cell is HTMLElement => !!cell)
        .flatMap((cell) => [...cell.querySelectorAll<HTMLElement>('.list-cell-text, .ant-tag, button')])
        .filter((element) => element.scrollWidth > element.clientWidth)
        .map((element) => element.textContent),
    index,
  );

async function expectWhole(page: Page, title: string) {
  const titles = (await headers(page).allTextContents()).map((text) => text.trim());
  const index = titles.indexOf(title);
  expect(index, `a column '${title}'`).toBeGreaterThanOrEqual(0);
  expect(await cutTexts(page, index), `no ${title} cut`).toEqual([]);
}

test.beforeEach(async ({ page }) => {
  await loginAs(page, ROLE_USERS.admin);
});

for (const { width, height } of WIDTHS) {
  test(`booking list at ${width} px: every column shown or brought back, none covered`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/booking-management?sort=id&order=asc');
    await expect(rangeText(page)).toHaveText(/^1-10 of \d+$/);
    const shown = (await headers(page).allTextContents()).map((text) => text.trim());
    const gone = await untickedTitles(page);
    // Shown and given way make the spec's columns, in its order.
    expect(BOOKING_COLUMNS.filter((title) => !gone.includes(title))).toEqual(shown);
    expect([...shown, ...gone].sort()).toEqual([...BOOKING_COLUMNS].sort());
    // Since issue 31 a column gives way rather than be cut, so a few give way at 1920 px too; each comes back
    // below (the Columns control), and then the table scrolls sideways with nothing covered.
    // The id, name, duration, total, status and actions always show; the site and the date outlast energy.
    for (const title of ['ID', 'Name', 'Duration', 'Total (THB)', 'Status', 'Action'])
      expect(shown).toContain(title);
    if (shown.includes('Energy (kWh)'))
      expect(shown).toEqual(expect.arrayContaining(['Site', 'Service Date/Time']));
    await expectAllUncovered(page);
    await expectWhole(page, 'Status');
    await expectWhole(page, 'Action');
    await shoot(page, `columns-booking-${width}.png`);
    if (gone.length === 0) return;

    // Every column that gave way comes back: the table scrolls sideways, nothing stays covered.
    const tick = await openColumns(page);
    for (const title of gone) await tick(title).check();
    await closeColumns(page);
    await expect(headers(page)).toHaveText(BOOKING_COLUMNS);
    await expectAllUncovered(page);
    // Labels of a known set whole at 1440 px and up (a phone's cells are smaller).
    if (width >= 1440) {
      await expectWhole(page, 'Payment Method');
      await expectWhole(page, 'Status');
    }
    await shoot(page, `columns-booking-${width}-all.png`);

    // Remembered for this user and list: a reload keeps them; Automatic places them again.
    await page.reload();
    await expect(rangeText(page)).toHaveText(/^1-10 of \d+$/);
    await expect(headers(page)).toHaveText(BOOKING_COLUMNS);
    const again = await openColumns(page);
    await choices(page).getByRole('button', { name: 'Automatic' }).click();
    await expect(again(gone[0]!)).not.toBeChecked();
    await closeColumns(page);
    await expect(headers(page)).toHaveText(shown);
  });
}

for (const { width, height } of WIDTHS) {
  test(`payment list at ${width} px: the method stays with Refund, every column reachable`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/charging-payment?invoiceNo=E2E-INV&sort=invoiceNo&order=asc');
    await expect(rangeText(page)).toHaveText('1-2 of 2');
    const shown = (await headers(page).allTextContents()).map((text) => text.trim());
    const gone = await untickedTitles(page);
    expect(PAYMENT_COLUMNS.filter((title) => !gone.includes(title))).toEqual(shown);
    // Since issue 31 a column gives way rather than be cut, so a few give way at 1920 px too; each comes back
    // below (the Columns control), and then the table scrolls sideways with nothing covered.
    // The method explains a disabled Refund: it shows wherever Refund does.
    for (const title of ['Invoice No', 'Method', 'Amount (THB)', 'Refund', 'Action'])
      expect(shown).toContain(title);
    await expectAllUncovered(page);
    if (width >= 1440) {
      await expect(rows(page).first()).toContainText('Credit / Debit Card');
      await expectWhole(page, 'Method');
    }
    await shoot(page, `columns-payment-${width}.png`);
    if (gone.length === 0) return;

    const tick = await openColumns(page);
    for (const title of gone) await tick(title).check();
    await closeColumns(page);
    await expect(headers(page)).toHaveText(PAYMENT_COLUMNS);
    await expectAllUncovered(page);
    await shoot(page, `columns-payment-${width}-all.png`);
  });
}

test('the choice is per list: bringing Email back on bookings leaves the payment list alone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/booking-management');
  await expect(rangeText(page)).toHaveText(/^1-\d+ of \d+$/);
  const tick = await openColumns(page);
  await tick('Email').check();
  await closeColumns(page);
  await expect(columnHeader(page, 'Email')).toHaveCount(1);
  await page.goto('/charging-payment');
  await expect(rangeText(page)).toHaveText(/^1-\d+ of \d+$/);
  await expect(columnHeader(page, 'Email')).toHaveCount(0);
});

test('on a phone a row scrolls as one: Cancel payment whole, the name pinned, the actions reachable', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/booking-management?userName=${encodeURIComponent(BOOKINGS.unpaidShot.email)}`);
  await expect(rangeText(page)).toHaveText('1-1 of 1');
  const cancel = rows(page)
    .first()
    .getByRole('button', { name: /^Cancel payment booking/ });
  await expectUncovered(cancel, 'Cancel payment');
  expect(await cancel.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  // Scrolled all the way, the name is still in view.
  const name = rows(page).first().locator(':scope > td').nth(1);
  await expect(name).toHaveText('Lalita');
  await expectUncovered(name, 'the name');
  await shoot(page, 'columns-booking-390-scrolled.png');
});

test('the date filters show the day before the first rows, so nothing typed is overwritten', async ({
  page,
}) => {
  // The first time the From field appears, its value (before any list answer has been shown).
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      const from = document.querySelector<HTMLInputElement>('input[placeholder="Service Date From"]');
      if (!from) return;
      (window as unknown as { firstFrom: string }).firstFrom = from.value;
      (window as unknown as { rowsThen: number }).rowsThen =
        document.querySelectorAll('tr.ant-table-row').length;
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  // The list's answer is held until the user has typed.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname === '/api/booking',
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await page.goto('/booking-management');
  const today = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { firstFrom?: string }).firstFrom))
    .toBe(today);
  expect(await page.evaluate(() => (window as unknown as { rowsThen: number }).rowsThen)).toBe(0);
  // A date typed while the URL takes on the day and the rows load stays as typed.
  await expect(page).toHaveURL(/createdAfter=/);
  const to = page.getByLabel('Service Date To');
  await to.click();
  const typed = `${Number(today.slice(0, 4)) + 1}-01-31`;
  await to.fill(typed);
  await page.keyboard.press('Enter');
  release();
  await expect(rangeText(page)).toHaveText(/of \d+$/);
  await expect(to).toHaveValue(typed);
  await expect(page.getByLabel('Service Date From')).toHaveValue(today);
});
