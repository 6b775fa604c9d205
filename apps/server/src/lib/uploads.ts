import { randomUUID } from 'node:crypto';

/**
 * Uploaded images: stored as `<random uuid>.<ext>` with the extension of the type their bytes show, never
 * the one the sender claimed; served from /uploads/<name> (modules/upload).
 */
export const UPLOAD_NAME =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:png|jpg|gif|webp)$/;
/** An uploaded image as a same-site path, the form the editor puts in `<img src>`. */
export const UPLOAD_PATH = new RegExp(`^/uploads/${UPLOAD_NAME.source.slice(1)}`);

export const IMAGE_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
} as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** The image type of some bytes, by their signature (PNG, JPEG, GIF, WebP; no SVG: it is a document). */
export function sniffImage(bytes: Uint8Array): ImageExtension | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  return null;
}

export const uploadName = (extension: ImageExtension) => `${randomUUID()}.${extension}`;
