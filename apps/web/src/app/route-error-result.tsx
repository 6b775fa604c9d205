import { Button, Result } from 'antd';
import { ERROR_TITLE, errorDescription } from '../lib/notify.ts';

/** The crash notice of a route, in the spec's words, with a reload. */
export default function ErrorResult({ code }: { code: string }) {
  return (
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
  );
}
