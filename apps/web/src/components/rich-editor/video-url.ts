import { VIDEO_HOSTS } from '@ev/shared';

/** What the editor says when a video link is neither YouTube nor Vimeo. */
export const VIDEO_REFUSED = 'Only YouTube and Vimeo links can be embedded.';

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d+$/;

function parse(input: string): URL | null {
  const text = input.trim();
  if (!text) return null;
  try {
    return new URL(/^[a-z][a-z\d+.-]*:/i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
}

/** The YouTube player URL of a watch, share (youtu.be), shorts, live or embed link; null for anything else. */
export function youtubeEmbedUrl(input: string): string | null {
  const url = parse(input);
  if (!url || !/^https?:$/.test(url.protocol)) return null;
  const host = url.hostname.toLowerCase().replace(/^(www|m|music)\./, '');
  const parts = url.pathname.split('/').filter(Boolean);
  let id: string | undefined;
  if (host === 'youtu.be') id = parts[0];
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    if (parts[0] === 'watch') id = url.searchParams.get('v') ?? undefined;
    else if (['embed', 'shorts', 'live', 'v'].includes(parts[0] ?? '')) id = parts[1];
  }
  if (!id || !YOUTUBE_ID.test(id)) return null;
  const start = Number.parseInt(url.searchParams.get('start') ?? url.searchParams.get('t') ?? '', 10);
  return `https://www.youtube.com/embed/${id}${start > 0 ? `?start=${start}` : ''}`;
}

/** The Vimeo player URL of a vimeo.com or player link (with the hash of an unlisted video); null otherwise. */
export function vimeoEmbedUrl(input: string): string | null {
  const url = parse(input);
  if (!url || !/^https?:$/.test(url.protocol)) return null;
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const parts = url.pathname.split('/').filter(Boolean);
  let id: string | undefined;
  let hash = url.searchParams.get('h') ?? undefined;
  if (host === 'player.vimeo.com') {
    if (parts[0] === 'video') id = parts[1];
  } else if (host === 'vimeo.com') {
    const at = parts.findIndex((part) => VIMEO_ID.test(part));
    if (at >= 0) {
      id = parts[at];
      hash ??= parts[at + 1];
    }
  }
  if (!id || !VIMEO_ID.test(id)) return null;
  return `https://player.vimeo.com/video/${id}${hash && /^[\da-f]+$/i.test(hash) ? `?h=${hash}` : ''}`;
}

/** The player URL of a YouTube or Vimeo link, or null: only those two are embedded (VIDEO_HOSTS). */
export function videoEmbedUrl(input: string): string | null {
  return youtubeEmbedUrl(input) ?? vimeoEmbedUrl(input);
}

/** Whether a URL is already a YouTube or Vimeo player URL the server's sanitizer keeps. */
export function isVideoEmbedUrl(src: string): boolean {
  const url = parse(src);
  if (url?.protocol !== 'https:') return false;
  if (!(VIDEO_HOSTS as readonly string[]).includes(url.hostname)) return false;
  return url.hostname === 'player.vimeo.com'
    ? /^\/video\/\d+$/.test(url.pathname)
    : /^\/embed\/[A-Za-z0-9_-]{11}$/.test(url.pathname);
}
