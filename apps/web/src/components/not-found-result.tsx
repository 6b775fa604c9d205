import { Result } from 'antd';
import type { ReactNode } from 'react';

export const NOT_FOUND_TITLE = "Sorry, this page can't be found.";
export const NOT_FOUND_TEXT = "This page doesn't exist. It may be moved or the URL may be incorrect.";

export function NotFoundResult({ extra }: { extra?: ReactNode }) {
  return <Result status="404" title={NOT_FOUND_TITLE} subTitle={NOT_FOUND_TEXT} extra={extra} />;
}
