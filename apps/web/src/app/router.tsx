import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LandingPage } from '../features/auth/landing-page.tsx';
import { LoginPage } from '../features/auth/login-page.tsx';
import { ResetPasswordPage } from '../features/auth/reset-password-page.tsx';
import { PublicLegalPage } from '../features/legal/public-legal-page.tsx';
import { MerchantListPage } from '../features/merchant/merchant-list-page.tsx';
import { MerchantSettingPage } from '../features/merchant/merchant-setting-page.tsx';
import { UserDetailPage } from '../features/profile/user-detail-page.tsx';
import { RequireSignedIn, RequireSignedOut } from './guards.tsx';
import { CatchAllPage, NotFoundPage } from './not-found.tsx';
import { RouteError } from './route-error.tsx';
import { SHELL_PATHS, type ShellPath } from './route-table.ts';
import { ShellLayout } from './shell/layout.tsx';

/** The screens built so far; every other shell route shows the not-found page until its issue lands. */
const SCREENS: Partial<Record<ShellPath, ReactNode>> = {
  '/merchant': <MerchantListPage />,
  '/merchant/:id': <MerchantSettingPage />,
  '/user-detail': <UserDetailPage />,
};

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
            children: SHELL_PATHS.map((path) => ({ path, element: SCREENS[path] ?? <NotFoundPage /> })),
          },
        ],
      },
      { path: '*', element: <CatchAllPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
