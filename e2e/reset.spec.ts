import { clickAndExpectSaved, loginAsThroughUi, loginThroughUi, notification } from './fixtures/auth.ts';
import { waitForResetLink } from './fixtures/outbox.ts';
import { expect, test } from './fixtures/test.ts';
import { E2E_PASSWORD, SPEC_USERS } from './fixtures/users.ts';

const { email } = SPEC_USERS.reset;
const NEW_PASSWORD = 'Reset5678new';

test('forgot password → mailed link → reset → sign in with the new password only', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Forgot Password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot Password?' })).toBeVisible();

  // The email is required; the message is the spec's (with its example address).
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(
    page.getByText('Please use a valid of the format example: example@email.com', { exact: true }),
  ).toBeVisible();

  // The back arrow returns to the login form, and the link opens the forgot form again.
  await page.getByRole('button', { name: 'Back to login' }).click();
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Forgot Password?' }).click();

  const since = Date.now();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(page.getByText('Email is correct!', { exact: true })).toBeVisible();
  await expect(page.getByText(email, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Ok, got it!' }).click();
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  const link = await waitForResetLink(email, since);
  expect(new URL(link).pathname).toBe('/reset-password');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Reset password' })).toBeVisible();

  const newPassword = page.getByLabel('New password', { exact: true });
  const confirm = page.getByLabel('Confirm new password', { exact: true });
  const submit = page.getByRole('button', { name: 'Reset password', exact: true });

  await newPassword.fill('short7!');
  await expect(
    page.getByText('Please enter a value greater than or equal to 8 character(s).', { exact: true }),
  ).toBeVisible();
  await newPassword.fill(NEW_PASSWORD);
  await expect(page.getByText('Please enter a value greater than or equal to 8 character(s).')).toHaveCount(
    0,
  );
  await confirm.fill(`${NEW_PASSWORD}x`);
  await expect(page.getByText('The value has to be same with New Password.', { exact: true })).toBeVisible();
  await submit.click();
  // Still the form: the mismatch blocks the call.
  await expect(submit).toBeVisible();
  await confirm.fill(NEW_PASSWORD);
  await expect(page.getByText('The value has to be same with New Password.')).toHaveCount(0);
  await clickAndExpectSaved(page, submit, 'POST', '/api/auth/reset-password');
  await expect(page.getByText('Changed Successfully.', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The old password no longer works…
  await loginThroughUi(page, email, E2E_PASSWORD);
  await expect(notification(page, 'Login Fail!')).toContainText("Username or Password isn't correct.");
  await expect(page).toHaveURL(/\/login$/);
  // …the new one does.
  await loginAsThroughUi(page, email, NEW_PASSWORD);

  // The link was single-use.
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('Another1234');
  await page.getByLabel('Confirm new password', { exact: true }).fill('Another1234');
  await page.getByRole('button', { name: 'Reset password', exact: true }).click();
  await expect(notification(page, 'Something went wrong !')).toContainText(
    '(Code: The reset link is invalid or has expired.)',
  );
  await expect(page.getByText('Changed Successfully.')).toHaveCount(0);
});

test("a member's link: the page sets the app password and sends the member back to the app", async ({
  page,
}) => {
  // A demo member that no other spec signs in as.
  const member = 'worawit.p@example.net';
  const since = Date.now();
  const asked = await page.request.post('/api/member/forgot-password', { data: { email: member } });
  expect(asked.status()).toBe(200);
  // The mailed link ends in `&app=member` (apps/server/test/api/member-account.test.ts); the outbox
  // helper reads it up to the token.
  const link = await waitForResetLink(member, since);
  await page.goto(`${link}&app=member`);
  await expect(page.getByRole('heading', { name: 'Reset password' })).toBeVisible();
  // The back office's sign-in is not offered to a member.
  await expect(page.getByRole('button', { name: 'Back to login' })).toHaveCount(0);

  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
  const submit = page.getByRole('button', { name: 'Reset password', exact: true });
  await clickAndExpectSaved(page, submit, 'POST', '/api/auth/reset-password');
  await expect(page.getByText('Changed Successfully.', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Sign in to the EV Charging app with your email and the new password.', { exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toHaveCount(0);

  const signIn = await page.request.post('/api/member/login', {
    data: { email: member, pass: NEW_PASSWORD },
  });
  expect(signIn.status()).toBe(200);
});
