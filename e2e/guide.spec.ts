import { loginAs, notification } from './fixtures/auth.ts';
import {
  answer,
  clearData,
  LEAVE_WARNING,
  pick,
  rangeText,
  rows,
  rowWith,
  search,
  switchOffAndDelete,
} from './fixtures/list.ts';
import { createPage, listPages, removePage, staffHeaders, uniqueTitle } from './fixtures/pages.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Locator, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/**
 * Tutorials (/guide) and Manage Tutorials (/guide-manage). Every test makes its own tutorials with titles of
 * its own: the lists, and the displayed order, are shared with the tests running beside them.
 */

test.beforeEach(async ({ page }) => {
  await loginAs(page, ROLE_USERS.admin);
});

test('the tutorial list: search by title, the switch, delete only when inactive; New and Edit open the form', async ({
  page,
  request,
}) => {
  const headers = await staffHeaders(request);
  const title = uniqueTitle('E2E Tutorial');
  const titleTh = `${title} ไทย`;
  const id = await createPage(request, headers, 'guide', { titleEn: title, titleTh, active: true });
  // A 100-character title (the longest): cut with '…', whole in a tooltip.
  const long = uniqueTitle('E2E Long').padEnd(100, ' tutorial').slice(0, 100);
  await createPage(request, headers, 'guide', { titleEn: long, titleTh: 'ยาว', active: true });

  await page.goto('/guide?page=2');
  await expect(page.getByRole('heading', { name: 'Tutorials', exact: true })).toBeVisible();
  await pick(page, 'Tutorial Title', title);
  await search(page);
  // A new search starts at page 1.
  await expect(page).toHaveURL(new RegExp(`[?&]id=${id}(&|$)`));
  await expect(page).toHaveURL(/[?&]page=1(&|$)/);
  await expect(rangeText(page)).toHaveText('1-1 of 1');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(title);
  await expect(rows(page).first()).toContainText(titleTh);
  await shoot(page, 'guide-list-search.png');

  // Edit opens the form, which returns to the same search.
  await rowWith(page, title)
    .getByRole('button', { name: `Edit ${title}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/guide/${id}$`));
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`[?&]id=${id}(&|$)`));

  // Active: no Delete. Switched off (saved at once), Delete asks and removes it.
  await switchOffAndDelete(page, title);

  // At 1440 px the title column has room for 100 characters (issue 31: room by content); at 1000 px it has not.
  await page.setViewportSize({ width: 1000, height: 800 });
  await clearData(page);
  const longCell = rowWith(page, long).locator('.list-cell-text').first();
  await expect(longCell).toHaveText(long);
  expect(await longCell.evaluate((cell) => cell.scrollWidth > cell.clientWidth)).toBe(true);
  await longCell.hover();
  await expect(page.getByRole('tooltip')).toHaveText(long);
  await shoot(page, 'guide-list.png');

  await page.getByRole('button', { name: 'New Tutorial' }).click();
  await expect(page).toHaveURL(/\/guide\/new$/);
});

test('the title column stays in view on a phone', async ({ page, request }) => {
  const headers = await staffHeaders(request);
  const title = uniqueTitle('E2E Phone Tutorial');
  const id = await createPage(request, headers, 'guide', { titleEn: title, titleTh: 'โทรศัพท์' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/guide?id=${id}`);
  const cell = rowWith(page, title).locator('td').first();
  await expect(cell).toBeVisible();
  const box = await cell.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  await expect(page.locator('.ant-table-thead th').filter({ hasText: 'Title (EN)' })).toBeVisible();
});

/** The displayed tutorials' rows, in order, and one of them by its title. */
const displayed = (page: Page) => page.getByTestId('displayed-guide');
const displayedRow = (page: Page, title: string) => displayed(page).filter({ hasText: title });
const hiddenRow = (page: Page, title: string) => page.getByTestId('hidden-guide').filter({ hasText: title });

/** Moves tutorials from the left panel to the end of the display, in this order. */
async function addToDisplay(page: Page, ...titles: string[]) {
  for (const title of titles) {
    await hiddenRow(page, title)
      .getByRole('button', { name: `Add ${title}` })
      .click();
  }
}

/** Leaves for the Tutorials list with the order unsaved: the leave warning, answered `reply`. */
async function leaveForTutorials(page: Page, reply: 'Yes' | 'No') {
  await page.getByTestId('sidebar-menu').getByRole('link', { name: 'Tutorials', exact: true }).click();
  await answer(page.getByRole('dialog').filter({ hasText: LEAVE_WARNING }), reply);
}

/** Saves the order and waits until the panels show what is stored: 'Done!', and nothing left to save. */
async function saveOrder(page: Page) {
  const save = page.getByRole('button', { name: 'Save', exact: true });
  const done = notification(page, 'Done!');
  const before = await done.count();
  await save.click();
  await expect(done).toHaveCount(before + 1);
  await expect(save).not.toHaveClass(/ant-btn-loading/);
  await expect(save).toBeDisabled();
}

/** The places of the titles among the displayed rows (-1 when absent). */
async function placesOf(page: Page, titles: string[]) {
  const texts = await displayed(page).allTextContents();
  return titles.map((title) => texts.findIndex((text) => text.includes(title)));
}

/** Drags `from` by its handle onto `to` with the mouse, in small steps, photographing the screen half way. */
async function drag(page: Page, from: Locator, to: Locator, screenshot: string) {
  const handle = from.getByRole('button', { name: /^Drag / });
  await handle.hover();
  const start = await handle.boundingBox();
  const end = await to.boundingBox();
  if (!start || !end) throw new Error('The rows are not on screen');
  const x = start.x + start.width / 2;
  await page.mouse.down();
  const targetY = end.y + end.height / 2;
  const startY = start.y + start.height / 2;
  for (let step = 1; step <= 12; step++) {
    await page.mouse.move(x, startY + ((targetY - startY) * step) / 12);
  }
  await expect(from).toHaveClass(/guide-item-dragging/);
  await shoot(page, screenshot);
  await page.mouse.up();
  await expect(from).not.toHaveClass(/guide-item-dragging/);
}

// The displayed order is one list: the tests that save it run one after the other.
test.describe('Manage Tutorials', () => {
  test.describe.configure({ mode: 'default' });

  test('add, drag to reorder, save, and the leave warning', async ({ page, request }) => {
    const headers = await staffHeaders(request);
    const first = uniqueTitle('E2E Order A');
    const second = uniqueTitle('E2E Order B');
    const inactive = uniqueTitle('E2E Order Off');
    const firstId = await createPage(request, headers, 'guide', { titleEn: first, titleTh: 'ลำดับ ก' });
    const secondId = await createPage(request, headers, 'guide', { titleEn: second, titleTh: 'ลำดับ ข' });
    await createPage(request, headers, 'guide', { titleEn: inactive, titleTh: 'ปิด', active: false });

    await page.goto('/guide-manage');
    await expect(page.getByRole('heading', { name: 'Manage Tutorials' })).toBeVisible();
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await expect(save).toBeDisabled();
    const count = async () =>
      Number(
        /\((\d+)\)/.exec((await page.getByText(/^Display Tutorials \(\d+\)$/).textContent()) ?? '')?.[1],
      );
    const before = await count();

    // Added at the end of the display, in the order added; gone from the left.
    await addToDisplay(page, first, second, inactive);
    await expect(hiddenRow(page, first)).toHaveCount(0);
    await expect(page.getByText(`Display Tutorials (${before + 3})`)).toBeVisible();
    expect(await placesOf(page, [first, second, inactive])).toEqual([before, before + 1, before + 2]);
    // Displayed or not, an inactive tutorial is not shown in the app: it says so.
    await expect(displayedRow(page, inactive).getByText('Inactive', { exact: true })).toBeVisible();
    await expect(displayedRow(page, first).getByText('Inactive', { exact: true })).toHaveCount(0);
    // Taken off again: back on the left.
    await displayedRow(page, inactive)
      .getByRole('button', { name: `Remove ${inactive}` })
      .click();
    await expect(displayedRow(page, inactive)).toHaveCount(0);
    await expect(hiddenRow(page, inactive)).toBeVisible();
    await expect(hiddenRow(page, inactive).getByText('Inactive', { exact: true })).toBeVisible();

    // B dragged onto A: B comes first.
    await drag(page, displayedRow(page, second), displayedRow(page, first), 'guide-manage-mid-drag.png');
    await expect.poll(() => placesOf(page, [second, first])).toEqual([before, before + 1]);

    // Unsaved: leaving asks; No stays with the order as arranged.
    await leaveForTutorials(page, 'No');
    await expect(page).toHaveURL(/\/guide-manage$/);
    expect(await placesOf(page, [second, first])).toEqual([before, before + 1]);

    await saveOrder(page);
    await shoot(page, 'guide-manage.png');

    // Stored: B before A, both displayed; the inactive one is not.
    const stored = await listPages(
      request,
      headers,
      'type=guide&minWeight=0&page=1&size=99&sort=weight&order=asc',
    );
    const ids = stored.map((row) => row.id);
    expect(ids).toContain(firstId);
    expect(ids.indexOf(secondId)).toBeLessThan(ids.indexOf(firstId));
    expect(stored.every((row) => row.weight > 0)).toBe(true);
    expect(stored.some((row) => row.titleEn === inactive)).toBe(false);

    // After a reload the stored order is what shows.
    await page.reload();
    await expect.poll(() => placesOf(page, [second, first])).toEqual([before, before + 1]);

    // Taken off and saved: weight 0 again.
    await displayedRow(page, second)
      .getByRole('button', { name: `Remove ${second}` })
      .click();
    await displayedRow(page, first)
      .getByRole('button', { name: `Remove ${first}` })
      .click();
    await saveOrder(page);
    await expect(displayedRow(page, first)).toHaveCount(0);
    for (const id of [firstId, secondId]) {
      const [row] = await listPages(request, headers, `type=guide&id=${id}`);
      expect(row?.weight).toBe(0);
    }

    // Unsaved again, and leaving with Yes: nothing stored.
    await addToDisplay(page, first);
    await leaveForTutorials(page, 'Yes');
    await expect(page).toHaveURL(/\/guide$/);
    const after = await listPages(request, headers, 'type=guide&minWeight=0&page=1&size=99');
    expect(after.some((row) => row.id === firstId)).toBe(false);

    // Clean up the shared list: inactive, then deleted.
    for (const id of [firstId, secondId]) {
      await removePage(request, headers, id);
    }
  });

  test('the order can be arranged with the keyboard too', async ({ page, request }) => {
    const headers = await staffHeaders(request);
    const first = uniqueTitle('E2E Keys A');
    const second = uniqueTitle('E2E Keys B');
    const ids = [
      await createPage(request, headers, 'guide', { titleEn: first, titleTh: 'คีย์ ก' }),
      await createPage(request, headers, 'guide', { titleEn: second, titleTh: 'คีย์ ข' }),
    ];
    await page.goto('/guide-manage');
    await addToDisplay(page, first, second);
    const [a, b] = await placesOf(page, [first, second]);
    expect(b).toBe(a! + 1);

    // Space lifts B by its handle, the up arrow moves it one place (the row is shifted until the drop),
    // Space drops it there.
    const row = displayedRow(page, second);
    await row.getByRole('button', { name: /^Drag / }).focus();
    await page.keyboard.press('Space');
    await expect(row).toHaveClass(/guide-item-dragging/);
    const shiftedUp = () =>
      row.evaluate((element) => new DOMMatrix(getComputedStyle(element).transform).f < 0);
    // The rows are measured once a drag starts; an arrow pressed before that moves nothing, so press again.
    await expect(async () => {
      if (!(await shiftedUp())) await page.keyboard.press('ArrowUp');
      expect(await shiftedUp()).toBe(true);
    }).toPass({ timeout: 5_000 });
    // The dragged row moves with the arrow at once, but the row it is over is set a render later (dnd-kit's
    // sensor events are not React's): a drop before that finds B over itself and moves nothing. A making room
    // (shifted down) shows B is over it.
    const shiftedDown = () =>
      displayedRow(page, first).evaluate(
        (element) => new DOMMatrix(getComputedStyle(element).transform).f > 0,
      );
    await expect.poll(shiftedDown).toBe(true);
    await page.keyboard.press('Space');
    await expect(row).not.toHaveClass(/guide-item-dragging/);
    await expect.poll(() => placesOf(page, [second, first])).toEqual([a, b]);

    // Left unsaved (Yes to the warning): nothing stored; the tutorials are removed again.
    await leaveForTutorials(page, 'Yes');
    await expect(page).toHaveURL(/\/guide$/);
    for (const id of ids) {
      const [stored] = await listPages(request, headers, `type=guide&id=${id}`);
      expect(stored?.weight).toBe(0);
      await removePage(request, headers, id);
    }
  });

  test('a half-failed order save says how far it got and shows the stored order', async ({
    page,
    request,
  }) => {
    const headers = await staffHeaders(request);
    const kept = uniqueTitle('E2E Half A');
    const refused = uniqueTitle('E2E Half B');
    const keptId = await createPage(request, headers, 'guide', { titleEn: kept, titleTh: 'ครึ่ง ก' });
    const refusedId = await createPage(request, headers, 'guide', { titleEn: refused, titleTh: 'ครึ่ง ข' });

    await page.goto('/guide-manage');
    await addToDisplay(page, kept, refused);
    // The second tutorial's call is refused, as a page deleted meanwhile would be.
    await page.route(`**/api/page/${refusedId}`, (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 404,
            contentType: 'application/json',
            body: '{"message":"Page not found"}',
          })
        : route.continue(),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const notice = notification(page, 'Something went wrong !');
    await expect(notice).toContainText('Page not found');
    await expect(notice).toContainText(/\d+ of \d+ changes were saved/);
    // Reloaded: what was stored before the refusal shows, the refused one is back on the left.
    await expect(displayedRow(page, kept)).toBeVisible();
    await expect(displayedRow(page, refused)).toHaveCount(0);
    await expect(hiddenRow(page, refused)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();

    await page.unroute(`**/api/page/${refusedId}`);
    await displayedRow(page, kept)
      .getByRole('button', { name: `Remove ${kept}` })
      .click();
    await saveOrder(page);
    for (const id of [keptId, refusedId]) {
      await removePage(request, headers, id);
    }
  });
});
