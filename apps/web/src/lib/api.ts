import { session } from './session.ts';

/** A failed call: the HTTP status (0 when the server was not reached) and the server's `message`. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sent as JSON, or as it is when FormData (multipart: `POST /api/upload`). */
  body?: unknown;
  /**
   * The token to send. Defaults to the session's; `null` sends none (login, forgot and reset password,
   * the public legal pages).
   */
  token?: string | null;
  signal?: AbortSignal;
}

async function messageOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string' && body.message.length > 0) return body.message;
  } catch {
    /* not JSON: fall through to the status */
  }
  return `HTTP ${response.status}`;
}

/**
 * Fetches `/api{path}` with the session's token in X-ACCESS-TOKEN; returns the response when it is a 2xx and
 * throws ApiError with the server's `message` otherwise. The one place every call of the app goes through.
 */
export async function apiFetch(
  path: string,
  options: ApiOptions & { accept?: string } = {},
): Promise<Response> {
  const token = options.token === undefined ? (session.get()?.accessToken ?? null) : options.token;
  const headers: Record<string, string> = {};
  if (options.accept) headers.Accept = options.accept;
  const multipart = options.body instanceof FormData;
  // FormData: the browser writes the multipart Content-Type with its boundary.
  if (options.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  if (token) headers['X-ACCESS-TOKEN'] = token;

  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method: options.method ?? 'GET',
      headers,
      body: multipart
        ? (options.body as FormData)
        : options.body === undefined
          ? undefined
          : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'Network error');
  }

  if (!response.ok) {
    const message = await messageOf(response);
    // An expired or revoked token: sign out, and the route guards take the user to /login. Only the
    // session that made the call is cleared, so a late answer cannot sign out a newer login.
    if (response.status === 401 && token && session.get()?.accessToken === token) session.clear();
    throw new ApiError(response.status, message);
  }
  return response;
}

/** Calls the API under /api and returns its JSON; throws ApiError for anything but a 2xx. */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const response = await apiFetch(path, { ...options, accept: 'application/json' });
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** A downloaded file: its bytes and the name the server gave it (Content-Disposition), if any. */
export interface Download {
  blob: Blob;
  fileName: string | null;
}

/** Calls the API for a file (an export); throws ApiError like `api` for anything but a 2xx. */
export async function apiDownload(path: string): Promise<Download> {
  const response = await apiFetch(path);
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const fileName = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), fileName };
}
