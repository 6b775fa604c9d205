import { ApiError } from './api.ts';
import { session } from './session.ts';

/**
 * Uploads a form to `/api{path}` with the session's token, telling `onProgress` the share sent (0 to 1): a
 * firmware file of many megabytes shows a progress bar (fetch reports no upload progress, XMLHttpRequest
 * does). Resolves with the JSON answer; a refusal rejects with ApiError and the server's `message`, as `api`.
 */
export function apiUpload<T>(
  path: string,
  body: FormData,
  onProgress: (share: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api${path}`);
    request.setRequestHeader('Accept', 'application/json');
    const token = session.get()?.accessToken;
    if (token) request.setRequestHeader('X-ACCESS-TOKEN', token);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let answer: unknown = null;
      try {
        answer = JSON.parse(request.responseText);
      } catch {
        // not JSON: the status speaks
      }
      if (request.status >= 200 && request.status < 300) return resolve(answer as T);
      const message = (answer as { message?: unknown } | null)?.message;
      if (request.status === 401 && token && session.get()?.accessToken === token) session.clear();
      reject(
        new ApiError(
          request.status,
          typeof message === 'string' && message ? message : `HTTP ${request.status}`,
        ),
      );
    };
    request.onerror = () => reject(new ApiError(0, 'Network error'));
    request.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(body);
  });
}
