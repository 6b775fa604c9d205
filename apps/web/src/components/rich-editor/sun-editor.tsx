import 'suneditor/css/editor';
import './rich-editor.css';
import { RICH_TEXT_FONTS, UPLOAD_IMAGE_TYPES, VIDEO_SANDBOX } from '@ev/shared';
import { useEffect, useRef } from 'react';
import suneditor from 'suneditor';
import {
  align,
  backgroundColor,
  blockStyle,
  font,
  fontColor,
  fontSize,
  hr,
  image,
  link,
  list,
  table,
  video,
} from 'suneditor/plugins';
import { notify } from '../../lib/notify.ts';
// The editor's contents area renders like the saved page: the same classes and style sheets as RichHtml
// (SunEditor's contents CSS, ours, and the Thai fonts).
import { RICH_TEXT_CLASS } from '../rich-html.tsx';
import type { RichEditorProps } from './index.tsx';
import { imageProblem, uploadErrorMessage, uploadImage } from './upload.ts';
import { isVideoEmbedUrl, VIDEO_REFUSED, videoEmbedUrl } from './video-url.ts';

type Editor = SunEditor.Instance;

/** The toolbar of section 2, in its order. */
const BUTTON_LIST = [
  ['undo', 'redo'],
  ['font', 'fontSize', 'blockStyle'],
  ['bold', 'underline', 'italic', 'strike', 'subscript', 'superscript'],
  ['fontColor', 'backgroundColor'],
  ['outdent', 'indent'],
  ['align', 'hr', 'list', 'table'],
  ['link', 'image', 'video'],
];

/** Changes given to onChange that may still come back as `value` (a few renders behind, at most). */
const MAX_PENDING = 64;

const IMAGE_REFUSED_TITLE = 'The image was not uploaded';

/** A link SunEditor's video plugin turns into a player URL: ours, so only YouTube and Vimeo come out. */
const toPlayer = (url: string) => videoEmbedUrl(url) ?? url;

/**
 * Pasted or dropped HTML without its data: URL images (an image is always an uploaded file). HTML that was
 * nothing else is dropped; files pasted with it are still uploaded (SunEditor handles those after this).
 */
function withoutDataImages(data: string, event: Event): string | false | undefined {
  if (!data) return undefined;
  const html = data.replace(/<img\b[^>]*\bsrc\s*=\s*["']?\s*data:[^>]*>/gi, '');
  if (html === data) return undefined;
  if (html.replace(/<[^>]*>|\s|&nbsp;/g, '') !== '' || /<(table|iframe|hr)\b/i.test(html)) return html;
  const transfer = (event as ClipboardEvent).clipboardData ?? (event as DragEvent).dataTransfer ?? null;
  return transfer && transfer.files.length > 0 ? undefined : false;
}

interface ImageInfo {
  files?: FileList | File[] | { name: string; size: number };
  url?: string;
  isUpdate?: boolean;
  element?: HTMLImageElement;
}

interface ImagePlugin {
  uploadService: { urlUpload(info: unknown): void };
}

/**
 * Every image reaches the editor through here: the image dialog's file, a pasted or a dropped file. Each is
 * uploaded to /api/upload and inserted by its URL; SunEditor's own upload (which would fall back to a base64
 * data: URL without an `uploadUrl`) never runs, as this handler never hands the files back to it.
 */
async function beforeImage($: SunEditor.Deps, info: ImageInfo): Promise<boolean | undefined> {
  if (typeof info.url === 'string') {
    // Only our own URLs are inserted by URL (the dialog has no URL field: images are uploaded).
    return /^\/uploads\/[^/]+$/.test(info.url);
  }
  const files = Array.from((info.files ?? []) as ArrayLike<File>);
  const problem = files.length === 0 ? imageProblem(new File([], '')) : files.map(imageProblem).find(Boolean);
  if (problem) {
    notify('error', IMAGE_REFUSED_TITLE, problem);
    return false;
  }
  const plugin = $.plugins.image as unknown as ImagePlugin;
  for (const file of files) {
    let stored: { url: string; name: string; size: number };
    try {
      stored = await uploadImage(file);
    } catch (error) {
      notify('error', IMAGE_REFUSED_TITLE, uploadErrorMessage(error));
      return false;
    }
    plugin.uploadService.urlUpload({
      ...info,
      url: stored.url,
      files: { name: stored.name, size: stored.size },
    });
  }
  // Handled: the dialog (if open) closes.
  return undefined;
}

/** Only YouTube and Vimeo players are embedded; files and other links are refused with a message. */
function beforeVideo(info: { url?: string }): boolean {
  if (typeof info.url === 'string' && isVideoEmbedUrl(info.url)) return true;
  notify('error', 'The video was not added', VIDEO_REFUSED);
  return false;
}

/** SunEditor 3 in a React component: created on mount, destroyed on unmount, antd Form.Item compatible. */
export default function SunEditorField({
  value,
  onChange,
  id,
  placeholder,
  disabled = false,
  height,
  'aria-label': ariaLabel,
  status,
}: RichEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Editor | null>(null);
  const onChangeRef = useRef(onChange);
  /** The HTML the editor holds, as last given to onChange or read after setting it. */
  const heldRef = useRef('');
  /** The last value set from outside: the same value again sets nothing. */
  const appliedRef = useRef<string | undefined>(undefined);
  /**
   * What was given to onChange and has not come back as `value` yet, oldest first. A render may carry an older
   * one after the user typed on (the form re-renders after SunEditor's native event, its effect later still):
   * such a value is the editor's own past, never a value from outside, and setting it would undo the
   * keystrokes since and throw the caret to the start (a slow machine typing '22 kW' into a table cell kept
   * '2' there and put '2 kW' at the top).
   */
  const pendingRef = useRef<string[]>([]);
  /**
   * Whether the user has touched the editor since its contents were last set from outside. Until then a
   * change is SunEditor normalising what it was given (figures, image sizes): kept silently, not reported,
   * so opening a record never counts as an edit.
   */
  const touchedRef = useRef(false);

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // Created once; `value` and `disabled` are followed by the effects below.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the instance lives as long as the component
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const target = document.createElement('div');
    host.appendChild(target);

    const report = ($: SunEditor.Deps) => {
      const html = $.html.get() as string;
      if (html === heldRef.current) return;
      heldRef.current = html;
      if (!touchedRef.current) return;
      const pending = pendingRef.current;
      pending.push(html);
      // A form that never gives a value back (none around the field) must not grow it without end.
      if (pending.length > MAX_PENDING) pending.splice(0, pending.length - MAX_PENDING);
      onChangeRef.current?.(html);
    };

    const initial = value ?? '';
    const editor = suneditor.create(target, {
      plugins: [
        align,
        backgroundColor,
        blockStyle,
        font,
        fontColor,
        fontSize,
        hr,
        image,
        link,
        list,
        table,
        video,
      ],
      buttonList: BUTTON_LIST,
      value: initial,
      placeholder: placeholder ?? '',
      width: '100%',
      height: typeof height === 'number' ? `${height}px` : (height ?? '320px'),
      // The app's header is fixed: a sticky toolbar would slide under it.
      toolbar_sticky: -1,
      statusbar_showPathLabel: false,
      editableFrameAttributes: { spellcheck: 'true' },
      attributeWhitelist: { iframe: 'sandbox|allowfullscreen|loading|referrerpolicy' },
      // The fonts of section 2; the Thai ones are bundled (thai-fonts.css).
      font: { items: [...RICH_TEXT_FONTS] },
      // Document 3's Formats: SunEditor 3 takes 'div' only as an item of its own (a bare 'div' is skipped).
      blockStyle: {
        items: [
          'p',
          { tag: 'div', command: 'line', name: 'Normal (DIV)' },
          'h1',
          'h2',
          'h3',
          'h4',
          'h5',
          'h6',
        ],
      },
      image: {
        // Both given: SunEditor 3.3 turns the URL field on whenever createFileInput is left unset.
        createFileInput: true,
        createUrlInput: false,
        acceptedFormats: UPLOAD_IMAGE_TYPES.join(','),
        allowMultiple: false,
      },
      video: {
        createFileInput: false,
        iframeTagAttributes: { sandbox: VIDEO_SANDBOX, loading: 'lazy', referrerpolicy: 'strict-origin' },
        embedQuery: {
          youtube: { pattern: /youtu\.?be|youtube-nocookie/i, action: toPlayer, tag: 'iframe' },
          vimeo: { pattern: /vimeo\.com/i, action: toPlayer, tag: 'iframe' },
        },
      },
      events: {
        onChange: ({ $ }) => report($),
        onInput: ({ $ }) => {
          touchedRef.current = true;
          report($);
        },
        onImageUploadBefore: ({ $, info }) => beforeImage($, info),
        onVideoUploadBefore: async ({ info }) => beforeVideo(info),
        onPaste: async ({ data, event }) => withoutDataImages(data, event),
        onDrop: async ({ data, event }) => withoutDataImages(data, event) ?? true,
      },
    });
    editorRef.current = editor;
    appliedRef.current = initial;
    heldRef.current = editor.$.html.get() as string;
    touchedRef.current = false;

    const wysiwyg = editor.$.frameContext.get('wysiwyg') as HTMLElement;
    wysiwyg.classList.add(...RICH_TEXT_CLASS.split(' '));
    wysiwyg.setAttribute('role', 'textbox');
    wysiwyg.setAttribute('aria-multiline', 'true');

    // Any key, click or paste in the editor (toolbar and dialogs included) is the user's.
    const touch = () => {
      touchedRef.current = true;
    };
    const kinds = ['keydown', 'pointerdown', 'paste', 'drop'] as const;
    for (const kind of kinds) host.addEventListener(kind, touch, true);

    return () => {
      for (const kind of kinds) host.removeEventListener(kind, touch, true);
      editorRef.current = null;
      editor.destroy();
      target.remove();
      host.replaceChildren();
    };
  }, []);

  // A value from outside (a record loaded, the form reset) replaces the contents; the editor's own change
  // coming back as `value` does not (the caret stays where the user types).
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    const next = value ?? '';
    const pending = pendingRef.current;
    const echoed = pending.indexOf(next);
    // Our own change coming back: it and anything older are answered (a newer one may still come).
    if (echoed >= 0) pending.splice(0, echoed + 1);
    if (next === heldRef.current) pending.length = 0;
    if (echoed >= 0 || next === heldRef.current || next === appliedRef.current) return;
    pending.length = 0;
    appliedRef.current = next;
    touchedRef.current = false;
    editor.$.html.set(next);
    heldRef.current = editor.$.html.get() as string;
  }, [value]);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    if (disabled) editor.$.ui.disable();
    else editor.$.ui.enable();
  }, [disabled]);

  useEffect(() => {
    const wysiwyg = editorRef.current?.$.frameContext.get('wysiwyg') as HTMLElement | undefined;
    if (!wysiwyg) return;
    if (id) wysiwyg.id = id;
    else wysiwyg.removeAttribute('id');
    if (ariaLabel) wysiwyg.setAttribute('aria-label', ariaLabel);
    else wysiwyg.removeAttribute('aria-label');
    wysiwyg.setAttribute('aria-invalid', status === 'error' ? 'true' : 'false');
  }, [id, ariaLabel, status]);

  return (
    <div
      ref={hostRef}
      className={status === 'error' ? 'rich-editor rich-editor-error' : 'rich-editor'}
      data-testid={id ? `rich-editor-${id}` : undefined}
    />
  );
}
