import { RICH_TEXT_FONTS, VIDEO_HOSTS, VIDEO_SANDBOX } from '@ev/shared';
import sanitizeHtml, { type Attributes, type IOptions } from 'sanitize-html';
import { UPLOAD_PATH } from './uploads.ts';

/**
 * The rich HTML of content pages (tutorials, terms, privacy), sanitized when written: what the editor's
 * toolbar makes survives, anything else is dropped. The pages are shown as HTML to every staff user (the
 * editor, /landing), to anyone (the public legal pages) and in the member app, so the allowlist is narrow:
 * no script, no event handler, no URL scheme but http(s)/mailto/tel, no CSS that can fetch or run, images
 * only from our uploads or https, and videos only from the player pages of VIDEO_HOSTS, sandboxed.
 * sanitize-html parses with htmlparser2 (no DOM: jsdom-based sanitizers leak in a long-running process).
 */

const TAGS = [
  'p',
  'div',
  'span',
  'br',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'b',
  'strong',
  'u',
  'i',
  'em',
  's',
  'strike',
  'del',
  'sub',
  'sup',
  'blockquote',
  'pre',
  'code',
  'hr',
  'ol',
  'ul',
  'li',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'colgroup',
  'col',
  'caption',
  'a',
  'img',
  'figure',
  'figcaption',
  'iframe',
];

/**
 * Elements dropped with everything inside them (the default keeps the text of a dropped element): their
 * content is code, markup of another language or a form's option list, never text a reader wrote.
 */
const DROPPED_WITH_CONTENT = [
  'script',
  'style',
  'textarea',
  'option',
  'select',
  'noscript',
  'noembed',
  'noframes',
  'template',
  'title',
  'xmp',
  'svg',
  'math',
  'object',
  'embed',
  'applet',
  'head',
];

// CSS values: each property takes only what its regex matches, whole. Nothing that fetches or runs.
const NUM = String.raw`\d{1,4}(?:\.\d{1,4})?`;
const LENGTH = `(?:0|-?${NUM}(?:px|pt|em|rem|%|vw|vh|ch|ex|cm|mm|in))`;
const LENGTH_AUTO = `(?:${LENGTH}|auto)`;
const BYTE = String.raw`\s*\d{1,3}(?:\.\d+)?%?\s*`;
const ALPHA = String.raw`\s*(?:0|1|0?\.\d{1,4}|\d{1,3}%)\s*`;
const COLOR = [
  `#[0-9a-f]{3,8}`,
  String.raw`rgba?\(${BYTE},${BYTE},${BYTE}(?:,${ALPHA})?\)`,
  String.raw`rgba?\(${BYTE}\s${BYTE}\s${BYTE}(?:\/${ALPHA})?\)`,
  String.raw`hsla?\(\s*\d{1,3}(?:\.\d+)?(?:deg)?\s*,${BYTE},${BYTE}(?:,${ALPHA})?\)`,
  // Named colours (red, transparent, currentcolor, …): letters only.
  '[a-z]{3,20}',
].join('|');
/** The editor's fonts (section 2) and the generic families; a name with spaces may be quoted. */
const FONTS = [...RICH_TEXT_FONTS, 'NotoSansThai', 'sans-serif', 'serif'];
const FONT = `(?:${FONTS.map((font) => `${font}|"${font}"|'${font}'`).join('|')})`;
const BORDER_STYLE = '(?:none|hidden|solid|dashed|dotted|double|groove|ridge|inset|outset)';
const BORDER_PART = `(?:${LENGTH}|thin|medium|thick|${BORDER_STYLE}|${COLOR})`;

/** Never in a kept style value, whatever a property's regex says (belt and braces). */
const FORBIDDEN_CSS = String.raw`(?!.*(?:url\(|expression|@import|\\|javascript:|behavior|binding|image-set|var\(|attr\())`;
const css = (source: string) => new RegExp(`^${FORBIDDEN_CSS}(?:${source})$`, 'i');

const STYLES: Record<string, RegExp[]> = {
  color: [css(COLOR)],
  'background-color': [css(COLOR)],
  'font-family': [css(String.raw`${FONT}(?:\s*,\s*${FONT})*`)],
  'font-size': [css(`${NUM}(?:px|pt|em|rem|%)`)],
  'font-weight': [css('normal|bold|bolder|lighter|[1-9]00')],
  'font-style': [css('normal|italic|oblique')],
  'text-align': [css('left|right|center|justify|start|end')],
  'text-decoration': [
    css(String.raw`none|(?:underline|line-through|overline)(?:\s+(?:underline|line-through|overline))*`),
  ],
  'vertical-align': [css(`baseline|sub|super|top|middle|bottom|text-top|text-bottom|${LENGTH}`)],
  'line-height': [css(`normal|${NUM}|${LENGTH}`)],
  'list-style-type': [
    css(
      'disc|circle|square|decimal|decimal-leading-zero|lower-alpha|upper-alpha|lower-latin|upper-latin|lower-roman|upper-roman|lower-greek|thai|none',
    ),
  ],
  // Indent (the toolbar's indent is a margin), alignment of figures and table cells' padding.
  margin: [css(String.raw`${LENGTH_AUTO}(?:\s+${LENGTH_AUTO}){0,3}`)],
  'margin-left': [css(LENGTH_AUTO)],
  'margin-right': [css(LENGTH_AUTO)],
  'margin-top': [css(LENGTH_AUTO)],
  'margin-bottom': [css(LENGTH_AUTO)],
  padding: [css(String.raw`${LENGTH}(?:\s+${LENGTH}){0,3}`)],
  'padding-left': [css(LENGTH)],
  'padding-right': [css(LENGTH)],
  'padding-top': [css(LENGTH)],
  'padding-bottom': [css(LENGTH)],
  width: [css(LENGTH_AUTO)],
  height: [css(LENGTH_AUTO)],
  'max-width': [css(`${LENGTH}|none`)],
  'min-width': [css(LENGTH)],
  float: [css('left|right|none')],
  display: [css('block|inline|inline-block|flex|table|table-cell|none')],
  'table-layout': [css('auto|fixed')],
  'border-collapse': [css('collapse|separate')],
  'caption-side': [css('top|bottom')],
  border: [css(String.raw`${BORDER_PART}(?:\s+${BORDER_PART}){0,2}`)],
  'border-top': [css(String.raw`${BORDER_PART}(?:\s+${BORDER_PART}){0,2}`)],
  'border-right': [css(String.raw`${BORDER_PART}(?:\s+${BORDER_PART}){0,2}`)],
  'border-bottom': [css(String.raw`${BORDER_PART}(?:\s+${BORDER_PART}){0,2}`)],
  'border-left': [css(String.raw`${BORDER_PART}(?:\s+${BORDER_PART}){0,2}`)],
  'border-color': [css(String.raw`(?:${COLOR})(?:\s+(?:${COLOR})){0,3}`)],
  'border-style': [css(String.raw`${BORDER_STYLE}(?:\s+${BORDER_STYLE}){0,3}`)],
  'border-width': [
    css(String.raw`(?:${LENGTH}|thin|medium|thick)(?:\s+(?:${LENGTH}|thin|medium|thick)){0,3}`),
  ],
  'border-radius': [css(String.raw`${LENGTH}(?:\s+${LENGTH}){0,3}`)],
};

/** The player pages of each video host: YouTube's /embed/{id}, Vimeo's /video/{id}. */
const VIDEO_PATHS: Record<(typeof VIDEO_HOSTS)[number], RegExp> = {
  'www.youtube.com': /^\/embed\/[\w-]{1,64}$/,
  'youtube.com': /^\/embed\/[\w-]{1,64}$/,
  'www.youtube-nocookie.com': /^\/embed\/[\w-]{1,64}$/,
  'player.vimeo.com': /^\/video\/\d{1,20}$/,
};

/** YouTube refuses embeds sent without a referrer; the origin alone is enough. */
const VIDEO_REFERRER = 'strict-origin-when-cross-origin';

const parseUrl = (value: string, base?: string) => {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
};

/** A player URL of VIDEO_HOSTS, normalized; null for anything else. */
function videoSrc(value: string | undefined): string | null {
  const url = value ? parseUrl(value) : null;
  if (url?.protocol !== 'https:' || url.username || url.password || url.port) return null;
  const path = VIDEO_PATHS[url.hostname as (typeof VIDEO_HOSTS)[number]];
  return path?.test(url.pathname) ? url.href : null;
}

/** An image source: one of our uploads, or an https URL (never `data:`: no base64 image is stored). */
function imageSrc(value: string | undefined): string | null {
  if (!value) return null;
  if (UPLOAD_PATH.test(value)) return value;
  const url = /^https:/i.test(value) ? parseUrl(value) : null;
  return url?.protocol === 'https:' && url.hostname ? value : null;
}

/**
 * A link target: http(s), mailto, tel, or a path of this site (`/guide`, `#top`, `?a=1`). Resolved the
 * way a browser does (WHATWG URL: tabs and newlines inside a scheme are stripped), so an obfuscated
 * `jav&#x09;ascript:` is still seen as javascript.
 */
const SAME_SITE = 'https://same-site.invalid';
function linkHref(value: string | undefined): string | null {
  if (!value) return null;
  const url = parseUrl(value, `${SAME_SITE}/`);
  if (!url) return null;
  if (url.origin === SAME_SITE) return /^[/#?]/.test(value) && !/^[/\\]{2}/.test(value) ? value : null;
  return ['http:', 'https:', 'mailto:', 'tel:'].includes(url.protocol) ? value : null;
}

const SIZE_ATTRIBUTE = /^\d{1,5}(?:px|%)?$/;
const SPAN_ATTRIBUTE = /^[1-9]\d{0,2}$/;

/** Keeps the attributes whose value matches; drops the others. */
function keepMatching(attribs: Attributes, rules: Record<string, RegExp>): void {
  for (const [name, rule] of Object.entries(rules)) {
    const value = attribs[name];
    if (value !== undefined && !rule.test(value.trim())) delete attribs[name];
  }
}

const OPTIONS: IOptions = {
  allowedTags: TAGS,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  allowedAttributes: {
    // The editor's sizes of images and videos, read back when a page is edited again.
    '*': ['style', 'class', 'data-se-size', 'data-se-file-name', 'data-se-file-size'],
    a: ['href', 'target', 'rel', 'title'],
    img: ['src', 'alt', 'width', 'height', 'title'],
    iframe: [
      'src',
      'width',
      'height',
      'title',
      'frameborder',
      'allowfullscreen',
      'sandbox',
      'referrerpolicy',
    ],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    col: ['span'],
    colgroup: ['span'],
    ol: ['start'],
  },
  allowedClasses: { '*': [/^(?:__se__|se-)[\w-]{1,64}$/] },
  allowedStyles: { '*': STYLES },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['https'], iframe: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  allowedIframeHostnames: [...VIDEO_HOSTS],
  allowIframeRelativeUrls: false,
  transformTags: {
    a: (tagName, attribs) => {
      const href = linkHref(attribs.href);
      if (href === null) delete attribs.href;
      // A new tab never gets a handle on this page (noopener), nor our URL (noreferrer); content links
      // are not endorsements (nofollow). Without target=_blank no rel is needed: the user's is dropped.
      if (attribs.target === '_blank') attribs.rel = 'noopener noreferrer nofollow';
      else {
        delete attribs.target;
        delete attribs.rel;
      }
      return { tagName, attribs };
    },
    img: (tagName, attribs) => {
      const src = imageSrc(attribs.src);
      if (src === null) delete attribs.src;
      keepMatching(attribs, { width: SIZE_ATTRIBUTE, height: SIZE_ATTRIBUTE });
      return { tagName, attribs };
    },
    iframe: (tagName, attribs) => {
      const src = videoSrc(attribs.src);
      const kept: Attributes = {};
      for (const name of ['width', 'height', 'title', 'style', 'class', 'frameborder', 'data-se-size']) {
        if (attribs[name] !== undefined) kept[name] = attribs[name];
      }
      keepMatching(kept, { width: SIZE_ATTRIBUTE, height: SIZE_ATTRIBUTE, frameborder: /^[01]$/ });
      // Without a player URL the frame is dropped (exclusiveFilter); with one, the sandbox is ours.
      if (src === null) return { tagName, attribs: kept };
      return {
        tagName,
        attribs: {
          ...kept,
          src,
          sandbox: VIDEO_SANDBOX,
          referrerpolicy: VIDEO_REFERRER,
          allowfullscreen: '',
        },
      };
    },
    td: (tagName, attribs) => {
      keepMatching(attribs, { colspan: SPAN_ATTRIBUTE, rowspan: SPAN_ATTRIBUTE });
      return { tagName, attribs };
    },
    th: (tagName, attribs) => {
      keepMatching(attribs, { colspan: SPAN_ATTRIBUTE, rowspan: SPAN_ATTRIBUTE });
      return { tagName, attribs };
    },
    col: (tagName, attribs) => {
      keepMatching(attribs, { span: SPAN_ATTRIBUTE });
      return { tagName, attribs };
    },
    colgroup: (tagName, attribs) => {
      keepMatching(attribs, { span: SPAN_ATTRIBUTE });
      return { tagName, attribs };
    },
    ol: (tagName, attribs) => {
      keepMatching(attribs, { start: /^-?\d{1,6}$/ });
      return { tagName, attribs };
    },
  },
  // An image without a source and a frame without a player are nothing to show: dropped whole.
  exclusiveFilter: (frame) =>
    (frame.tag === 'iframe' && frame.attribs.sandbox !== VIDEO_SANDBOX) ||
    (frame.tag === 'iframe' && !frame.attribs.src) ||
    (frame.tag === 'img' && !frame.attribs.src),
};

/** Rich HTML from the editor, with everything outside the allowlist removed. */
export function sanitizeRichHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
