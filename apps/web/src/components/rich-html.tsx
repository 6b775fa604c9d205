// The editor's contents CSS first, then ours (which wins where both style an element), then the Thai fonts of
// the editor's Font menu: a saved page renders as the editor showed it. Only the screens that render rich
// text load these (the landing page, the public legal pages, previews, the editor).
import 'suneditor/css/contents';
import './thai-fonts.css';
import './rich-html.css';

/**
 * The classes of rich text, on RichHtml and on the editor's contents area alike: SunEditor's contents
 * styles (`sun-editor-editable`: figures, floats, rules) under ours (`rich-text`).
 */
export const RICH_TEXT_CLASS = 'sun-editor-editable rich-text';

interface RichHtmlProps {
  html: string;
  className?: string;
}

/** Rich text written in the back office's editor. */
export function RichHtml({ html, className }: RichHtmlProps) {
  return (
    <div
      className={`${RICH_TEXT_CLASS} rich-html${className ? ` ${className}` : ''}`}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: our server sanitizes this HTML (sanitize-html) when it is saved
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
