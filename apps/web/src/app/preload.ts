/**
 * The code of the first signed-in screen: the shell and the profile (home). The router loads them lazily;
 * the login form starts them when it is submitted, so they download while the password is checked.
 */
export const loadShell = () => import('./shell/layout.tsx');
export const loadHome = () => import('../features/profile/user-detail-page.tsx');

export function preloadSignedInHome(): void {
  // A failed preload is retried by the router when it navigates, and reported there.
  loadShell().catch(() => {});
  loadHome().catch(() => {});
}
