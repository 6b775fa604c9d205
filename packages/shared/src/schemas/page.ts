import { z } from 'zod';
import { idQuery } from './common.ts';
import { activeBody, booleanParam, listQuery, maxMessage } from './list.ts';

/**
 * Content pages (document 3, sections 2–8): tutorials (type guide), terms and privacy policies. Their Detail
 * fields are rich HTML, sanitized by the server when written (apps/server/src/lib/sanitize.ts).
 */
export const PAGE_TYPES = ['terms', 'privacy', 'guide'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

export const PAGE_MESSAGES = {
  titleEn: 'Title (EN) is required.',
  titleTh: 'Title (TH) is required.',
  detailEn: 'Detail (EN) is required.',
  detailTh: 'Detail (TH) is required.',
  notFound: 'Page not found',
  /** DELETE of a terms/privacy page someone accepted (acceptances are legal records). */
  used: "Can't delete already used item",
  /** DELETE of an active page. */
  activeDelete: 'Only an inactive page can be deleted.',
  /** Switching off the page in force while no other page of its type is published. */
  lastPublished: 'Publish another version before unpublishing the one in force.',
  /** The 'Done!' notice after saving the tutorial order. */
  orderSaved: 'Done!',
} as const;

/** Tutorial titles: at most 100 characters; terms and privacy titles: 255 (section 9). */
export const GUIDE_TITLE_MAX = 100;
export const LEGAL_TITLE_MAX = 255;
/** A Detail field's HTML, before sanitizing: 1 MB of text (images are uploaded files, never base64). */
export const PAGE_DETAIL_MAX = 1_000_000;
/** Display order: 0 = not displayed; the Manage Tutorials panel shows up to 99. */
export const PAGE_WEIGHT_MAX = 10_000;

const title = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, maxMessage(max));

/** Rich HTML that must hold some text or media once the tags are taken away (an editor's empty `<p><br></p>` does not). */
const detail = (message: string) =>
  z
    .string({ error: message })
    .max(PAGE_DETAIL_MAX, maxMessage(PAGE_DETAIL_MAX))
    .refine((html) => hasContent(html), message);

/** Whether rich HTML holds any visible text, an image, a video or a table (not only empty tags). */
export function hasContent(html: string): boolean {
  if (/<(img|iframe|video|table|hr)\b/i.test(html)) return true;
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;|\u00a0|\u200b/gi, '')
    .trim();
  return text.length > 0;
}

const pageFields = (titleMax: number) => ({
  titleEn: title(PAGE_MESSAGES.titleEn, titleMax),
  titleTh: title(PAGE_MESSAGES.titleTh, titleMax),
  detailEn: detail(PAGE_MESSAGES.detailEn),
  detailTh: detail(PAGE_MESSAGES.detailTh),
  active: z.boolean().optional(),
});

/** The 'Create Tutorials' form. `active` left out: active on POST (section 2), unchanged on PATCH. */
export const guideBody = z.strictObject({ type: z.literal('guide'), ...pageFields(GUIDE_TITLE_MAX) });
/** The terms / privacy modal. `active` left out: inactive (Draft) on POST, unchanged on PATCH. */
export const legalBody = z.strictObject({
  type: z.enum(['terms', 'privacy']),
  ...pageFields(LEGAL_TITLE_MAX),
  // Terms and privacy details are not required by section 5, but a published empty policy is no contract:
  // they are required here too (docs/decisions.md).
});
export const pageBody = z.discriminatedUnion('type', [guideBody, legalBody]);
export type PageBody = z.infer<typeof pageBody>;
export type PageForm = z.input<typeof pageBody>;

/** The Manage Tutorials save: one call per item, in sequence. */
export const weightBody = z.strictObject({ weight: z.number().int().min(0).max(PAGE_WEIGHT_MAX) });
export type WeightBody = z.infer<typeof weightBody>;

/**
 * PATCH /api/page/{id}: the whole form (its `type` must be the page's own), `{ active }` (the list's
 * switch) or `{ weight }` (the tutorial order).
 */
export const pagePatchBody = z.union([activeBody, weightBody, pageBody]);
export type PagePatchBody = z.infer<typeof pagePatchBody>;

export const PAGE_SORTS = ['id', 'titleEn', 'titleTh', 'active', 'weight', 'updatedAt', 'createdAt'] as const;

/** GET /api/page (section 7): type, id, active, weight, minWeight, page, size, sort, order; `mode=dropdown`. */
export const pageListQuery = listQuery.extend({
  type: z.enum(PAGE_TYPES),
  id: idQuery.optional(),
  active: booleanParam,
  /** `weight=0`: tutorials not displayed. */
  weight: z.coerce.number().int().min(0).max(PAGE_WEIGHT_MAX).optional(),
  /** `minWeight=0`: tutorials displayed (weight above minWeight). */
  minWeight: z.coerce.number().int().min(0).max(PAGE_WEIGHT_MAX).optional(),
  /** Every page of the type as `{ id, titleEn, titleTh }`, unpaged, for the Title filter. */
  mode: z.enum(['dropdown']).optional(),
});
export type PageListQuery = z.infer<typeof pageListQuery>;

export const page = z
  .object({
    id: z.number().int(),
    type: z.enum(PAGE_TYPES),
    titleEn: z.string(),
    titleTh: z.string(),
    detailEn: z.string(),
    detailTh: z.string(),
    active: z.boolean(),
    weight: z.number().int(),
    publishedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Page' });
export type Page = z.infer<typeof page>;

/** A list row: the page without its Detail HTML (a list of policies must not carry every policy's text). */
export const pageSummary = page.omit({ detailEn: true, detailTh: true });
export type PageSummary = z.infer<typeof pageSummary>;
export const pageTitle = z.object({ id: z.number().int(), titleEn: z.string(), titleTh: z.string() });
export type PageTitle = z.infer<typeof pageTitle>;

export const pageListResponse = z.union([
  z.object({ total: z.number().int(), pages: z.array(pageSummary) }),
  z.object({ pages: z.array(pageTitle) }),
]);
export const pageResponse = z.object({ page });

/** POST /api/upload: the stored image's URL (served from /uploads/{name}). */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const UPLOAD_MESSAGES = {
  tooLarge: 'The image is larger than 5 MB.',
  notImage: 'Only PNG, JPEG, GIF and WebP images can be uploaded.',
  missing: 'No file was sent.',
} as const;
export const uploadResponse = z.object({ url: z.string(), name: z.string(), size: z.number().int() });
export type UploadResponse = z.infer<typeof uploadResponse>;

/** The fonts of the editor's Font menu (section 2); the Thai ones are bundled with the web app. */
export const RICH_TEXT_FONTS = [
  'Arial',
  'Georgia',
  'Tahoma',
  'Trebuchet MS',
  'Verdana',
  'Prompt',
  'Kanit',
  'Sarabun',
  'Pridi',
  'Noto Sans Thai',
] as const;

/** Video embeds the editor and the sanitizer accept: YouTube and Vimeo players only. */
export const VIDEO_HOSTS = [
  'www.youtube.com',
  'youtube.com',
  'www.youtube-nocookie.com',
  'player.vimeo.com',
] as const;
/** The sandbox every embedded video iframe gets. */
export const VIDEO_SANDBOX = 'allow-scripts allow-same-origin allow-presentation allow-popups';

/** A displayed tutorial as the member API gives it to the app, in display order. */
export const memberGuide = z.object({
  id: z.number().int(),
  titleEn: z.string(),
  titleTh: z.string(),
  detailEn: z.string(),
  detailTh: z.string(),
  weight: z.number().int(),
});
export const memberGuidesResponse = z.object({ total: z.number().int(), pages: z.array(memberGuide) });
