import { loginAs, notification } from './fixtures/auth.ts';
import {
  clearData,
  confirmDelete,
  exportSheet,
  LEAVE_WARNING,
  rangeText,
  rows,
  rowWith,
  search,
  sortBy,
} from './fixtures/list.ts';
import {
  answerDiscard,
  choose,
  discardConfirm,
  field,
  modal,
  pickFilter,
  saveModal,
  selectedValue,
  setSwitch,
} from './fixtures/modal.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Locator, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

// One worker, in order: the create test adds a member that the filter tests would count.
test.describe.configure({ mode: 'default' });

/** The list's cells: Type, Name-Surname, Email, Verify Email, Mobile Number, Verify Mobile Number, Status. */
const cell = (row: Locator, index: number) => row.locator('td').nth(index);
/** A text filter of the filter bar. */
const filterBox = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });

test.describe('as admin', () => {
  test.beforeEach(async ({ page }) => {
    await loginAs(page, ROLE_USERS.admin);
  });

  test('filter by name, email, number, verification and type; every column sorts', async ({ page }) => {
    await page.goto('/member-mobile-user');
    await expect(page.getByRole('heading', { name: 'Member Mobile User' })).toBeVisible();
    await expect(rangeText(page)).toHaveText('1-10 of 40');

    await filterBox(page, 'Name-Surname').fill('somchai');
    await filterBox(page, 'Name-Surname').press('Enter');
    await expect(rangeText(page)).toHaveText('1-1 of 1');
    await expect(page).toHaveURL(/name=somchai/);
    const somchai = rows(page).first();
    for (const [index, text] of [
      'Mobile',
      'Somchai Jaidee',
      'somchai.jaidee@example.com',
      'Verified',
      '0812233445',
      'Verified',
      'Available',
    ].entries()) {
      await expect(cell(somchai, index)).toHaveText(text);
    }
    await clearData(page);
    await expect(rangeText(page)).toHaveText('1-10 of 40');

    await filterBox(page, 'Email').fill('example.co.th');
    await search(page);
    await expect(rangeText(page)).toHaveText('1-8 of 8');
    await clearData(page);

    await filterBox(page, 'Mobile Number').fill('0891234567');
    await search(page);
    await expect(rangeText(page)).toHaveText('1-1 of 1');
    await expect(cell(rows(page).first(), 1)).toHaveText('สมหญิง ใจงาม');
    await clearData(page);

    await pickFilter(page, 'Verify Email', 'Not Verified');
    await pickFilter(page, 'Verify Mobile Number', 'Not Verified');
    await search(page);
    await expect(page).toHaveURL(/emailVerified=false&telVerified=false/);
    await expect(rangeText(page)).toHaveText('1-4 of 4');
    for (const column of [4, 6]) {
      const texts = await rows(page).locator(`td:nth-child(${column})`).allTextContents();
      expect(texts).toEqual(['Not Verified', 'Not Verified', 'Not Verified', 'Not Verified']);
    }
    await expect(rowWith(page, 'krit.sombat@example.com')).toContainText('Locked');
    await clearData(page);

    await pickFilter(page, 'Type', 'Ruejai');
    await search(page);
    await expect(rangeText(page)).toHaveText('1-9 of 9');
    for (const type of await rows(page).locator('td:nth-child(1)').allTextContents())
      expect(type).toBe('Ruejai');
    await clearData(page);

    for (const [title, key] of [
      ['Type', 'partnerUserType'],
      ['Name-Surname', 'name'],
      ['Email', 'email'],
      ['Verify Email', 'emailVerified'],
      ['Mobile Number', 'tel'],
      ['Verify Mobile Number', 'telVerified'],
      ['Status', 'active'],
    ] as const) {
      await sortBy(page, title, key, 'asc');
    }
    await expect(cell(rows(page).first(), 6)).toHaveText('Locked');
    await sortBy(page, 'Status', 'active', 'desc');
    await expect(cell(rows(page).first(), 6)).toHaveText('Available');
  });

  test('export the filtered members, and a search with no match', async ({ page }) => {
    await page.goto('/member-mobile-user?type=ruejai');
    await expect(rangeText(page)).toHaveText('1-9 of 9');
    const sheet = await exportSheet(page, /^User-Mobile_\d{14}\.xlsx$/);
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Type',
      'Name-Surname',
      'Email',
      'Verify Email',
      'Mobile Number',
      'Verify Mobile Number',
      'Status',
    ]);
    expect(sheet.rowCount).toBe(10);
    for (let index = 2; index <= 10; index++) expect(sheet.getRow(index).getCell(1).value).toBe('Ruejai');

    await filterBox(page, 'Email').fill('nobody-here');
    await search(page);
    await expect(page.getByText('No Data yet!')).toBeVisible();
    await page.getByRole('button', { name: 'Export' }).click();
    await expect(notification(page, 'No matched user mobile found')).toBeVisible();
  });

  test('create a member (Active starts off), edit it, switch it on and off, and delete it', async ({
    page,
  }) => {
    const email = `e2e-member-${Date.now()}@example.com`;
    await page.goto('/member-mobile-user');
    await page.getByRole('button', { name: 'New Mobile User' }).click();
    const dialog = modal(page, 'New Mobile User');
    await expect(dialog.getByRole('switch', { name: 'Active' })).not.toBeChecked();
    await expect(dialog.getByRole('switch', { name: 'Verify Email' })).not.toBeChecked();
    await expect(selectedValue(dialog, 'Mobile')).toBeVisible();

    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Email is required.', { exact: true })).toBeVisible();
    await field(dialog, 'Email').fill('   ');
    await expect(dialog.getByText('Email is not whitespace', { exact: true })).toBeVisible();
    await field(dialog, 'Email').fill('member@');
    await expect(dialog.getByText("Email isn't correct.", { exact: true })).toBeVisible();
    await field(dialog, 'Phone Number').fill('08-12');
    await expect(dialog.getByText('Phone Number must be digits.', { exact: true })).toBeVisible();

    // Name, Surname and Phone Number are optional: Email alone would do; fill them anyway.
    await field(dialog, 'Email').fill(email);
    await field(dialog, 'Name').fill('Test');
    await field(dialog, 'Surname').fill('Member');
    await field(dialog, 'Phone Number').fill('0812345699');
    await choose(page, dialog, 'Type', 'Ruejai');
    await saveModal(page, dialog, 'POST', '/api/user');
    await expect(dialog).toBeHidden();

    await filterBox(page, 'Email').fill(email);
    await search(page);
    const row = rowWith(page, email);
    for (const [index, text] of [
      'Ruejai',
      'Test Member',
      email,
      'Not Verified',
      '0812345699',
      'Not Verified',
      'Locked',
    ].entries()) {
      await expect(cell(row, index)).toHaveText(text);
    }
    await expect(row.getByRole('button', { name: `Delete ${email}` })).toBeVisible();

    await row.getByRole('button', { name: /^Edit/ }).click();
    const edit = modal(page, 'Edit Mobile User');
    await expect(field(edit, 'Email')).toHaveValue(email);
    await expect(field(edit, 'Phone Number')).toHaveValue('0812345699');
    await setSwitch(edit, 'Active', true);
    await setSwitch(edit, 'Verify Email', true);
    await saveModal(page, edit, 'PATCH', '/api/user/');
    await expect(cell(row, 3)).toHaveText('Verified');
    await expect(cell(row, 6)).toHaveText('Available');
    await expect(row.getByRole('button', { name: `Delete ${email}` })).toHaveCount(0);

    await row.getByRole('button', { name: /^Edit/ }).click();
    await expect(edit.getByRole('switch', { name: 'Active' })).toBeChecked();
    await setSwitch(edit, 'Active', false);
    await saveModal(page, edit, 'PATCH', '/api/user/');
    await expect(cell(row, 6)).toHaveText('Locked');
    await row.getByRole('button', { name: `Delete ${email}` }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: `Delete ${email}?` });
    await expect(confirm).toContainText(`Do you want to delete this ${email}?`);
    await confirmDelete(confirm);
    await expect(notification(page, 'Deleted Successfully !')).toBeVisible();
    await expect(rowWith(page, email)).toHaveCount(0);
  });

  test('cancelling a changed modal asks first; a taken email is refused', async ({ page }) => {
    await page.goto('/member-mobile-user');
    await page.getByRole('button', { name: 'New Mobile User' }).click();
    const dialog = modal(page, 'New Mobile User');
    await field(dialog, 'Email').fill('Somchai.Jaidee@example.com');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(discardConfirm(page)).toContainText(LEAVE_WARNING);
    await answerDiscard(page, 'No');
    await expect(dialog).toBeVisible();

    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(notification(page, 'Something went wrong !')).toContainText(
      'This email is already used by another user.',
    );
    await expect(
      dialog.getByText('This email is already used by another user.', { exact: true }),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await answerDiscard(page, 'Yes');
    await expect(dialog).toBeHidden();
  });

  test("a member's id tags: an RFID card added, blocked, unblocked and removed; a taken tag refused", async ({
    page,
  }) => {
    await page.goto('/member-mobile-user?email=somchai.jaidee');
    await rowWith(page, 'somchai.jaidee@example.com').getByRole('button', { name: /^Edit/ }).click();
    const dialog = modal(page, 'Edit Mobile User');
    const tags = dialog.getByTestId('id-tags');
    const tagRow = (text: string) => tags.locator('tbody tr').filter({ hasText: text });
    // The app's own tag, read-only (demo tags are APP and 16 hex digits).
    await expect(tagRow('App')).toContainText(/APP[0-9A-F]{16}/);
    await expect(tagRow('App')).toContainText('Read-only');

    await field(tags, 'RFID card').fill('04A1-B2C3');
    await field(tags, 'Valid until').click();
    await field(tags, 'Valid until').fill('31/12/2030');
    await field(tags, 'Valid until').press('Tab');
    await tags.getByRole('button', { name: 'Add card' }).click();
    await expect(notification(page, 'Card 04A1-B2C3 added')).toBeVisible();
    const card = tagRow('04A1-B2C3');
    await expect(card).toContainText('RFID card');
    // Its last day, in the Thai calendar (2030 + 543).
    await expect(card).toContainText('31/12/2573');
    await expect(card.getByText('Valid', { exact: true })).toBeVisible();
    // Added once, the form empty again and without complaint.
    await expect(field(tags, 'RFID card')).toHaveValue('');
    await expect(tags.locator('.ant-form-item-explain-error')).toHaveCount(0);

    await card.getByRole('button', { name: 'Block' }).click();
    await expect(notification(page, 'Card 04A1-B2C3 blocked')).toBeVisible();
    await expect(card.getByText('Blocked', { exact: true })).toBeVisible();
    await shoot(page, 'mobile-user-id-tags.png');
    await card.getByRole('button', { name: 'Unblock' }).click();
    await expect(card.getByText('Valid', { exact: true })).toBeVisible();

    // The same tag in another case is taken all the same: the server says why, on the field.
    await field(tags, 'RFID card').fill('04a1-b2c3');
    await tags.getByRole('button', { name: 'Add card' }).click();
    await expect(
      tags.getByText('This id tag is already registered (id tags are compared without regard to case).'),
    ).toBeVisible();
    await field(tags, 'RFID card').fill('bad card ');
    await expect(tags.getByText(/Id tag takes printable ASCII only/)).toBeVisible();

    await card.getByRole('button', { name: 'Remove' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Remove card 04A1-B2C3?' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect(notification(page, 'Card 04A1-B2C3 removed')).toBeVisible();
    await expect(card).toHaveCount(0);
    // The cards save by themselves: the member's form is unchanged, and Cancel closes it at once.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });

  test('screenshots: member list and modal', async ({ page }) => {
    await page.goto('/member-mobile-user');
    await expect(rangeText(page)).toHaveText('1-10 of 40');
    await shoot(page, 'mobile-user-list.png');
    await rowWith(page, 'somchai.jaidee@example.com').getByRole('button', { name: /^Edit/ }).click();
    const dialog = modal(page, 'Edit Mobile User');
    await expect(field(dialog, 'Email')).toHaveValue('somchai.jaidee@example.com');
    await shoot(page, 'mobile-user-modal.png');
  });
});

test.describe('as callcenter', () => {
  test('manages members but has no Web Admin User screen', async ({ page }) => {
    await loginAs(page, ROLE_USERS.callcenter);
    await page.getByTestId('sidebar-menu').getByRole('link', { name: 'Member Mobile User' }).click();
    await expect(page).toHaveURL(/\/member-mobile-user$/);
    await expect(rangeText(page)).toHaveText(/^1-10 of \d+$/);
    await expect(page.getByRole('button', { name: 'New Mobile User' })).toBeVisible();
    await page.goto('/web-admin');
    await expect(page.getByText('Sorry, you are not authorized to access this page.')).toBeVisible();
  });
});
