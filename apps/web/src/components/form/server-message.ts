import { ApiError } from '../../lib/api.ts';

/** A validation answer reads 'body.nameEn: Cluster Name (EN) is required.': the user sees only the text. */
export function withoutFieldPrefix(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const text = error.message.replace(/^body\.[\w.[\]]+: /, '');
  return text === error.message ? error : new ApiError(error.status, text);
}
