import { expect, type Page, test } from './fixtures/test.ts';

const TERMS_EN = 'Terms and Conditions';
const TERMS_TH = 'ข้อกำหนดและเงื่อนไข';
const PRIVACY_EN = 'Privacy Policy';
const PRIVACY_TH = 'นโยบายความเป็นส่วนตัว';

function article(page: Page) {
  return page.getByRole('article');
}

async function expectPage(page: Page, heading: string, other: string) {
  await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: other, exact: true })).toHaveCount(0);
  await expect(page.getByText(/^Update Date: /)).toBeVisible();
  // No sign-in involved: these pages stand outside the shell.
  await expect(page.getByTestId('sidebar-menu')).toHaveCount(0);
}

test('the terms page shows English, and links to the English privacy policy', async ({ page }) => {
  await page.goto('/terms-and-conditions');
  await expectPage(page, TERMS_EN, TERMS_TH);
  await expect(article(page)).toHaveAttribute('lang', 'en');
  await expect(article(page)).toContainText('1. The Service');
  await article(page).getByRole('link', { name: PRIVACY_EN, exact: true }).click();
  await expect(page).toHaveURL(/\/privacy-polices$/);
  await expectPage(page, PRIVACY_EN, PRIVACY_TH);
});

test('?languages=th shows the Thai terms, and its link keeps the language', async ({ page }) => {
  await page.goto('/terms-and-conditions?languages=th');
  await expectPage(page, TERMS_TH, TERMS_EN);
  await expect(article(page)).toHaveAttribute('lang', 'th');
  await expect(article(page)).toContainText('1. บริการ');
  await article(page).getByRole('link', { name: PRIVACY_TH, exact: true }).click();
  await expect(page).toHaveURL(/\/privacy-polices\?languages=th$/);
  await expectPage(page, PRIVACY_TH, PRIVACY_EN);
});

test('the privacy page shows English, Thai with ?languages=th, and English for any other language', async ({
  page,
}) => {
  await page.goto('/privacy-polices');
  await expectPage(page, PRIVACY_EN, PRIVACY_TH);
  await page.goto('/privacy-polices?languages=th');
  await expectPage(page, PRIVACY_TH, PRIVACY_EN);
  await expect(article(page)).toHaveAttribute('lang', 'th');
  await page.goto('/privacy-polices?languages=en');
  await expectPage(page, PRIVACY_EN, PRIVACY_TH);
  await page.goto('/terms-and-conditions?languages=fr');
  await expectPage(page, TERMS_EN, TERMS_TH);
});

test('the legal routes are exact: a longer path is not found', async ({ page }) => {
  await page.goto('/terms-and-conditions/more');
  await expect(page.getByText("Sorry, this page can't be found.", { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: TERMS_EN, exact: true })).toHaveCount(0);
});
