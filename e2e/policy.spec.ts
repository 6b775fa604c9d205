import { loginAs, notification } from './fixtures/auth.ts';
import { clearData, confirmDelete, opened, pick, rangeText, rows, rowWith, search } from './fixtures/list.ts';
import { answerDiscard, discardConfirm, field, modal, saveModal } from './fixtures/modal.ts';
import { createPage, staffHeaders, uniqueTitle } from './fixtures/pages.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Locator, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/**
 * Term&Condition (/term-condition) and Privacy Policy (/privacy-policy). Only drafts are made here:
 * publishing changes what every user must accept, so it is tested alone (publish-terms.spec.ts).
 */

const SCREENS = {
  terms: {
    path: '/term-condition',
    title: 'Term&Condition',
    newButton: 'New Term&Condition',
    noun: 'Term&Condition',
  },
  privacy: {
    path: '/privacy-policy',
    title: 'Privacy Policy',
    newButton: 'New Policy',
    noun: 'Privacy Policy',
  },
} as const;

const statusTag = (row: Locator) => row.locator('.ant-tag');
const editor = (dialog: Locator, label: string) => dialog.getByRole('textbox', { name: label, exact: true });

/** Photographs a modal whole: a window tall enough for it, the dialog scrolled to its top. */
async function shootModal(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 1500 });
  await page.locator('.ant-modal-wrap:visible').evaluate((wrap) => wrap.scrollTo(0, 0));
  // No toolbar hint left open under the pointer.
  await page.mouse.move(0, 0);
  await shoot(page, name);
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function typeInto(page: Page, box: Locator, text: string) {
  await box.click();
  await page.keyboard.type(text);
  await expect(box).toContainText(text);
}

test.beforeEach(async ({ page }) => {
  await loginAs(page, ROLE_USERS.admin);
});

test('Term&Condition: a draft made, checked, edited, cancelled with changes and deleted', async ({
  page,
}) => {
  const screen = SCREENS.terms;
  const title = uniqueTitle('E2E Terms');
  await page.goto(screen.path);
  await expect(page.getByRole('heading', { name: screen.title, exact: true })).toBeVisible();
  // The page in force is Published and can't be deleted.
  const inForce = rowWith(page, 'Terms and Conditions');
  await expect(statusTag(inForce.first())).toHaveText('Published');
  await expect(inForce.first().getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  // Update Date: day/month/year in the Thai (Buddhist) calendar.
  await expect(inForce.first()).toContainText(/\d{2}\/\d{2}\/25\d{2}/);

  await page.getByRole('button', { name: screen.newButton }).click();
  const dialog = modal(page, 'New Term&Condition');
  await opened(dialog);
  // A new page starts as a Draft.
  await expect(dialog.getByRole('switch')).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Save' }).click();
  for (const message of [
    'Title (EN) is required.',
    'Title (TH) is required.',
    'Detail (EN) is required.',
    'Detail (TH) is required.',
  ]) {
    await expect(dialog.getByText(message, { exact: true })).toBeVisible();
  }
  // At most 255 characters: what was typed stays, and the rule says why it can't be saved.
  await field(dialog, 'Title (EN)').fill('x'.repeat(300));
  await expect(field(dialog, 'Title (EN)')).toHaveValue('x'.repeat(300));
  await expect(dialog.getByText('Please enter no more than 255 characters.', { exact: true })).toBeVisible();
  await field(dialog, 'Title (EN)').fill('   ');
  await expect(dialog.getByText('Title (EN) is required.', { exact: true })).toBeVisible();
  await field(dialog, 'Title (EN)').fill(title);
  await field(dialog, 'Title (TH)').fill(`${title} ไทย`);
  await typeInto(page, editor(dialog, 'Detail (EN)'), 'Draft terms in English.');
  await typeInto(page, editor(dialog, 'Detail (TH)'), 'ร่างข้อกำหนดภาษาไทย');
  await expect(dialog.getByText('Detail (EN) is required.', { exact: true })).toHaveCount(0);
  await shootModal(page, 'term-condition-modal.png');
  await saveModal(page, dialog, 'POST', '/api/page');

  const row = rowWith(page, title);
  await expect(row).toHaveCount(1);
  await expect(statusTag(row)).toHaveText('Draft');
  await expect(row).toContainText(`${title} ไทย`);

  // Edit: the saved details are back; a change cancelled asks first.
  await row.getByRole('button', { name: `Edit ${title}` }).click();
  const edit = modal(page, 'Edit Term&Condition');
  await opened(edit);
  await expect(field(edit, 'Title (EN)')).toHaveValue(title);
  await expect(editor(edit, 'Detail (EN)')).toContainText('Draft terms in English.');
  await expect(editor(edit, 'Detail (TH)')).toContainText('ร่างข้อกำหนดภาษาไทย');
  // Opened and closed untouched: no question.
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(edit).toBeHidden();
  await expect(discardConfirm(page)).toHaveCount(0);

  await row.getByRole('button', { name: `Edit ${title}` }).click();
  await opened(edit);
  await field(edit, 'Title (EN)').fill(`${title} edited`);
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(discardConfirm(page)).toContainText('Changes will not be saved. Do you want to proceed ?');
  await answerDiscard(page, 'No');
  await expect(field(edit, 'Title (EN)')).toHaveValue(`${title} edited`);
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await answerDiscard(page, 'Yes');
  await expect(edit).toBeHidden();
  await expect(rowWith(page, `${title} edited`)).toHaveCount(0);

  await row.getByRole('button', { name: `Edit ${title}` }).click();
  await opened(edit);
  await field(edit, 'Title (EN)').fill(`${title} edited`);
  await typeInto(page, editor(edit, 'Detail (EN)'), ' More.');
  await saveModal(page, edit, 'PATCH', '/api/page/');
  const edited = rowWith(page, `${title} edited`);
  await expect(statusTag(edited)).toHaveText('Draft');

  // A draft can be deleted.
  await edited.getByRole('button', { name: `Delete ${title} edited` }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: `Delete ${title} edited?` });
  await confirmDelete(confirm);
  await expect(notification(page, 'Deleted Successfully !')).toBeVisible();
  await expect(rowWith(page, title)).toHaveCount(0);
});

test('Privacy Policy: the Title and Status filters, the Published and Draft tags, the modal', async ({
  page,
  request,
}) => {
  const screen = SCREENS.privacy;
  const headers = await staffHeaders(request);
  const title = uniqueTitle('E2E Privacy');
  const titleTh = `${title} นโยบาย`;
  await createPage(request, headers, 'privacy', { titleEn: title, titleTh, active: false });

  await page.goto(screen.path);
  await expect(page.getByRole('heading', { name: screen.title, exact: true })).toBeVisible();
  await expect(statusTag(rowWith(page, title))).toHaveText('Draft');

  // Title (EN/TH): one page, by either title.
  await pick(page, 'Title (EN/TH)', `${title} / ${titleTh}`);
  await search(page);
  await expect(rangeText(page)).toHaveText('1-1 of 1');
  await expect(rows(page).first()).toContainText(title);

  // Status: Published pages only, then Draft only.
  await clearData(page);
  await pick(page, 'Status', 'Published');
  await search(page);
  await expect(page).toHaveURL(/[?&]active=true(&|$)/);
  await expect(rowWith(page, 'Privacy Policy').first()).toBeVisible();
  await expect(rowWith(page, title)).toHaveCount(0);
  for (const tag of await rows(page).locator('.ant-tag').allTextContents()) expect(tag).toBe('Published');
  await pick(page, 'Status', 'Draft');
  await search(page);
  await expect(rowWith(page, title)).toBeVisible();
  for (const tag of await rows(page).locator('.ant-tag').allTextContents()) expect(tag).toBe('Draft');
  await clearData(page);
  await expect(page.locator('.ant-table .ant-spin-spinning')).toHaveCount(0);
  await shoot(page, 'privacy-policy-list.png');

  await page.getByRole('button', { name: screen.newButton }).click();
  const dialog = modal(page, 'New Privacy Policy');
  await opened(dialog);
  // 65% of the window above 1000 px.
  const box = await page.locator('.ant-modal').filter({ hasText: 'New Privacy Policy' }).boundingBox();
  expect(Math.round(box?.width ?? 0)).toBe(Math.round(1440 * 0.65));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Title (TH) is required.', { exact: true })).toBeVisible();
  await expect(dialog.getByText('Detail (TH) is required.', { exact: true })).toBeVisible();
  await shootModal(page, 'privacy-policy-modal.png');
  // Nothing typed: Cancel closes at once.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await rowWith(page, title)
    .getByRole('button', { name: `Edit ${title}` })
    .click();
  const edit = modal(page, 'Edit Privacy Policy');
  await opened(edit);
  await expect(field(edit, 'Title (TH)')).toHaveValue(titleTh);
  await expect(editor(edit, 'Detail (TH)')).toContainText('ข้อความภาษาไทย');
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(edit).toBeHidden();
});

test('the Term&Condition list as photographed', async ({ page, request }) => {
  const headers = await staffHeaders(request);
  await createPage(request, headers, 'terms', {
    titleEn: uniqueTitle('E2E Terms draft'),
    titleTh: 'ร่างข้อกำหนด',
    active: false,
  });
  await page.goto('/term-condition');
  await expect(rowWith(page, 'Terms and Conditions').first()).toBeVisible();
  await shoot(page, 'term-condition-list.png');
});

test('the public pages show the page in force: Thai with ?languages=th, else English', async ({
  page,
  request,
}) => {
  for (const type of ['terms', 'privacy'] as const) {
    const response = await request.get(`/api/${type}`);
    expect(response.ok()).toBe(true);
    const inForce = ((await response.json()) as Record<string, { detailEn: string; detailTh: string }>)[
      type
    ]!;
    /** The first words of the text the page must show: the first piece of text between tags. */
    const opening = (html: string) =>
      (
        html
          .split(/<[^>]*>/)
          .map((text) =>
            text
              .replace(/&nbsp;/g, ' ')
              .replace(/&amp;/g, '&')
              .replace(/\s+/g, ' ')
              .trim(),
          )
          .find((text) => text.length >= 10) ?? ''
      )
        .slice(0, 40)
        .trim();
    const path = type === 'terms' ? '/terms-and-conditions' : '/privacy-polices';
    await page.goto(path);
    await expect(page.getByRole('article').locator('.rich-text')).toContainText(opening(inForce.detailEn));
    await page.goto(`${path}?languages=th`);
    await expect(page.getByRole('article').locator('.rich-text')).toContainText(opening(inForce.detailTh));
  }
});
