import { describe, expect, it } from 'vitest';
import { isVideoEmbedUrl, videoEmbedUrl } from './video-url.ts';

describe('videoEmbedUrl', () => {
  it('turns YouTube watch, share, shorts and embed links into the player URL', () => {
    const player = 'https://www.youtube.com/embed/dQw4w9WgXcQ';
    expect(videoEmbedUrl('https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=x')).toBe(player);
    expect(videoEmbedUrl('youtube.com/watch?v=dQw4w9WgXcQ')).toBe(player);
    expect(videoEmbedUrl('https://m.youtube.com/watch?v=dQw4w9WgXcQ')).toBe(player);
    expect(videoEmbedUrl('https://youtu.be/dQw4w9WgXcQ?t=42')).toBe(`${player}?start=42`);
    expect(videoEmbedUrl('https://www.youtube.com/shorts/dQw4w9WgXcQ')).toBe(player);
    expect(videoEmbedUrl(player)).toBe(player);
  });

  it('turns Vimeo links into the player URL', () => {
    expect(videoEmbedUrl('https://vimeo.com/76979871')).toBe('https://player.vimeo.com/video/76979871');
    expect(videoEmbedUrl('https://vimeo.com/channels/staffpicks/76979871')).toBe(
      'https://player.vimeo.com/video/76979871',
    );
    expect(videoEmbedUrl('https://vimeo.com/76979871/abc123')).toBe(
      'https://player.vimeo.com/video/76979871?h=abc123',
    );
    expect(videoEmbedUrl('https://player.vimeo.com/video/76979871')).toBe(
      'https://player.vimeo.com/video/76979871',
    );
  });

  it('refuses other hosts and malformed links', () => {
    expect(videoEmbedUrl('https://www.dailymotion.com/video/x7tgad0')).toBeNull();
    expect(videoEmbedUrl('https://evil.example/youtube.com/watch?v=dQw4w9WgXcQ')).toBeNull();
    expect(videoEmbedUrl('https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ')).toBeNull();
    expect(videoEmbedUrl('javascript:alert(1)')).toBeNull();
    expect(videoEmbedUrl('https://www.youtube.com/watch?v=short')).toBeNull();
    expect(videoEmbedUrl('')).toBeNull();
  });

  it('recognises player URLs only on the allowed hosts', () => {
    expect(isVideoEmbedUrl('https://www.youtube.com/embed/dQw4w9WgXcQ?start=4')).toBe(true);
    expect(isVideoEmbedUrl('https://player.vimeo.com/video/76979871')).toBe(true);
    expect(isVideoEmbedUrl('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toBe(false);
    expect(isVideoEmbedUrl('http://www.youtube.com/embed/dQw4w9WgXcQ')).toBe(false);
  });
});
