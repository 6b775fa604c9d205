import { lazy, Suspense } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';

// antd's Result carries its status pictures: they load only when a screen has crashed, not with every page.
const ErrorResult = lazy(() => import('./route-error-result.tsx'));

/** A screen that crashed while rendering: say so in the spec's words and offer a reload. */
export function RouteError() {
  const error = useRouteError();
  const code = isRouteErrorResponse(error)
    ? `${error.status}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <main className="standalone-page">
      <Suspense fallback={null}>
        <ErrorResult code={code} />
      </Suspense>
    </main>
  );
}
