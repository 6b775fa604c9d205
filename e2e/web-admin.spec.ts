import { loginAs, loginThroughUi, notification } from './fixtures/auth.ts';
import {
  clearData,
  confirmDelete,
  exportSheet,
  LEAVE_WARNING,
  rangeText,
  rows,
  rowWith,
  search,
  selectNamed,
  sortBy,
} from './fixtures/list.ts';
import {
  answerDiscard,
  choose,
  dialogSelect,
  discardConfirm,
  expectOptions,
  field,
  modal,
  pickFilter,
  saveModal,
  selectedValue,
  setSwitch,
} from './fixtures/modal.ts';
import { waitForResetLink } from './fixtures/outbox.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, type Locator, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

// One worker, in order: the create test adds a user that the filter tests would count.
test.describe.configure({ mode: 'default' });

const GOLDEN_LOTUS = 'Golden Lotus Hotels & Resorts';

const cell = (row: Locator, index: number) => row.locator('td').nth(index);

test.beforeEach(async ({ page }) => {
  await loginAs(page, ROLE_USERS.admin);
});

test('filter by email, cluster, group (SELECT ALL), site narrowed by cluster, role and status; sort', async ({
  page,
}) => {
  await page.goto('/web-admin');
  await expect(page.getByRole('heading', { name: 'Web Admin User' })).toBeVisible();
  await expect(rangeText(page)).toHaveText(/^1-10 of \d+$/);
  await expect(page.getByPlaceholder('Username')).toBeVisible();

  // Email (placeholder Username), a part of it.
  await page.getByPlaceholder('Username').fill('thanakorn');
  await page.getByPlaceholder('Username').press('Enter');
  await expect(rangeText(page)).toHaveText('1-1 of 1');
  await expect(page).toHaveURL(/email=thanakorn/);
  const row = rowWith(page, 'thanakorn.boonmee@example.com');
  await expect(cell(row, 1)).toHaveText('Thanakorn Boonmee');
  await expect(cell(row, 2)).toHaveText('Cluster');
  await expect(cell(row, 3)).toHaveText('ThaiWay Petroleum Stations');
  await expect(cell(row, 4)).toHaveText('-');
  await expect(cell(row, 6)).toHaveText('Available');
  await clearData(page);
  await expect(page).not.toHaveURL(/email=/);
  await expect(rangeText(page)).toHaveText(/^1-10 of \d+$/);

  // A cluster narrows the site filter to its sites, and finds its cluster and site users.
  await pickFilter(page, 'Cluster Name', GOLDEN_LOTUS);
  await expectOptions(page, selectNamed(page, 'Site Name'), {
    present: ['Golden Lotus Patong Beach', 'Golden Lotus Kata Hillside'],
    absent: ['Siam Square Parking B2'],
  });
  await search(page);
  await expect(rangeText(page)).toHaveText('1-2 of 2');
  await expect(rowWith(page, 'siriporn.k@example.com')).toContainText('Locked');
  await expect(rowWith(page, 'jirawat.p@example.com')).toContainText('Golden Lotus Patong Beach');
  await pickFilter(page, 'Site Name', 'Golden Lotus Patong Beach');
  await search(page);
  await expect(rangeText(page)).toHaveText('1-1 of 1');
  await expect(rows(page).first()).toContainText('jirawat.p@example.com');
  await expect(cell(rows(page).first(), 2)).toHaveText('Site');
  await clearData(page);

  // SELECT ALL picks every group: the users of any group.
  await pickFilter(page, 'Group Name', 'SELECT ALL');
  await search(page);
  await expect(page).toHaveURL(/(partyId=\d+.*){4}/);
  await expect(rangeText(page)).toHaveText('1-6 of 6');
  for (const name of ['Bangkok Shopping Malls', 'Northern Route', 'Southern Beaches', 'Corporate Fleet']) {
    await expect(rows(page).filter({ hasText: name }).first()).toBeVisible();
  }
  await clearData(page);

  // Role and status.
  await pickFilter(page, 'Role', 'Customer station');
  await pickFilter(page, 'Status', 'Active');
  await search(page);
  await expect(page).toHaveURL(/adminRole=station&active=true/);
  // Retrying: right after the URL changes the table may still show the last page.
  await expect(cell(rows(page).first(), 2)).toHaveText('Customer station');
  await expect(rows(page).filter({ hasNotText: 'Customer station' })).toHaveCount(0);
  await expect(rows(page).filter({ hasText: 'Locked' })).toHaveCount(0);
  await pickFilter(page, 'Role', 'Any');
  await pickFilter(page, 'Status', 'Inactive');
  await search(page);
  await expect(rowWith(page, 'siriporn.k@example.com')).toBeVisible();
  await expect(rowWith(page, 'e2e-locked@example.com')).toBeVisible();
  await expect(rows(page).filter({ hasText: 'Available' })).toHaveCount(0);
  await clearData(page);

  // Every column sorts on the server by its key.
  for (const [title, key] of [
    ['Email', 'email'],
    ['Name-Surname', 'name'],
    ['Cluster Name', 'merchantNameEn'],
    ['Group Name', 'partyNameEn'],
    ['Site Name', 'landlordNameEn'],
    ['Status', 'active'],
    ['Role', 'adminRole'],
  ] as const) {
    await sortBy(page, title, key, 'asc');
  }
  await sortBy(page, 'Role', 'adminRole', 'desc');
  await expect(cell(rows(page).first(), 2)).toHaveText('Customer station');
});

test('export the filtered admin users, and a search with no match', async ({ page }) => {
  await page.goto('/web-admin');
  await pickFilter(page, 'Cluster Name', GOLDEN_LOTUS);
  await search(page);
  await expect(rangeText(page)).toHaveText('1-2 of 2');
  const sheet = await exportSheet(page, /^User-Admin_\d{14}\.xlsx$/);
  expect(sheet.getRow(1).values).toEqual([
    undefined,
    'Email',
    'Name-Surname',
    'Role',
    'Cluster Name',
    'Group Name',
    'Site Name',
    'Status',
  ]);
  expect(sheet.rowCount).toBe(3);
  const emails = [sheet.getRow(2).getCell(1).value, sheet.getRow(3).getCell(1).value];
  expect(emails.sort()).toEqual(['jirawat.p@example.com', 'siriporn.k@example.com']);
  expect(sheet.getRow(2).getCell(4).value).toBe(GOLDEN_LOTUS);

  await page.getByPlaceholder('Username').fill('no-such-user-anywhere');
  await search(page);
  await expect(page.getByText('No Data yet!')).toBeVisible();
  await page.getByRole('button', { name: 'Export' }).click();
  await expect(notification(page, 'No matched user admin found')).toBeVisible();
});

test('the modal shows fields by role; the site waits for a cluster and lists only its sites', async ({
  page,
}) => {
  await page.goto('/web-admin');
  await page.getByRole('button', { name: 'New User' }).click();
  const dialog = modal(page, 'New Admin User');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('invitation');
  await expect(dialog.getByLabel(/password/i)).toHaveCount(0);

  await dialog.getByRole('button', { name: 'Save' }).click();
  for (const message of [
    'Email is required.',
    'Name is required.',
    'Surname is required.',
    'Role is required.',
  ]) {
    await expect(dialog.getByText(message, { exact: true })).toBeVisible();
  }
  await field(dialog, 'Email').fill('   ');
  await expect(dialog.getByText('Email is not whitespace', { exact: true })).toBeVisible();
  await field(dialog, 'Email').fill('someone@');
  await expect(dialog.getByText("Email isn't correct.", { exact: true })).toBeVisible();
  await field(dialog, 'Name').fill('  ');
  await expect(dialog.getByText('Name is not whitespace', { exact: true })).toBeVisible();
  await field(dialog, 'Surname').fill(' ');
  await expect(dialog.getByText('Surname is not whitespace', { exact: true })).toBeVisible();

  const cluster = dialogSelect(dialog, 'Cluster Name');
  const group = dialogSelect(dialog, 'Group Name');
  const site = dialogSelect(dialog, 'Site Name');
  // No role yet: none of the three.
  for (const select of [cluster, group, site]) await expect(select).toHaveCount(0);

  await choose(page, dialog, 'Role', 'Cluster');
  await expect(cluster).toBeVisible();
  await expect(group).toHaveCount(0);
  await expect(site).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Cluster name is required.', { exact: true })).toBeVisible();

  await choose(page, dialog, 'Role', 'Site');
  await expect(cluster).toBeVisible();
  await expect(site).toBeDisabled();
  await expect(group).toHaveCount(0);
  await choose(page, dialog, 'Cluster Name', GOLDEN_LOTUS);
  await expect(site).toBeEnabled();
  const title = dialog.getByText('New Admin User');
  await expectOptions(
    page,
    site,
    {
      present: ['Golden Lotus Kata Hillside'],
      absent: ['Siam Square Parking B2', 'ThaiWay Korat Mittraphap'],
    },
    title,
  );
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Site name is required.', { exact: true })).toBeVisible();
  await choose(page, dialog, 'Site Name', 'Golden Lotus Kata Hillside');
  // Another cluster clears the site and lists its own.
  await choose(page, dialog, 'Cluster Name', 'ThaiWay Petroleum Stations');
  await expect(selectedValue(dialog, 'Golden Lotus Kata Hillside')).toHaveCount(0);
  await expect(selectedValue(dialog, 'ThaiWay Petroleum Stations')).toBeVisible();
  await expectOptions(
    page,
    site,
    { present: ['ThaiWay Korat Mittraphap'], absent: ['Golden Lotus Kata Hillside'] },
    title,
  );

  for (const role of ['Group', 'Customer station']) {
    await choose(page, dialog, 'Role', role);
    await expect(group).toBeVisible();
    await expect(cluster).toHaveCount(0);
    await expect(site).toHaveCount(0);
  }
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Group name is required.', { exact: true })).toBeVisible();
  for (const role of ['Admin', 'Call center', 'Marketing']) {
    await choose(page, dialog, 'Role', role);
    for (const select of [cluster, group, site]) await expect(select).toHaveCount(0);
  }

  // Cancel with changes asks first; No keeps the modal, Yes discards.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  const confirm = discardConfirm(page);
  await expect(confirm).toContainText(LEAVE_WARNING);
  await answerDiscard(page, 'No');
  await expect(confirm).toBeHidden();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await answerDiscard(page, 'Yes');
  await expect(dialog).toBeHidden();

  // An untouched modal closes at once.
  await page.getByRole('button', { name: 'New User' }).click();
  await modal(page, 'New Admin User').getByRole('button', { name: 'Cancel' }).click();
  await expect(modal(page, 'New Admin User')).toBeHidden();
  await expect(discardConfirm(page)).toHaveCount(0);
});

test('create an admin user who accepts the invitation, then edit, lock and delete it', async ({
  page,
  browser,
}) => {
  const email = `e2e-invitee-${Date.now()}@example.com`;
  await page.goto('/web-admin');
  await page.getByRole('button', { name: 'New User' }).click();
  const dialog = modal(page, 'New Admin User');
  await field(dialog, 'Email').fill(email);
  await field(dialog, 'Name').fill('Invited');
  await field(dialog, 'Surname').fill('Tester');
  await choose(page, dialog, 'Role', 'Site');
  await choose(page, dialog, 'Cluster Name', GOLDEN_LOTUS);
  await choose(page, dialog, 'Site Name', 'Golden Lotus Kata Hillside');
  await expect(dialog.getByRole('switch', { name: 'Active' })).toBeChecked();
  const since = Date.now();
  await saveModal(page, dialog, 'POST', '/api/user');
  await expect(dialog).toBeHidden();

  await page.getByPlaceholder('Username').fill(email);
  await search(page);
  const row = rowWith(page, email);
  await expect(row).toContainText('Invited Tester');
  await expect(cell(row, 2)).toHaveText('Site');
  await expect(cell(row, 3)).toHaveText(GOLDEN_LOTUS);
  await expect(cell(row, 5)).toHaveText('Golden Lotus Kata Hillside');
  await expect(cell(row, 6)).toHaveText('Available');

  // The invitation link sets a first password; the invitee then signs in (to the terms page).
  const link = await waitForResetLink(email, since);
  const invitee = await browser.newContext();
  const inviteePage = await invitee.newPage();
  await inviteePage.goto(link);
  await inviteePage.getByLabel('New password', { exact: true }).fill('Invited2024');
  await inviteePage.getByLabel('Confirm new password', { exact: true }).fill('Invited2024');
  await inviteePage.getByRole('button', { name: 'Reset password', exact: true }).click();
  await expect(inviteePage.getByText('Changed Successfully.', { exact: true })).toBeVisible();
  await loginThroughUi(inviteePage, email, 'Invited2024');
  await expect(inviteePage).toHaveURL(/\/landing$/);
  await invitee.close();

  // Edit: the modal opens on the row's values; a new role drops the site.
  await row.getByRole('button', { name: /^Edit/ }).click();
  const edit = modal(page, 'Edit Admin User');
  await expect(field(edit, 'Email')).toHaveValue(email);
  await expect(selectedValue(edit, 'Golden Lotus Kata Hillside')).toBeVisible();
  await choose(page, edit, 'Role', 'Cluster');
  await expect(dialogSelect(edit, 'Site Name')).toHaveCount(0);
  await saveModal(page, edit, 'PATCH', '/api/user/');
  await expect(cell(row, 2)).toHaveText('Cluster');
  await expect(cell(row, 5)).toHaveText('-');

  // An active user offers no Delete; locked, it does.
  await expect(row.getByRole('button', { name: `Delete ${email}` })).toHaveCount(0);
  await row.getByRole('button', { name: /^Edit/ }).click();
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

test('a taken email is refused with its message and marked on the field', async ({ page }) => {
  await page.goto('/web-admin');
  await page.getByRole('button', { name: 'New User' }).click();
  const dialog = modal(page, 'New Admin User');
  await field(dialog, 'Email').fill('THANAKORN.BOONMEE@example.com');
  await field(dialog, 'Name').fill('Copy');
  await field(dialog, 'Surname').fill('Cat');
  await choose(page, dialog, 'Role', 'Marketing');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(notification(page, 'Something went wrong !')).toContainText(
    'This email is already used by another user.',
  );
  await expect(
    dialog.getByText('This email is already used by another user.', { exact: true }),
  ).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeEnabled();
});

test('screenshots: web admin list and modal', async ({ page }) => {
  await page.goto('/web-admin');
  await expect(rangeText(page)).toHaveText(/^1-10 of \d+$/);
  await shoot(page, 'web-admin-list.png');
  await page.getByPlaceholder('Username').fill('jirawat');
  await search(page);
  await rowWith(page, 'jirawat.p@example.com').getByRole('button', { name: /^Edit/ }).click();
  const dialog = modal(page, 'Edit Admin User');
  await expect(selectedValue(dialog, 'Golden Lotus Patong Beach')).toBeVisible();
  await shoot(page, 'web-admin-modal.png');
});
