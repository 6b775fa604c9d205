/** A UTF-16 surrogate without its pair: no UTF-8 form, so PostgreSQL's json/jsonb input refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** The text with each NUL and lone surrogate replaced by U+FFFD: storable, whatever it held. */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATES, '\uFFFD');
}

export const NUL_MESSAGE = 'Text must not contain the NUL character (U+0000).';
export const SURROGATE_MESSAGE = 'Text must be valid Unicode (it holds a lone surrogate).';

/**
 * Why a string (value or key) anywhere in `input` cannot be stored, or null when all can: PostgreSQL text
 * cannot hold U+0000, and a lone surrogate fails its JSON input. Checked at the door (HTTP and OCPP), so such
 * input is refused as the sender's error instead of failing in the database.
 */
export function unstorableText(input: unknown): string | null {
  const pending: unknown[] = [input];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      const reason = textProblem(value);
      if (reason) return reason;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const reason = textProblem(key);
        if (reason) return reason;
        pending.push(item);
      }
    }
  }
  return null;
}

function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return SURROGATE_MESSAGE;
  return null;
}
