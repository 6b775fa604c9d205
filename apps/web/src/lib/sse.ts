import { parseSse, type SseEvent } from '@ev/shared';
import { ApiError, apiFetch } from './api.ts';

export { parseSse, type SseEvent } from '@ev/shared';

/** A stream opened by a write (a firmware batch is a POST with its body). */
export interface EventsRequest {
  method: 'POST';
  body: unknown;
}

/**
 * Opens an event stream of the API with the session in the X-ACCESS-TOKEN header (never in the URL), and
 * yields its events. A refusal (any non-2xx answer) throws ApiError with the server's `message`, like `api`.
 */
export async function* apiEvents(
  path: string,
  signal?: AbortSignal,
  request?: EventsRequest,
): AsyncGenerator<SseEvent> {
  const response = await apiFetch(path, { accept: 'text/event-stream', signal, ...request });
  if (!response.body) throw new ApiError(response.status, `HTTP ${response.status}`);
  yield* parseSse(response.body);
}
