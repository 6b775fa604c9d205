import type { Permission } from '@ev/shared';
import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LandingPage } from '../features/auth/landing-page.tsx';
import { LoginPage } from '../features/auth/login-page.tsx';
import { ResetPasswordPage } from '../features/auth/reset-password-page.tsx';
import { ChargerListPage } from '../features/charger/charger-list-page.tsx';
import { ChargerSettingPage } from '../features/charger/charger-setting-page.tsx';
import { ChargerBrandListPage } from '../features/charger-brand/charger-brand-list-page.tsx';
import { ChargerBrandSettingPage } from '../features/charger-brand/charger-brand-setting-page.tsx';
import { ContactUsPage } from '../features/contact-us/contact-us-page.tsx';
import { LandlordListPage } from '../features/landlord/landlord-list-page.tsx';
import { LandlordSettingPage } from '../features/landlord/landlord-setting-page.tsx';
import { PublicLegalPage } from '../features/legal/public-legal-page.tsx';
import { MerchantListPage } from '../features/merchant/merchant-list-page.tsx';
import { MerchantSettingPage } from '../features/merchant/merchant-setting-page.tsx';
import { PartyListPage } from '../features/party/party-list-page.tsx';
import { PartySettingPage } from '../features/party/party-setting-page.tsx';
import { PriceListPage } from '../features/price/price-list-page.tsx';
import { PriceSettingPage } from '../features/price/price-setting-page.tsx';
import { UserDetailPage } from '../features/profile/user-detail-page.tsx';
import { AdminUserListPage } from '../features/user/admin-user-list-page.tsx';
import { MobileUserListPage } from '../features/user/mobile-user-list-page.tsx';
import { RequirePermission, RequireSignedIn, RequireSignedOut } from './guards.tsx';
import { CatchAllPage, NotFoundPage } from './not-found.tsx';
import { RouteError } from './route-error.tsx';
import { SHELL_PATHS, type ShellPath } from './route-table.ts';
import { ShellLayout } from './shell/layout.tsx';

/**
 * The screens built so far, each with the permission its calls need (roles without it see a 403 page);
 * every other shell route shows the not-found page until its issue lands.
 */
const SCREENS: Partial<Record<ShellPath, [ReactNode, Permission?]>> = {
  '/merchant': [<MerchantListPage key="list" />, 'merchant.read'],
  '/merchant/:id': [<MerchantSettingPage key="setting" />, 'merchant.read'],
  '/landlord': [<LandlordListPage key="list" />, 'landlord.read'],
  '/landlord/:id': [<LandlordSettingPage key="setting" />, 'landlord.read'],
  '/party': [<PartyListPage key="list" />, 'party.read'],
  '/party/:id': [<PartySettingPage key="setting" />, 'party.read'],
  '/price': [<PriceListPage key="list" />, 'price.read'],
  '/price/:id': [<PriceSettingPage key="setting" />, 'price.read'],
  '/charger': [<ChargerListPage key="list" />, 'charger.read'],
  '/charger/:id': [<ChargerSettingPage key="setting" />, 'charger.read'],
  '/charger-brand': [<ChargerBrandListPage key="list" />, 'charger-brand.read'],
  '/charger-brand/:id': [<ChargerBrandSettingPage key="setting" />, 'charger-brand.read'],
  '/contact-us': [<ContactUsPage key="contact" />, 'contact-us.read'],
  '/web-admin': [<AdminUserListPage key="list" />, 'user.admin.read'],
  '/member-mobile-user': [<MobileUserListPage key="list" />, 'user.mobile.read'],
  '/user-detail': [<UserDetailPage key="self" />],
};

function screen(path: ShellPath): ReactNode {
  const entry = SCREENS[path];
  if (!entry) return <NotFoundPage />;
  const [element, permission] = entry;
  return permission ? <RequirePermission permission={permission}>{element}</RequirePermission> : element;
}

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <Navigate to="/login" replace /> },
      { element: <RequireSignedOut />, children: [{ path: '/login', element: <LoginPage /> }] },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/terms-and-conditions', element: <PublicLegalPage type="terms" /> },
      { path: '/privacy-polices', element: <PublicLegalPage type="privacy" /> },
      {
        element: <RequireSignedIn requireTerms={false} />,
        children: [{ path: '/landing', element: <LandingPage /> }],
      },
      {
        element: <RequireSignedIn />,
        children: [
          {
            element: <ShellLayout />,
            children: SHELL_PATHS.map((path) => ({ path, element: screen(path) })),
          },
        ],
      },
      { path: '*', element: <CatchAllPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
