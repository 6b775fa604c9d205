import {
  UPLOAD_IMAGE_TYPES,
  UPLOAD_MAX_BYTES,
  UPLOAD_MESSAGES,
  type UploadResponse,
  uploadResponse,
} from '@ev/shared';
import { ApiError, api } from '../../lib/api.ts';

/** Why a file cannot be uploaded as an image before it is sent (the server checks again), or null. */
export function imageProblem(file: File): string | null {
  if (!(UPLOAD_IMAGE_TYPES as readonly string[]).includes(file.type)) return UPLOAD_MESSAGES.notImage;
  if (file.size > UPLOAD_MAX_BYTES) return UPLOAD_MESSAGES.tooLarge;
  return null;
}

/**
 * Uploads one image to `POST /api/upload` (multipart, field `file`, the session's token) and returns the
 * stored file's URL (`/uploads/…`). A refusal throws ApiError with the server's message (413, 415).
 */
export async function uploadImage(file: File): Promise<UploadResponse> {
  const body = new FormData();
  body.append('file', file, file.name);
  return uploadResponse.parse(await api<unknown>('/upload', { method: 'POST', body }));
}

/** The message to show for a failed upload: the server's, or ours for a refusal that came without one. */
export function uploadErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 413 && error.message.startsWith('HTTP ')) return UPLOAD_MESSAGES.tooLarge;
    if (error.status === 415 && error.message.startsWith('HTTP ')) return UPLOAD_MESSAGES.notImage;
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
