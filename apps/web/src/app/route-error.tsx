import { Button, Result } from 'antd';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ERROR_TITLE, errorDescription } from '../lib/notify.ts';

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
      <Result
        status="error"
        title={ERROR_TITLE}
        subTitle={errorDescription(code)}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            Reload
          </Button>
        }
      />
    </main>
  );
}
