import type { Permission } from '@ev/shared';
import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RequireSignedIn, RequireSignedOut, RouteLoading } from './guards.tsx';
import { loadHome, loadShell, preloadSignedInHome } from './preload.ts';
import { RouteError } from './route-error.tsx';
import { SHELL_PATHS, type ShellPath } from './route-table.ts';

/**
 * Every screen is a lazy route: its code (and what only it uses: Leaflet with the site form, the charts and
 * editors of later issues) loads when it is first opened, so a cold /login carries the sign-in form only.
 * The router waits for a screen's code before it leaves the current one, so a click never shows a blank page.
 */
type Load = () => Promise<ComponentType>;

/**
 * The screens built so far, each with the permission its calls need (roles without it see a 403 page);
 * every other shell route shows the not-found page until its issue lands.
 */
const SCREENS: Partial<Record<ShellPath, [Load, Permission?]>> = {
  '/merchant': [
    () => import('../features/merchant/merchant-list-page.tsx').then((m) => m.MerchantListPage),
    'merchant.read',
  ],
  '/merchant/:id': [
    () => import('../features/merchant/merchant-setting-page.tsx').then((m) => m.MerchantSettingPage),
    'merchant.read',
  ],
  '/landlord': [
    () => import('../features/landlord/landlord-list-page.tsx').then((m) => m.LandlordListPage),
    'landlord.read',
  ],
  '/landlord/:id': [
    () => import('../features/landlord/landlord-setting-page.tsx').then((m) => m.LandlordSettingPage),
    'landlord.read',
  ],
  '/party': [
    () => import('../features/party/party-list-page.tsx').then((m) => m.PartyListPage),
    'party.read',
  ],
  '/party/:id': [
    () => import('../features/party/party-setting-page.tsx').then((m) => m.PartySettingPage),
    'party.read',
  ],
  '/price': [
    () => import('../features/price/price-list-page.tsx').then((m) => m.PriceListPage),
    'price.read',
  ],
  '/price/:id': [
    () => import('../features/price/price-setting-page.tsx').then((m) => m.PriceSettingPage),
    'price.read',
  ],
  '/charger': [
    () => import('../features/charger/charger-list-page.tsx').then((m) => m.ChargerListPage),
    'charger.read',
  ],
  '/charger/:id': [
    () => import('../features/charger/charger-setting-page.tsx').then((m) => m.ChargerSettingPage),
    'charger.read',
  ],
  '/charger-brand': [
    () => import('../features/charger-brand/charger-brand-list-page.tsx').then((m) => m.ChargerBrandListPage),
    'charger-brand.read',
  ],
  '/charger-brand/:id': [
    () =>
      import('../features/charger-brand/charger-brand-setting-page.tsx').then(
        (m) => m.ChargerBrandSettingPage,
      ),
    'charger-brand.read',
  ],
  '/contact-us': [
    () => import('../features/contact-us/contact-us-page.tsx').then((m) => m.ContactUsPage),
    'contact-us.read',
  ],
  '/web-admin': [
    () => import('../features/user/admin-user-list-page.tsx').then((m) => m.AdminUserListPage),
    'user.admin.read',
  ],
  '/member-mobile-user': [
    () => import('../features/user/mobile-user-list-page.tsx').then((m) => m.MobileUserListPage),
    'user.mobile.read',
  ],
  '/booking-management': [
    () => import('../features/booking/booking-list-page.tsx').then((m) => m.BookingListPage),
    'booking.read',
  ],
  '/charging-payment': [
    () => import('../features/payment/payment-list-page.tsx').then((m) => m.PaymentListPage),
    'payment.read',
  ],
  '/promotion/:type': [
    () => import('../features/promotion/promotion-list-page.tsx').then((m) => m.PromotionListPage),
    'promotion.read',
  ],
  '/promotion/:type/:id': [
    () => import('../features/promotion/promotion-setting-page.tsx').then((m) => m.PromotionSettingPage),
    'promotion.read',
  ],
  '/point-setup': [
    () => import('../features/point/point-setup-page.tsx').then((m) => m.PointSetupPage),
    'point.read',
  ],
  '/user-promotion': [
    () =>
      import('../features/user-promotion/user-promotion-list-page.tsx').then((m) => m.UserPromotionListPage),
    'user-promotion.read',
  ],
  '/user-promotion-report': [
    () => import('../features/user-promotion/coupon-report-page.tsx').then((m) => m.CouponReportPage),
    'report.user-promotion',
  ],
  '/booking-report': [
    () => import('../features/booking/booking-report-page.tsx').then((m) => m.BookingReportPage),
    'report.booking',
  ],
  '/guide': [() => import('../features/guide/guide-list-page.tsx').then((m) => m.GuideListPage), 'page.read'],
  '/guide/:id': [
    () => import('../features/guide/guide-form-page.tsx').then((m) => m.GuideFormPage),
    'page.read',
  ],
  '/guide-manage': [
    () => import('../features/guide/guide-manage-page.tsx').then((m) => m.GuideManagePage),
    'page.write',
  ],
  '/term-condition': [
    () => import('../features/legal/legal-list-page.tsx').then((m) => m.TermsListPage),
    'page.read',
  ],
  '/privacy-policy': [
    () => import('../features/legal/legal-list-page.tsx').then((m) => m.PrivacyListPage),
    'page.read',
  ],
  '/user-detail': [() => loadHome().then((m) => m.UserDetailPage)],
  // Issue 35: the charts (Recharts) load with these two screens only.
  '/dashboard': [
    () => import('../features/statistics/screens.ts').then((m) => m.DashboardPage),
    'dashboard.read',
  ],
  '/statistics': [
    () => import('../features/statistics/screens.ts').then((m) => m.StatisticsPage),
    'statistics.read',
  ],
  // Issue 36: every role's alerts; the audit log and the alerts' settings are the admin's.
  '/alerts': [() => import('../features/alerts/alerts-page.tsx').then((m) => m.AlertsPage), 'alert.read'],
  '/audit-log': [
    () => import('../features/audit/audit-log-page.tsx').then((m) => m.AuditLogPage),
    'audit.read',
  ],
  '/alert-settings': [
    () => import('../features/alerts/alert-settings-page.tsx').then((m) => m.AlertSettingsPage),
    'alert.settings',
  ],
};

const notFound: Load = () => import('./not-found.tsx').then((m) => m.NotFoundPage);

/** A lazy route for a screen's component, behind its permission. */
function lazyScreen(load: Load, permission?: Permission): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      if (!permission) {
        const Screen = await load();
        return { element: <Screen /> };
      }
      const [Screen, { RequirePermission }] = await Promise.all([load(), import('./require-permission.tsx')]);
      return {
        element: (
          <RequirePermission permission={permission}>
            <Screen />
          </RequirePermission>
        ),
      };
    },
  };
}

function shellScreen(path: ShellPath): RouteObject {
  const [load, permission] = SCREENS[path] ?? [notFound];
  return { path, ...lazyScreen(load, permission) };
}

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    // Shown while the first screen's code loads on a cold visit.
    HydrateFallback: RouteLoading,
    children: [
      { path: '/', element: <Navigate to="/login" replace /> },
      {
        element: <RequireSignedOut />,
        children: [
          {
            path: '/login',
            ...lazyScreen(() =>
              import('../features/auth/login-page.tsx').then(
                ({ LoginPage }) =>
                  function SignIn() {
                    return <LoginPage onSubmit={preloadSignedInHome} />;
                  },
              ),
            ),
          },
        ],
      },
      {
        path: '/reset-password',
        ...lazyScreen(() =>
          import('../features/auth/reset-password-page.tsx').then((m) => m.ResetPasswordPage),
        ),
      },
      {
        path: '/terms-and-conditions',
        lazy: async () => {
          const { PublicLegalPage } = await import('../features/legal/public-legal-page.tsx');
          return { element: <PublicLegalPage type="terms" /> };
        },
      },
      {
        path: '/privacy-polices',
        lazy: async () => {
          const { PublicLegalPage } = await import('../features/legal/public-legal-page.tsx');
          return { element: <PublicLegalPage type="privacy" /> };
        },
      },
      {
        element: <RequireSignedIn requireTerms={false} />,
        children: [
          {
            path: '/landing',
            ...lazyScreen(() => import('../features/auth/landing-page.tsx').then((m) => m.LandingPage)),
          },
        ],
      },
      {
        element: <RequireSignedIn />,
        children: [
          {
            lazy: async () => ({ Component: (await loadShell()).ShellLayout }),
            children: SHELL_PATHS.map(shellScreen),
          },
        ],
      },
      { path: '*', ...lazyScreen(() => import('./not-found.tsx').then((m) => m.CatchAllPage)) },
    ],
  },
];

export const router = createBrowserRouter(routes);
