import { loginAs } from './fixtures/auth.ts';
import { rows } from './fixtures/list.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/**
 * Lists that read well (issue 31): every list screen of the spec, with the demo data, at the widths staff use.
 * Each column says what it holds (`data-kind` on its cells, the list kit's ColumnKind): at 1000 px and wider no
 * identifier, code, phone number, money, date, number or label is cut; at 1440 px at most one free-text column
 * ellipsizes, and only values longer than ~24 characters; on a phone the pinned columns show whole values.
 */

const SCREENS = [
  { path: '/merchant', title: 'Cluster' },
  { path: '/landlord', title: 'Site' },
  { path: '/party', title: 'Group' },
  { path: '/charger', title: 'Charger' },
  { path: '/charger-brand', title: 'Charger Brand' },
  { path: '/price', title: 'Price' },
  { path: '/user-promotion', title: 'Member' },
  { path: '/promotion/discount', title: 'Promotion Code' },
  { path: '/promotion/point', title: 'Point Code' },
  { path: '/promotion/landlord', title: 'Private Station Code' },
  { path: '/point-setup', title: 'Point Setup' },
  { path: '/web-admin', title: 'Web Admin User' },
  { path: '/member-mobile-user', title: 'Member Mobile User' },
  { path: '/booking-management', title: 'Booking Management' },
  { path: '/charging-payment', title: 'Transaction Management' },
  { path: '/guide', title: 'Tutorials' },
  { path: '/term-condition', title: 'Term&Condition' },
  { path: '/privacy-policy', title: 'Privacy Policy' },
] as const;

const WIDTHS = [
  { width: 1920, height: 1080 },
  { width: 1440, height: 900 },
  { width: 1000, height: 800 },
  { width: 390, height: 844 },
];

/** The kinds that are never cut at 1000 px and wider (content-width.ts). */
const WHOLE = ['id', 'code', 'money', 'date', 'number', 'label'];
/** Values up to this many characters show whole at 1440 px. */
const KEPT_CHARACTERS = 24;

interface Column {
  title: string;
  kind: string;
  pinned: boolean;
  /** The header's title does not fit (one line, or its words on a phone). */
  headerCut: boolean;
  /** The texts of this page's cells that are cut. */
  cut: string[];
}

/** What each shown column of the page's table holds and which of its cells are cut. */
function columnsOf(page: Page): Promise<Column[]> {
  return page.locator('.list-table .ant-table').evaluate((table) => {
    const overflows = (element: Element) => element.scrollWidth > element.clientWidth + 1;
    /**
     * A cell's content reaches past its padding (a pinned cell's shadow, a pseudo-element, does not count:
     * a range holds the content only), or a text inside it is cut with '…'.
     */
    const cellCut = (cell: HTMLElement) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      const content = range.getBoundingClientRect();
      const box = cell.getBoundingClientRect();
      const style = getComputedStyle(cell);
      const inside =
        content.width === 0 ||
        (content.left >= box.left + Number.parseFloat(style.paddingLeft) - 1 &&
          content.right <= box.right - Number.parseFloat(style.paddingRight) + 1);
      return !inside || [...cell.querySelectorAll('.list-cell-text, .ant-tag, button')].some(overflows);
    };
    const headers = [...table.querySelectorAll<HTMLElement>('.ant-table-thead th')];
    const bodyRows = [...table.querySelectorAll<HTMLElement>('.ant-table-tbody tr.ant-table-row')];
    return headers
      .map((header, index) => ({ header, index }))
      .filter(({ header }) => header.dataset.kind !== undefined)
      .map(({ header, index }) => {
        const title = header.querySelector('.ant-table-column-title') ?? header;
        const cut = bodyRows
          .map((row) => row.querySelectorAll<HTMLElement>(':scope > td')[index])
          .filter((cell): cell is HTMLElement => !!cell)
          .filter(cellCut)
          .map((cell) => cell.textContent ?? '');
        return {
          title: header.textContent?.trim() ?? '',
          kind: header.dataset.kind ?? '',
          pinned: header.classList.contains('ant-table-cell-fix-start'),
          headerCut: overflows(title),
          cut,
        };
      });
  });
}

async function openList(page: Page, path: string, title: string) {
  await page.goto(path);
  // A first visit also downloads the screen's code (a lazy route).
  await expect(page.getByRole('heading', { name: title, exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(rows(page).first()).toBeVisible();
  await expect(page.locator('.ant-table .ant-spin-spinning')).toHaveCount(0);
  // Web fonts change the measure; the table takes their widths once they have loaded.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  // The mouse off the table: no hovered tooltip over a cell.
  await page.mouse.move(1, 1);
}

test.describe('lists give room by content', () => {
  test.beforeEach(async ({ page }) => {
    await loginAs(page, ROLE_USERS.admin);
  });

  for (const screen of SCREENS) {
    test(`${screen.title} (${screen.path}): nothing that must be whole is cut, at every width`, async ({
      page,
    }) => {
      // One load, then the window resized through the widths, widest first (as a user narrows a window or
      // turns a tablet): the table re-measures on every resize, and four loads per screen were a fifth of the
      // browser suite's time.
      for (const [index, size] of WIDTHS.entries()) {
        await page.setViewportSize(size);
        if (index === 0) await openList(page, screen.path, screen.title);
        else {
          // The table's ResizeObserver has run and React has rendered by the second frame after the resize;
          // the settling check below waits out anything later.
          await page.evaluate(
            () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
          );
          await page.mouse.move(1, 1);
        }
        // The table settles to its room (a resize, the fonts): the same columns twice in a row.
        let columns = await columnsOf(page);
        await expect(async () => {
          const again = await columnsOf(page);
          const same = JSON.stringify(again) === JSON.stringify(columns);
          columns = again;
          expect(same).toBe(true);
        }).toPass();
        const at = `${screen.path} at ${size.width} px`;
        expect(columns.length, `${at}: columns`).toBeGreaterThan(0);
        if (size.width >= 1000) {
          for (const column of columns.filter((c) => WHOLE.includes(c.kind))) {
            expect(column.cut, `${at}: '${column.title}' (${column.kind}) cut`).toEqual([]);
            expect(column.headerCut, `${at}: header '${column.title}' cut`).toBe(false);
          }
        }
        if (size.width === 1440) {
          const cutText = columns.filter((column) => column.kind === 'text' && column.cut.length > 0);
          expect(
            cutText.map((column) => column.title),
            `${at}: text columns cut`,
          ).toHaveLength(Math.min(cutText.length, 1));
          for (const column of cutText) {
            const short = column.cut.filter((text) => text.trim().length <= KEPT_CHARACTERS);
            expect(short, `${at}: short values of '${column.title}' cut`).toEqual([]);
          }
        }
        if (size.width < 480) {
          for (const column of columns.filter((c) => c.pinned)) {
            expect(column.cut, `${at}: pinned '${column.title}' cut`).toEqual([]);
          }
        }
      }
    });
  }

  test('the booking list at 1440 px: every row on one line, actions side by side', async ({ page }) => {
    await openList(page, '/booking-management', 'Booking Management');
    const actionCells = rows(page).locator(':scope > td:last-child');
    await expect(actionCells.first()).toBeVisible();
    const heights = await rows(page).evaluateAll((all) =>
      all.map((row) => Math.round(row.getBoundingClientRect().height)),
    );
    expect(heights.length).toBeGreaterThan(1);
    expect(new Set(heights).size, `row heights ${heights.join(', ')}`).toBe(1);
    // Each row's buttons share one line.
    const lines = await actionCells.evaluateAll((cells) =>
      cells.map(
        (cell) =>
          new Set([...cell.querySelectorAll('button')].map((b) => b.getBoundingClientRect().top)).size,
      ),
    );
    expect(
      lines.every((count) => count <= 1),
      `action lines ${lines.join(', ')}`,
    ).toBe(true);
    expect(
      (await actionCells.allTextContents()).some((text) => /Stop|Pay|Delete|Set amount/.test(text)),
    ).toBe(true);
  });

  test('screenshots at 1440 px: booking, payment, member and promotion lists', async ({ page }) => {
    for (const [path, title, name] of [
      ['/booking-management', 'Booking Management', 'list-widths-booking-1440.png'],
      ['/charging-payment', 'Transaction Management', 'list-widths-payment-1440.png'],
      ['/user-promotion', 'Member', 'list-widths-member-1440.png'],
      ['/member-mobile-user', 'Member Mobile User', 'list-widths-mobile-user-1440.png'],
      ['/promotion/discount', 'Promotion Code', 'list-widths-promotion-1440.png'],
    ] as const) {
      await openList(page, path, title);
      await shoot(page, name);
    }
  });
});
