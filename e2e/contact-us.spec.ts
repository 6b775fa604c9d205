import { loginAs, openAs, userDetailRow } from './fixtures/auth.ts';
import { LEAVE_WARNING } from './fixtures/list.ts';
import { answerDiscard } from './fixtures/modal.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

// One worker, in order: the save test changes the one contact row the other tests read.
// The demo's details: tools/src/demo-contact.ts.
test.describe.configure({ mode: 'default' });

/** A row of the read-only view, by its label (the same bordered table as User Detail). */
const row = (page: Page, label: string) => userDetailRow(page, label);
const noteDialog = (page: Page) => page.getByRole('dialog').filter({ hasText: 'Note' });
const field = (page: Page, label: string) => noteDialog(page).getByLabel(label, { exact: true });
const openNote = async (page: Page) => {
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(noteDialog(page)).toBeVisible();
};

test.describe('as admin', () => {
  test.beforeEach(async ({ page }) => {
    await openAs(page, ROLE_USERS.admin, '/contact-us');
    await expect(page.getByRole('heading', { name: 'Contact Us' })).toBeVisible();
  });

  test('contact view and Note dialog screenshots', async ({ page }) => {
    await expect(row(page, 'Call Center')).toContainText('02-123-45678');
    await shoot(page, 'contact-us.png');
    await openNote(page);
    await expect(field(page, 'Email Support')).toHaveValue('support@evct.co.th');
    await shoot(page, 'contact-us-note.png');
  });

  test('shows the details read-only: mail link, dashed number, links, multi-line address, versions', async ({
    page,
  }) => {
    const email = row(page, 'Email Support').getByRole('link');
    await expect(email).toHaveText('support@evct.co.th');
    await expect(email).toHaveAttribute('href', 'mailto:support@evct.co.th');
    await expect(row(page, 'Call Center')).toContainText('02-123-45678');
    await expect(row(page, 'Facebook').getByRole('link')).toHaveAttribute(
      'href',
      'https://www.facebook.com/evchargingthailand',
    );
    await expect(row(page, 'Instagram').getByRole('link')).toHaveAttribute(
      'href',
      'https://www.instagram.com/evchargingthailand',
    );
    const line = row(page, 'LINE').getByRole('link');
    await expect(line).toHaveText('@evchargingth');
    await expect(line).toHaveAttribute('href', 'https://line.me/R/ti/p/%40evchargingth');
    await expect(line).toHaveAttribute('target', '_blank');
    // Three lines, as typed.
    const address = row(page, 'Address').locator('td');
    expect(await address.innerText()).toBe(
      '88 Sukhumvit Road, 12th Floor\nKhlong Toei, Bangkok 10110\nThailand',
    );
    await expect(row(page, 'Minimum Version (Android)')).toContainText('2.8.0');
    await expect(row(page, 'Minimum Version (iOS)')).toContainText('2.8.1');
    // Read-only: nothing to type in until Edit.
    await expect(page.getByRole('textbox')).toHaveCount(0);
  });

  test('the Note dialog asks before discarding changes, and closes at once when unchanged', async ({
    page,
  }) => {
    await openNote(page);
    // 95% wide up to 1000 px, 65% above (this window is 1440 px).
    const modalWidth = async () => Math.round((await page.locator('.ant-modal').boundingBox())?.width ?? 0);
    await expect.poll(modalWidth).toBe(Math.round(1440 * 0.65));
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(noteDialog(page)).toBeHidden();

    await openNote(page);
    await field(page, 'LINE').fill('@changed');
    await page.getByRole('button', { name: 'Cancel' }).click();
    const discard = page.getByRole('dialog').filter({ hasText: 'Discard changes' });
    await expect(discard).toContainText(LEAVE_WARNING);
    await answerDiscard(page, 'No');
    await expect(discard).toBeHidden();
    await expect(field(page, 'LINE')).toHaveValue('@changed');

    await page.getByRole('button', { name: 'Cancel' }).click();
    await answerDiscard(page, 'Yes');
    await expect(noteDialog(page)).toBeHidden();
    await expect(row(page, 'LINE')).toContainText('@evchargingth');
    // Opened again, it starts from the saved details.
    await openNote(page);
    await expect(field(page, 'LINE')).toHaveValue('@evchargingth');
  });

  test('the Note dialog checks its fields as the server does', async ({ page }) => {
    await openNote(page);
    const save = noteDialog(page).getByRole('button', { name: 'Save' });
    await field(page, 'Email Support').fill('');
    await field(page, 'Call Center').fill('021234567');
    await field(page, 'LINE').fill('   ');
    await save.click();
    const dialog = noteDialog(page);
    await expect(dialog.getByText('Email Support is required.', { exact: true })).toBeVisible();
    await expect(
      dialog.getByText('Call Center must have at least 10 digits.', { exact: true }),
    ).toBeVisible();
    await expect(dialog.getByText('LINE is required.', { exact: true })).toBeVisible();
    await field(page, 'Email Support').fill('   ');
    await expect(dialog.getByText('Email Support is not whitespace', { exact: true })).toBeVisible();
    await field(page, 'Email Support').fill('not-an-email');
    await expect(dialog.getByText("Email isn't correct.", { exact: true })).toBeVisible();
    await field(page, 'Call Center').fill('   ');
    await expect(dialog.getByText('Call Center is not whitespace', { exact: true })).toBeVisible();
    // Email Support takes 20 characters, Call Center 50.
    await expect(field(page, 'Email Support')).toHaveAttribute('maxlength', '20');
    await expect(field(page, 'Call Center')).toHaveAttribute('maxlength', '50');
    await expect(field(page, 'Address')).toHaveAttribute('maxlength', '255');
  });

  test('a save shows the success popup, closes the dialog and reloads the view', async ({ page }) => {
    await openNote(page);
    await field(page, 'Call Center').fill('08-1234-5678');
    await field(page, 'Instagram').fill('');
    await field(page, 'Facebook').fill('@evct.fanpage');
    await field(page, 'Address').fill('1 Silom Road\nBang Rak\nBangkok 10500');
    await field(page, 'Minimum Version (iOS)').fill('3.0.0');

    const saved = page.waitForResponse(
      (response) => response.request().method() === 'PATCH' && response.url().endsWith('/api/contact-us'),
    );
    const reloaded = page.waitForResponse(
      (response) => response.request().method() === 'GET' && response.url().endsWith('/api/contact-us'),
    );
    await noteDialog(page).getByRole('button', { name: 'Save' }).click();
    expect((await saved).ok()).toBe(true);
    await expect(page.getByText('Successfully saved data.', { exact: true })).toBeVisible();
    expect((await reloaded).ok()).toBe(true);
    await expect(noteDialog(page)).toBeHidden();

    await expect(row(page, 'Call Center')).toContainText('08-123-45678');
    await expect(row(page, 'Instagram')).toHaveText(/Instagram\s*-$/);
    await expect(row(page, 'Instagram').getByRole('link')).toHaveCount(0);
    await expect(row(page, 'Facebook').getByRole('link')).toHaveAttribute(
      'href',
      'https://www.facebook.com/evct.fanpage',
    );
    expect(await row(page, 'Address').locator('td').innerText()).toBe(
      '1 Silom Road\nBang Rak\nBangkok 10500',
    );
    await expect(row(page, 'Minimum Version (iOS)')).toContainText('3.0.0');

    // Still there after a reload, the number stored as its digits.
    await page.reload();
    await expect(row(page, 'Call Center')).toContainText('08-123-45678');
    await openNote(page);
    await expect(field(page, 'Call Center')).toHaveValue('0812345678');
    await expect(field(page, 'Instagram')).toHaveValue('');
  });
});

test('marketting may edit the contact details', async ({ page }) => {
  await loginAs(page, ROLE_USERS.marketting);
  await page.getByTestId('sidebar-menu').getByText('Contact Us').click();
  await expect(page).toHaveURL(/\/contact-us$/);
  // The view's Edit (its icon adds 'edit' to the name), not the profile page's 'Edit Name-Surname' or
  // 'Edit Password' while that page is still being replaced.
  await expect(page.getByRole('button', { name: /Edit$/ })).toBeEnabled();
});

test('roles outside admin and marketting see the 403 page', async ({ page }) => {
  await loginAs(page, ROLE_USERS.callcenter);
  await expect(page.getByTestId('sidebar-menu')).not.toContainText('Contact Us');
  await page.goto('/contact-us');
  await expect(page.getByText('Sorry, you are not authorized to access this page.')).toBeVisible();
});
