import { loginThroughUi, userDetailRow } from './fixtures/auth.ts';
import { expect, type Locator, test } from './fixtures/test.ts';
import { SPEC_USERS } from './fixtures/users.ts';

const { email } = SPEC_USERS.landing;

/** Scrolls the box to `top` and resolves once its scroll event was handled and a frame painted. */
function scrollBoxTo(box: Locator, where: 'middle' | 'end') {
  return box.evaluate(
    (element, to) =>
      new Promise<void>((resolve) => {
        element.addEventListener('scroll', () => requestAnimationFrame(() => resolve()), { once: true });
        const max = element.scrollHeight - element.clientHeight;
        element.scrollTop = to === 'end' ? max : Math.floor(max / 2);
      }),
    where,
  );
}

test('terms acceptance: read to the end, tick both, accept, and never asked again', async ({ page }) => {
  await loginThroughUi(page, email);
  await expect(page).toHaveURL(/\/landing$/);
  await expect(page.getByRole('heading', { name: 'Term&Condition and Privacy Policy' })).toBeVisible();

  const box = page.getByRole('document', { name: 'Term&Condition and Privacy Policy text' });
  // The Thai text of both pages is loaded.
  await expect(box.getByRole('heading', { name: 'ข้อกำหนดและเงื่อนไข' })).toBeVisible();
  await expect(box.getByRole('heading', { name: 'นโยบายความเป็นส่วนตัว', exact: true })).toBeAttached();

  // The box is 700 px high and its text is longer than that.
  const bounds = await box.boundingBox();
  expect(bounds?.height).toBe(700);
  expect(await box.evaluate((element) => getComputedStyle(element).height)).toBe('700px');
  expect(await box.evaluate((element) => element.scrollHeight > element.clientHeight * 2)).toBe(true);

  const agreeTerms = page.getByRole('checkbox', { name: 'I agree with Term&Condition' });
  const agreePrivacy = page.getByRole('checkbox', { name: 'I agree with Privacy Policy' });
  const accept = page.getByRole('button', { name: 'Accept', exact: true });

  // Not before reading to the end.
  await expect(agreeTerms).toHaveCount(0);
  await expect(agreePrivacy).toHaveCount(0);
  await expect(accept).toBeDisabled();
  await scrollBoxTo(box, 'middle');
  await expect(agreeTerms).toHaveCount(0);
  await expect(accept).toBeDisabled();

  await scrollBoxTo(box, 'end');
  await expect(agreeTerms).toBeVisible();
  await expect(agreePrivacy).toBeVisible();
  await expect(agreeTerms).not.toBeChecked();
  await expect(agreePrivacy).not.toBeChecked();
  await expect(accept).toBeDisabled();

  await agreeTerms.check();
  await expect(accept).toBeDisabled();
  await agreeTerms.uncheck();
  await agreePrivacy.check();
  await expect(accept).toBeDisabled();
  await agreeTerms.check();
  await expect(accept).toBeEnabled();

  const acceptCall = page.waitForResponse((response) =>
    response.url().endsWith('/api/user/self/term-accept'),
  );
  await accept.click();
  expect((await acceptCall).ok()).toBe(true);
  await expect(page).toHaveURL(/\/user-detail$/);
  await expect(userDetailRow(page, 'Email')).toContainText(email);

  // Acceptance is recorded on the server: a new sign-in goes straight home.
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });
  await loginThroughUi(page, email);
  await expect(page).toHaveURL(/\/user-detail$/);
  await expect(userDetailRow(page, 'Role')).toContainText('Marketing');
  expect(visited).not.toContain('/landing');
  await expect(page.getByRole('heading', { name: 'Term&Condition and Privacy Policy' })).toHaveCount(0);
});
