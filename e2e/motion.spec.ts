import { loginAs } from './fixtures/auth.ts';
import { expect, type Page, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

declare global {
  interface Window {
    zoomSeen?: boolean;
  }
}

/**
 * Opens the name modal of /user-detail and tells whether it zoomed in: whether any element carried antd's
 * `ant-zoom-appear-active` class, which runs the animation (an observer records every class change and every
 * added element). Without motion antd still passes through the 'prepare' step, where it measures the dialog's
 * origin, but never reaches the active one.
 */
async function modalZooms(page: Page) {
  await loginAs(page, ROLE_USERS.admin);
  await page.evaluate(() => {
    window.zoomSeen = false;
    const zooming = (node: Node) =>
      node instanceof Element &&
      (node.classList.contains('ant-zoom-appear-active') ||
        node.querySelector('.ant-zoom-appear-active') !== null);
    new MutationObserver((records) => {
      for (const record of records) {
        if (zooming(record.target) || [...record.addedNodes].some(zooming)) window.zoomSeen = true;
      }
    }).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['class'],
    });
  });
  await page.getByRole('button', { name: 'Edit Name-Surname', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Name-Surname', exact: true });
  await expect(dialog).toBeVisible();
  await expect(dialog).not.toHaveClass(/ant-zoom/);
  const seen = await page.evaluate(() => window.zoomSeen);
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  return seen;
}

// docs/decisions.md: less motion for users who ask for it; the browser tests ask (playwright.config.ts).
test('a user who asks for reduced motion gets dialogs without the zoom', async ({ page }) => {
  expect(await modalZooms(page)).toBe(false);
});

test.describe('with no preference', () => {
  test.use({ reducedMotion: 'no-preference' });

  test('dialogs zoom in as usual', async ({ page }) => {
    expect(await modalZooms(page)).toBe(true);
  });
});
