import zlib from 'node:zlib';
import { loginAs } from './fixtures/auth.ts';
import { answer, LEAVE_WARNING } from './fixtures/list.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Locator, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/** A real PNG (a green band on white), made here so the test needs no binary fixture. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) {
      const band = y > height / 3 && y < (2 * height) / 3;
      rows.push(band ? 11 : 255, band ? 143 : 255, band ? 95 : 255);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The Form.Item of a field, by its label. */
const field = (page: Page, label: string) =>
  page.locator('.ant-form-item').filter({ has: page.locator(`label[title="${label}"]`) });
/** A rich editor (the SunEditor frame) by its field's label. */
const editorOf = (page: Page, label: string) => field(page, label).locator('.sun-editor');
const contentsOf = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });
const toolbarButton = (editor: Locator, command: string) =>
  editor.locator(`.se-toolbar button[data-command="${command}"]`);

/** The editor's dialog that is open (each editor has one dialog area; one dialog shows at a time). */
const editorDialog = (page: Page) => page.locator('.se-modal-content.se-modal-show');

/** A screenshot of the whole form at once: a window as tall as the page (a dialog's mask covers it all). */
async function shootWhole(page: Page, name: string) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const viewport = page.viewportSize() ?? { width: 1440, height: 900 };
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) });
  await shoot(page, name);
  await page.setViewportSize(viewport);
}

/**
 * Selects a line of an editor by its text, from its end to its start with the keyboard (a triple click would
 * reach into the next block, and SunEditor then moves the line into it).
 */
async function selectParagraph(contents: Locator, text: string) {
  await contents.getByText(text, { exact: true }).click();
  const keyboard = contents.page().keyboard;
  await keyboard.press('End');
  await keyboard.press('Shift+Home');
}

test.beforeEach(async ({ page }) => {
  await loginAs(page, ROLE_USERS.admin);
});

test('write a tutorial with rich text, an uploaded image and a Thai font, then preview it as saved', async ({
  page,
}) => {
  const title = `Charging step by step ${Date.now()}`;
  await page.goto('/guide/new');
  await expect(page.getByRole('heading', { name: 'Create Tutorials' })).toBeVisible();
  const editor = editorOf(page, 'Detail (EN)');
  await expect(editor.locator('.se-toolbar')).toBeVisible({ timeout: 15_000 });
  // The Status switch starts active.
  await expect(field(page, 'Status').getByRole('switch')).toBeChecked();

  await field(page, 'Title (EN)').getByRole('textbox').fill(title);
  await field(page, 'Title (TH)').getByRole('textbox').fill('วิธีชาร์จทีละขั้นตอน');

  // The Thai detail first: the English one ends with an image, whose insertion takes the focus back.
  const contentsTh = contentsOf(page, 'Detail (TH)');
  await contentsTh.click();
  await page.keyboard.type('ตรวจสอบสายชาร์จก่อนใช้งานทุกครั้ง');
  await expect(contentsTh).toHaveText('ตรวจสอบสายชาร์จก่อนใช้งานทุกครั้ง');

  // Three plain lines and a 2 × 2 table first, then each line gets its formatting (typing after a styled
  // line would carry the style on).
  const contents = contentsOf(page, 'Detail (EN)');
  await contents.click();
  await page.keyboard.type('Plug in firmly');
  await page.keyboard.press('Enter');
  await page.keyboard.type('เสียบหัวชาร์จให้แน่น');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Read the manual');
  await page.keyboard.press('Enter');
  await toolbarButton(editor, 'table').click();
  const picker = page.locator('.se-table-size-picker:visible');
  await picker.hover({ position: { x: 30, y: 30 } });
  await picker.click({ position: { x: 30, y: 30 } });
  await expect(contents.locator('table td')).toHaveCount(4);
  await contents.locator('table td').first().click();
  await page.keyboard.type('Type 2');
  await contents.locator('table td').nth(1).click();
  await page.keyboard.type('22 kW');
  await expect(contents.locator('table td').nth(1)).toHaveText('22 kW');

  await selectParagraph(contents, 'Plug in firmly');
  await toolbarButton(editor, 'bold').click();
  await expect(contents.locator('strong, b')).toHaveText('Plug in firmly');

  await selectParagraph(contents, 'เสียบหัวชาร์จให้แน่น');
  await toolbarButton(editor, 'font').click();
  await page.locator('.se-list-font-family:visible button[data-command="Prompt"]').click();
  await expect(contents.locator('span[style*="Prompt"]')).toHaveText('เสียบหัวชาร์จให้แน่น');

  await selectParagraph(contents, 'Read the manual');
  await toolbarButton(editor, 'link').click();
  await editorDialog(page).locator('.se-input-url').fill('https://example.com/manual');
  await editorDialog(page).locator('button[type="submit"]').click();
  await expect(contents.locator('a[href="https://example.com/manual"]')).toHaveText('Read the manual');

  // An image through the image dialog: uploaded to /api/upload, inserted by its /uploads/ URL.
  await contents.locator('table td').nth(3).click();
  await toolbarButton(editor, 'image').click();
  const dialog = editorDialog(page);
  // Images are uploaded files only: the dialog offers no image URL field.
  await expect(dialog.locator('._se_tab_content_image .se-input-url')).toHaveCount(0);
  await dialog.locator('input[type="file"]').setInputFiles({
    name: 'connector.png',
    mimeType: 'image/png',
    buffer: png(240, 120),
  });
  const upload = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/upload' && response.request().method() === 'POST',
  );
  await dialog.locator('button.se-btn-primary[type="submit"]').click();
  expect((await upload).status()).toBe(201);
  const image = contents.locator('img');
  await expect(image).toHaveAttribute('src', /^\/uploads\/[^/]+\.png$/);
  await expect(dialog).toBeHidden();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
  await expect(contentsTh).toHaveText('ตรวจสอบสายชาร์จก่อนใช้งานทุกครั้ง');

  expect(await contents.evaluate((element) => [...element.children].map((child) => child.tagName))).toEqual([
    'P',
    'P',
    'P',
    'FIGURE',
  ]);
  await contents.locator('p').first().click();
  await shootWhole(page, 'guide-editor.png');

  const created = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/page' && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const createdResponse = await created;
  expect(createdResponse.status()).toBe(200);
  const sent = createdResponse.request().postDataJSON() as Record<string, unknown>;
  expect(sent).toMatchObject({ type: 'guide', titleEn: title, active: true });
  expect(String(sent.detailEn)).not.toContain('data:');
  const { id } = (await createdResponse.json()) as { id: number };
  await expect(page.getByText('Successfully saved data.', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/guide$/);

  // Reopened: the saved contents load into the editor, which is not an edit (no leave warning later).
  await page.goto(`/guide/${id}`);
  await expect(field(page, 'Title (EN)').getByRole('textbox')).toHaveValue(title);
  await expect(contentsOf(page, 'Detail (EN)').locator('img')).toHaveAttribute('src', /^\/uploads\//);

  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('dialog', { name: 'Preview' });
  await expect(preview).toBeVisible();
  const rendered = preview.locator('.rich-html').first();
  await expect(rendered.locator('strong, b')).toHaveText('Plug in firmly');
  await expect(rendered.locator('table td')).toHaveCount(4);
  await expect(rendered.locator('table td').first()).toHaveText('Type 2');
  await expect(rendered.locator('a[href="https://example.com/manual"]')).toHaveText('Read the manual');

  const thai = rendered.getByText('เสียบหัวชาร์จให้แน่น', { exact: true });
  expect(await thai.evaluate((element) => getComputedStyle(element).fontFamily)).toMatch(/^"?Prompt"?$/);
  // The bundled face itself loaded (not a fallback): Prompt's Thai file was fetched and is in use.
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.fonts].some(
          (face) => face.family.replace(/"/g, '') === 'Prompt' && face.status === 'loaded',
        ),
      ),
    )
    .toBe(true);
  expect(await page.evaluate(() => document.fonts.check('16px Prompt', 'เสียบ'))).toBe(true);

  const shown = rendered.locator('img');
  await expect(shown).toHaveAttribute('src', /^\/uploads\/[^/]+\.png$/);
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);

  await preview.getByRole('tab', { name: 'TH' }).click();
  await expect(preview.getByText('ตรวจสอบสายชาร์จก่อนใช้งานทุกครั้ง')).toBeVisible();
  await expect(preview.getByRole('heading', { name: 'วิธีชาร์จทีละขั้นตอน' })).toBeVisible();
  await preview.getByRole('tab', { name: 'EN' }).click();
  await expect(thai).toBeVisible();
  await shootWhole(page, 'guide-preview.png');
  await preview.getByRole('button', { name: 'Close' }).click();
  await expect(preview).toBeHidden();

  // Only opened and previewed: Cancel goes straight back, no question.
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page).toHaveURL(/\/guide$/);
  await expect(page.getByRole('dialog').filter({ hasText: LEAVE_WARNING })).toHaveCount(0);
});

test("on a slow machine every keystroke stays where the caret is (the form's late renders set nothing)", async ({
  page,
}) => {
  await page.goto('/guide/new');
  const editor = editorOf(page, 'Detail (EN)');
  await expect(editor.locator('.se-toolbar')).toBeVisible({ timeout: 15_000 });
  // A tenth of the CPU: the form's render of one keystroke lands after the next one was typed. Before the
  // editor knew its own older changes, '22 kW' typed into a table cell left '2' there and '2 kW' at the top
  // (a quarter of the runs at this rate; once in a CI run at full speed).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 10 });
  const contents = contentsOf(page, 'Detail (EN)');
  await contents.click();
  await page.keyboard.type('Plug in firmly');
  await page.keyboard.press('Enter');
  await toolbarButton(editor, 'table').click();
  const picker = page.locator('.se-table-size-picker:visible');
  await picker.hover({ position: { x: 30, y: 30 } });
  await picker.click({ position: { x: 30, y: 30 } });
  await expect(contents.locator('table td')).toHaveCount(4);
  for (const [cell, text] of [
    [0, 'Type 2'],
    [1, '22 kW'],
    [2, 'CCS2'],
    [3, '150 kW'],
  ] as const) {
    await contents.locator('table td').nth(cell).click();
    await page.keyboard.type(text);
  }
  await expect(contents.locator('table td')).toHaveText(['Type 2', '22 kW', 'CCS2', '150 kW']);
  await expect(contents.locator('p').first()).toHaveText('Plug in firmly');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
});

test('an empty editor is an empty detail; a title has at most 100 characters; leaving asks', async ({
  page,
}) => {
  await page.goto('/guide/new');
  await expect(editorOf(page, 'Detail (EN)').locator('.se-toolbar')).toBeVisible({ timeout: 15_000 });

  await field(page, 'Title (EN)').getByRole('textbox').fill('x'.repeat(101));
  // Typed and taken away again: the editor still holds its empty paragraph (<p><br></p>).
  await contentsOf(page, 'Detail (EN)').click();
  await page.keyboard.type('a');
  await page.keyboard.press('Backspace');
  await page.getByRole('button', { name: 'Save', exact: true }).click();

  await expect(field(page, 'Title (EN)')).toContainText('Please enter no more than 100 characters.');
  await expect(field(page, 'Title (TH)')).toContainText('Title (TH) is required.');
  await expect(field(page, 'Detail (EN)')).toContainText('Detail (EN) is required.');
  await expect(field(page, 'Detail (TH)')).toContainText('Detail (TH) is required.');
  await expect(editorOf(page, 'Detail (EN)').locator('xpath=..')).toHaveClass(/rich-editor-error/);

  await field(page, 'Title (EN)').getByRole('textbox').fill('x'.repeat(100));
  await expect(field(page, 'Title (EN)')).not.toContainText('Please enter no more than 100 characters.');

  // A video link other than YouTube or Vimeo is refused.
  const editor = editorOf(page, 'Detail (EN)');
  await toolbarButton(editor, 'video').click();
  await editorDialog(page).locator('.se-input-url').fill('https://www.dailymotion.com/video/x7tgad0');
  await editorDialog(page).locator('button[type="submit"]').click();
  await expect(page.locator('.ant-notification-notice')).toContainText(
    'Only YouTube and Vimeo links can be embedded.',
  );
  await expect(contentsOf(page, 'Detail (EN)').locator('iframe')).toHaveCount(0);
  // A YouTube watch link becomes a sandboxed player.
  await editorDialog(page).locator('.se-input-url').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
  await editorDialog(page).locator('button[type="submit"]').click();
  const player = contentsOf(page, 'Detail (EN)').locator('iframe');
  await expect(player).toHaveAttribute('src', 'https://www.youtube.com/embed/dQw4w9WgXcQ');
  await expect(player).toHaveAttribute(
    'sandbox',
    'allow-scripts allow-same-origin allow-presentation allow-popups',
  );

  // A file that is not an image is refused before it is sent (in the other editor: the player is selected,
  // and a selected component disables the toolbar of its own).
  await toolbarButton(editorOf(page, 'Detail (TH)'), 'image').click();
  await editorDialog(page)
    .locator('input[type="file"]')
    .setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not an image'),
    });
  await editorDialog(page).locator('button.se-btn-primary[type="submit"]').click();
  await expect(
    page.locator('.ant-notification-notice').filter({ hasText: 'Only PNG, JPEG, GIF and WebP' }),
  ).toBeVisible();
  await editorDialog(page).locator('button[data-command="close"]').click();

  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  const warning = page.getByRole('dialog').filter({ hasText: LEAVE_WARNING });
  await expect(warning).toBeVisible();
  await answer(warning, 'Yes');
  await expect(page).toHaveURL(/\/guide$/);
});

test('a pasted image file is uploaded, and a base64 image in pasted HTML is left out', async ({ page }) => {
  await page.goto('/guide/new');
  const editor = editorOf(page, 'Detail (EN)');
  await expect(editor.locator('.se-toolbar')).toBeVisible({ timeout: 15_000 });
  const contents = contentsOf(page, 'Detail (EN)');
  await contents.click();
  await page.keyboard.type('Before the picture');

  // What the clipboard holds after copying an image: the file alone.
  const upload = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/upload' && response.request().method() === 'POST',
  );
  const bytes = [...png(200, 100)];
  await contents.evaluate((element, data) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], 'pasted.png', { type: 'image/png' }));
    element.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, bytes);
  expect((await upload).status()).toBe(201);
  const image = contents.locator('img');
  await expect(image).toHaveAttribute('src', /^\/uploads\/[^/]+\.png$/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(200);

  // HTML copied from another page with an inline base64 image: the text comes in, the data: image does not.
  const dataUrl = `data:image/png;base64,${png(20, 20).toString('base64')}`;
  await contents.locator('p').first().click();
  await page.keyboard.press('End');
  await contents.evaluate((element, html) => {
    const transfer = new DataTransfer();
    transfer.setData('text/html', html);
    transfer.setData('text/plain', 'Pasted words');
    element.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, `<p>Pasted words <img src="${dataUrl}" alt="inline"></p>`);
  await expect(contents).toContainText('Pasted words');
  await expect(contents.locator('img')).toHaveCount(1);
  expect(await contents.innerHTML()).not.toContain('data:');
});

test("the Formats list offers document 3's formats, div included, and a line becomes a div", async ({
  page,
}) => {
  await page.goto('/guide/new');
  const editor = editorOf(page, 'Detail (EN)');
  await expect(editor.locator('.se-toolbar')).toBeVisible({ timeout: 15_000 });
  const contents = contentsOf(page, 'Detail (EN)');
  await contents.click();
  await page.keyboard.type('A plain block');
  await toolbarButton(editor, 'blockStyle').click();
  const formats = page.locator('.se-list-format:visible button');
  await expect(formats).toHaveText([
    'Paragraph',
    'Normal (DIV)',
    'Header1',
    'Header2',
    'Header3',
    'Header4',
    'Header5',
    'Header6',
  ]);
  await formats.filter({ hasText: 'Normal (DIV)' }).click();
  await expect(contents.locator('div', { hasText: 'A plain block' })).toHaveCount(1);
  await expect(contents.locator('p', { hasText: 'A plain block' })).toHaveCount(0);
});
