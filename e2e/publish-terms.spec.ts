import { loginThroughUi, openAs, userDetailRow } from './fixtures/auth.ts';
import { opened, rowWith } from './fixtures/list.ts';
import { field, modal, saveModal, setSwitch } from './fixtures/modal.ts';
import { uniqueTitle } from './fixtures/pages.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Locator, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

/**
 * Publishing new terms asks every staff user to accept them again, so this spec runs alone, after every
 * other (the 'after-all' project of playwright.config.ts): a user of a spec running beside it would be sent
 * to /landing.
 */

const editor = (dialog: Locator, label: string) => dialog.getByRole('textbox', { name: label, exact: true });

async function typeInto(page: Page, box: Locator, text: string) {
  await box.click();
  await page.keyboard.type(text);
  await expect(box).toContainText(text);
}

test('published terms are in force: a staff user signing in accepts them at /landing, the public page shows them', async ({
  page,
  browser,
}) => {
  const title = uniqueTitle('E2E Published Terms');
  const textEn = `These are the new terms ${title}.`;
  const textTh = `ข้อกำหนดฉบับใหม่ ${title}`;

  // As admin: a draft first, then published through the modal's switch.
  await openAs(page, ROLE_USERS.admin, '/term-condition');
  await page.getByRole('button', { name: 'New Term&Condition' }).click();
  const dialog = modal(page, 'New Term&Condition');
  await opened(dialog);
  await field(dialog, 'Title (EN)').fill(title);
  await field(dialog, 'Title (TH)').fill(`${title} ไทย`);
  await typeInto(page, editor(dialog, 'Detail (EN)'), textEn);
  await typeInto(page, editor(dialog, 'Detail (TH)'), textTh);
  await saveModal(page, dialog, 'POST', '/api/page');
  await expect(rowWith(page, title).locator('.ant-tag')).toHaveText('Draft');

  await rowWith(page, title)
    .getByRole('button', { name: `Edit ${title}` })
    .click();
  const edit = modal(page, 'Edit Term&Condition');
  await setSwitch(edit, 'Status', true);
  await saveModal(page, edit, 'PATCH', '/api/page/');
  const row = rowWith(page, title);
  await expect(row.locator('.ant-tag')).toHaveText('Published');
  // In force: it can't be deleted.
  await expect(row.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  await expect(page.getByText('Successfully saved data.', { exact: true })).toBeHidden();
  await shoot(page, 'term-condition-published.png');

  // Another staff user signing in must accept the new terms first.
  const context = await browser.newContext();
  const other = await context.newPage();
  await loginThroughUi(other, ROLE_USERS.callcenter);
  await expect(other).toHaveURL(/\/landing$/, { timeout: 20_000 });
  const box = other.getByRole('document', { name: 'Term&Condition and Privacy Policy text' });
  // The Thai text of the page in force, not of the one before it.
  await expect(box).toContainText(textTh);
  await expect(box.getByRole('heading', { name: 'ข้อกำหนดและเงื่อนไข', exact: true })).toHaveCount(0);
  await shoot(other, 'landing-new-terms.png');
  await box.evaluate((element) => {
    element.scrollTop = element.scrollHeight;
    element.dispatchEvent(new Event('scroll'));
  });
  await other.getByRole('checkbox', { name: 'I agree with Term&Condition' }).check();
  await other.getByRole('checkbox', { name: 'I agree with Privacy Policy' }).check();
  await other.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(other).toHaveURL(/\/user-detail$/);
  await expect(userDetailRow(other, 'Email')).toContainText(ROLE_USERS.callcenter);

  // The public pages show it too: English, and Thai with ?languages=th.
  await other.goto('/terms-and-conditions');
  await expect(other.getByRole('article')).toContainText(textEn);
  await other.goto('/terms-and-conditions?languages=th');
  await expect(other.getByRole('article')).toContainText(textTh);
  await context.close();
});
