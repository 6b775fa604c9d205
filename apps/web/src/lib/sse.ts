import { parseSse, type SseEvent } from '@ev/shared';
import { ApiError } from './api.ts';
import { session } from './session.ts';

export { parseSse, type SseEvent } from '@ev/shared';

/**
 * Opens an event stream of the API with the session in the X-ACCESS-TOKEN header (never in the URL), and
 * yields its events. A refusal (any non-2xx answer) throws ApiError with the server's `message`, like `api`.
 */
export async function* apiEvents(path: string, signal?: AbortSignal): AsyncGenerator<SseEvent> {
  const token = session.get()?.accessToken ?? null;
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  if (token) headers['X-ACCESS-TOKEN'] = token;
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { headers, signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'Network error');
  }
  if (!response.ok || !response.body) {
    const answer = (await response.json().catch(() => null)) as { message?: unknown } | null;
    if (response.status === 401 && token && session.get()?.accessToken === token) session.clear();
    const message = typeof answer?.message === 'string' && answer.message ? answer.message : '';
    throw new ApiError(response.status, message || `HTTP ${response.status}`);
  }
  yield* parseSse(response.body);
}
