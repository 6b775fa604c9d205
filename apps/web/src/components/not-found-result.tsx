import { Result } from 'antd';
import type { ReactNode } from 'react';

export const NOT_FOUND_TITLE = "Sorry, this page can't be found.";
export const NOT_FOUND_TEXT = "This page doesn't exist. It may be moved or the URL may be incorrect.";

export function NotFoundResult({ extra }: { extra?: ReactNode }) {
  return <Result status="404" title={NOT_FOUND_TITLE} subTitle={NOT_FOUND_TEXT} extra={extra} />;
}

export const FORBIDDEN_TITLE = 'Sorry, you are not authorized to access this page.';
export const FORBIDDEN_TEXT =
  'Your role does not give access to this page. Ask an administrator if you need it.';

/** A screen the signed-in role may not open (the server refuses its calls too). */
export function ForbiddenResult({ extra }: { extra?: ReactNode }) {
  return <Result status="403" title={FORBIDDEN_TITLE} subTitle={FORBIDDEN_TEXT} extra={extra} />;
}
