import { sanitizeRichHtml } from '@ev/server/lib/sanitize';
import { GUIDE_TITLE_MAX, hasContent } from '@ev/shared';
import { describe, expect, it } from 'vitest';
import { DEMO_GUIDES } from './demo-guides.ts';
import { PRIVACY, TERMS } from './legal-content.ts';

describe('demo content pages', () => {
  it('are already what the sanitizer keeps: the demo stores them unchanged', () => {
    for (const page of [...DEMO_GUIDES, TERMS, PRIVACY]) {
      expect(sanitizeRichHtml(page.detailEn), page.titleEn).toBe(page.detailEn);
      expect(sanitizeRichHtml(page.detailTh), page.titleTh).toBe(page.detailTh);
      expect(hasContent(page.detailEn) && hasContent(page.detailTh)).toBe(true);
    }
  });

  it('display three tutorials in order, keep one back and one switched off', () => {
    expect(DEMO_GUIDES.filter((g) => g.active && g.weight > 0).map((g) => g.weight)).toEqual([1, 2, 3]);
    expect(DEMO_GUIDES.filter((g) => g.active && g.weight === 0)).toHaveLength(1);
    expect(DEMO_GUIDES.filter((g) => !g.active)).toHaveLength(1);
    for (const guide of DEMO_GUIDES) {
      expect(guide.titleEn.length).toBeLessThanOrEqual(GUIDE_TITLE_MAX);
      expect(guide.detailTh).toMatch(/font-family:(Prompt|Kanit|Sarabun|Pridi|&quot;Noto Sans Thai&quot;)/);
    }
  });
});
