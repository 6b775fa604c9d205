/**
 * Every route of the signed-in shell (document 1, section 2), in the spec's order. A route gets its screen
 * in the router; the ones without a screen yet show the not-found page.
 */
export const SHELL_PATHS = [
  '/point-setup',
  '/user-promotion-report',
  '/user-promotion',
  '/promotion/:type/:id',
  '/promotion/:type',
  '/charging-payment',
  '/booking-report',
  '/booking-management',
  '/charger/:id',
  '/charger',
  '/price/:id',
  '/price',
  '/charger-brand/:id',
  '/charger-brand',
  '/landlord/:id',
  '/landlord',
  '/party/:id',
  '/party',
  '/merchant/:id',
  '/merchant',
  '/web-admin',
  '/member-mobile-user',
  '/contact-us',
  '/guide/:id',
  '/guide',
  '/guide-manage',
  '/term-condition',
  '/privacy-policy',
  '/user-detail',
  // Issue 35 (not in the spec): the network at a glance, and its figures over time.
  '/dashboard',
  '/statistics',
  // Issue 36 (not in the spec): the user's alerts, who changed what, and the alerts' thresholds.
  '/alerts',
  '/audit-log',
  '/alert-settings',
] as const;

export type ShellPath = (typeof SHELL_PATHS)[number];

/** The home route of a signed-in user. */
export const HOME_PATH = '/user-detail' satisfies ShellPath;
export const LOGIN_PATH = '/login';
export const LANDING_PATH = '/landing';
export const ALERTS_PATH = '/alerts' satisfies ShellPath;
