import {
  clickAndExpectSaved,
  headerUserLink,
  loginAs,
  loginAsThroughUi,
  loginThroughUi,
  notification,
  userDetailRow,
} from './fixtures/auth.ts';
import { clickToClose } from './fixtures/list.ts';
import { expect, type Page, test } from './fixtures/test.ts';
import { E2E_PASSWORD, ROLE_USERS, SPEC_USERS } from './fixtures/users.ts';

const DISCARD = 'Changes will not be saved. Do you want to proceed ?';

function dialog(page: Page, title: string) {
  return page.getByRole('dialog', { name: title, exact: true });
}

test('the name modal saves a new name, shown at once and after a reload', async ({ page }) => {
  await loginAs(page, SPEC_USERS.profileName.email);
  await expect(headerUserLink(page)).toHaveText('E2E merchant Tester');

  await page.getByRole('button', { name: 'Edit Name-Surname', exact: true }).click();
  const modal = dialog(page, 'Edit Name-Surname');
  await expect(modal).toBeVisible();
  const name = modal.getByLabel('Name', { exact: true });
  const surname = modal.getByLabel('Surname', { exact: true });
  await expect(name).toHaveValue('E2E merchant');
  await expect(surname).toHaveValue('Tester');

  // Cancel with changes asks first; declining keeps the edits.
  await name.fill('Somchai');
  await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
  const confirm = dialog(page, 'Discard changes');
  await expect(confirm).toContainText(DISCARD);
  // A click on a dialog still settling can be lost on a busy machine: clickToClose tries again.
  await clickToClose(confirm, confirm.getByRole('button', { name: 'No', exact: true }));
  await expect(confirm).toHaveCount(0);
  await expect(name).toHaveValue('Somchai');

  // Proceeding discards them.
  await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
  const discard = dialog(page, 'Discard changes');
  await clickToClose(discard, discard.getByRole('button', { name: 'Yes', exact: true }));
  await expect(modal).toHaveCount(0);
  await expect(userDetailRow(page, 'Name-Surname')).toContainText('E2E merchant Tester');

  // A new opening starts from the saved name; Cancel without changes closes at once.
  await page.getByRole('button', { name: 'Edit Name-Surname', exact: true }).click();
  await expect(dialog(page, 'Edit Name-Surname').getByLabel('Name', { exact: true })).toHaveValue(
    'E2E merchant',
  );
  await dialog(page, 'Edit Name-Surname').getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(dialog(page, 'Edit Name-Surname')).toHaveCount(0);
  await expect(dialog(page, 'Discard changes')).toHaveCount(0);

  await page.getByRole('button', { name: 'Edit Name-Surname', exact: true }).click();
  const edit = dialog(page, 'Edit Name-Surname');
  await edit.getByLabel('Name', { exact: true }).fill('Somchai');
  await edit.getByLabel('Surname', { exact: true }).fill('Jaidee');
  await clickAndExpectSaved(
    page,
    edit.getByRole('button', { name: 'Save', exact: true }),
    'PATCH',
    '/api/user/self',
  );
  await expect(edit).toHaveCount(0);
  await expect(headerUserLink(page)).toHaveText('Somchai Jaidee');
  await expect(userDetailRow(page, 'Name-Surname')).toContainText('Somchai Jaidee');

  await page.reload();
  await expect(headerUserLink(page)).toHaveText('Somchai Jaidee');
  await expect(userDetailRow(page, 'Name-Surname')).toContainText('Somchai Jaidee');
});

test('the password modal validates, rejects a wrong current password and changes the password', async ({
  page,
}) => {
  const { email } = SPEC_USERS.profile;
  const NEW_PASSWORD = 'Changed2468';
  await loginAs(page, email);

  await page.getByRole('button', { name: 'Edit Password', exact: true }).click();
  const modal = dialog(page, 'Change Password');
  await expect(modal).toBeVisible();
  const current = modal.getByLabel('Current', { exact: true });
  const newPassword = modal.getByLabel('New password', { exact: true });
  const confirm = modal.getByLabel('Confirm new password', { exact: true });
  const save = modal.getByRole('button', { name: 'Save', exact: true });

  await save.click();
  await expect(modal.getByText('Current is required.', { exact: true })).toBeVisible();
  await expect(modal.getByText('New password is required.', { exact: true })).toBeVisible();
  await expect(modal.getByText('Confirm new password is required.', { exact: true })).toBeVisible();

  const strength = modal.getByText(
    'Your password must be at least 8 characters. It consists of uppercase, lowercase, and numbers.',
    { exact: true },
  );
  const thai = modal.getByText('Your password can not use Thai Language.', { exact: true });
  for (const weak of ['Abc1234', 'abcdefgh1', 'ABCDEFGH1', 'Abcdefghi']) {
    await newPassword.fill(weak);
    await expect(strength).toBeVisible();
  }
  await newPassword.fill('Abcdefg1รหัส');
  await expect(thai).toBeVisible();
  await expect(strength).toHaveCount(0);

  await newPassword.fill(NEW_PASSWORD);
  await expect(thai).toHaveCount(0);
  await expect(strength).toHaveCount(0);
  await confirm.fill(`${NEW_PASSWORD}9`);
  await expect(modal.getByText('Password do not match', { exact: true })).toBeVisible();
  await expect(modal.getByText('Passwords match', { exact: true })).toHaveCount(0);
  await confirm.fill(NEW_PASSWORD);
  await expect(modal.getByText('Password do not match', { exact: true })).toHaveCount(0);
  await expect(modal.getByText('Passwords match', { exact: true })).toBeVisible();

  // A wrong current password: 'Failed !', and the modal stays open.
  await current.fill('NotMine123');
  await save.click();
  const failed = notification(page, 'Failed !');
  await expect(failed).toContainText('Enter a valid password and try again.');
  await expect(modal).toBeVisible();
  // Closed by hand: it would cover the header's Log Out button for its 4.5 s.
  await failed.getByRole('button', { name: 'Close' }).click();
  await expect(failed).toHaveCount(0);

  await current.fill(E2E_PASSWORD);
  await clickAndExpectSaved(page, save, 'PATCH', '/api/user/self');
  await expect(modal).toHaveCount(0);

  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await loginThroughUi(page, email, E2E_PASSWORD);
  await expect(notification(page, 'Login Fail!')).toBeVisible();
  await loginAsThroughUi(page, email, NEW_PASSWORD);
});

test('cancelling the password modal with changes asks before discarding', async ({ page }) => {
  await loginAs(page, ROLE_USERS.landlord);
  await page.getByRole('button', { name: 'Edit Password', exact: true }).click();
  const modal = dialog(page, 'Change Password');
  await modal.getByLabel('Current', { exact: true }).fill('something');
  await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
  const confirm = dialog(page, 'Discard changes');
  await expect(confirm).toContainText(DISCARD);
  await clickToClose(confirm, confirm.getByRole('button', { name: 'Yes', exact: true }));
  await expect(modal).toHaveCount(0);
  // Reopened, it starts empty.
  await page.getByRole('button', { name: 'Edit Password', exact: true }).click();
  await expect(dialog(page, 'Change Password').getByLabel('Current', { exact: true })).toHaveValue('');
});
