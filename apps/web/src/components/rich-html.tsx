import './rich-html.css';

interface RichHtmlProps {
  html: string;
  className?: string;
}

/** Rich text written in the back office's editor. */
export function RichHtml({ html, className }: RichHtmlProps) {
  return (
    <div
      className={className ? `rich-text ${className}` : 'rich-text'}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: our server sanitizes this HTML (sanitize-html) when it is saved
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
