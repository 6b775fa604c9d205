/**
 * What the message log (message-log.ts) makes of one OCPP-J frame: its type, message id, action and payload,
 * with credentials redacted and text PostgreSQL cannot store replaced. Pure functions: nothing here throws,
 * whatever a charger sends.
 */
import { storableText } from '../lib/text.ts';

/** A frame's OCPP-J message type, or 'malformed' for text that is not a CALL, CALLRESULT or CALLERROR. */
export type FrameKind = 'call' | 'result' | 'error' | 'malformed';

export interface ParsedFrame {
  kind: FrameKind;
  /** '' when a malformed frame has none. */
  messageId: string;
  /** A CALL's action (the charger's text); null for the others (the log pairs them with their call). */
  action: string | null;
  /**
   * A CALL's or CALLRESULT's payload; a CALLERROR's `{ code, description, details }`; a malformed frame's
   * `{ reason, text }` (its first MALFORMED_TEXT_CHARS characters).
   */
  payload: unknown;
}

/** How much of a malformed frame, or of a payload too large to keep whole, the log keeps (characters). */
export const PREVIEW_CHARS = 2000;
/** The largest payload stored whole (characters of its JSON); a larger one keeps its first PREVIEW_CHARS. */
export const MAX_PAYLOAD_CHARS = 64 * 1024;
export const REDACTED = '[redacted]';

const malformed = (text: string, reason: string, messageId = ''): ParsedFrame => ({
  kind: 'malformed',
  messageId,
  action: null,
  payload: { reason, text: redactText(storable(text.slice(0, PREVIEW_CHARS))) },
});

/** Reads one frame as OCPP-J defines it (section 4.1); anything else is 'malformed', with the reason. */
export function parseFrame(text: string): ParsedFrame {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return malformed(text, 'not JSON');
  }
  if (!Array.isArray(frame)) return malformed(text, 'not a JSON array');
  const [type, messageId] = frame;
  if (type !== 2 && type !== 3 && type !== 4) return malformed(text, 'unknown message type');
  if (typeof messageId !== 'string') return malformed(text, 'the message id is not a string');
  if (type === 2) {
    const action = frame[2];
    if (typeof action !== 'string') return malformed(text, 'the action is not a string', messageId);
    return { kind: 'call', messageId, action, payload: frame[3] ?? null };
  }
  if (type === 3) return { kind: 'result', messageId, action: null, payload: frame[2] ?? null };
  return {
    kind: 'error',
    messageId,
    action: null,
    payload: { code: frame[2] ?? null, description: frame[3] ?? null, details: frame[4] ?? null },
  };
}

/**
 * Keys whose value is a credential: passwords, secrets, OCPP 1.6's AuthorizationKey, tokens. Also matched
 * against configuration key names (ChangeConfiguration, GetConfiguration) and OCPP 2.0.1 variable names
 * (BasicAuthPassword in SetVariables, GetVariables and NotifyReport).
 */
const SECRET_NAME = /password|secret|authorizationkey|token/i;
/**
 * OCPP 2.0.1's idToken is the card's identifier (1.6's idTag, which the log shows), not a credential: the
 * log would be useless for "which card was refused" without it.
 */
const IDENTIFIERS = new Set(['idToken', 'groupIdToken', 'additionalIdToken']);
const isSecretName = (name: unknown) => typeof name === 'string' && SECRET_NAME.test(name);

/**
 * Text in which something may need redacting or replacing. Frames without any of these (heartbeats,
 * statuses, meter values: nearly all) are stored as parsed, without a walk through the payload. `\u` covers
 * escapes, which can spell a key or hold a NUL.
 */
const MAY_NEED_WORK = /\\u|password|secret|authorizationkey|token|ocpp-files|@/i;

/** One-time file tokens in our file URLs: /ocpp-files/{purpose}/{token}[/{name}]. */
const FILE_TOKEN = /(\/ocpp-files\/[^/?#\s"]+\/)[^/?#\s"]+/g;
/** A `token=`, `access_token=`, `accessToken=`… query parameter's value. */
const TOKEN_PARAMETER = /([?&;][^=&#\s"]*token=)[^&#\s"]*/gi;
/** The password of a URL's user information: ftp://user:password@host/… */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^/?#\s:@"]*:)[^/?#\s@"]*@/gi;

/** A string with one-time URL tokens and URL passwords redacted. */
export function redactText(text: string): string {
  if (!MAY_NEED_WORK.test(text)) return text;
  return text
    .replace(FILE_TOKEN, `$1${REDACTED}`)
    .replace(TOKEN_PARAMETER, `$1${REDACTED}`)
    .replace(URL_PASSWORD, `$1${REDACTED}@`);
}

/** Text PostgreSQL's jsonb can hold: no NUL, no lone surrogate (each becomes U+FFFD). */
export const storable = storableText;

/**
 * The payload with every credential replaced by '[redacted]' and every string storable: values of secret
 * keys; the `value` of a `{ key, value }` whose key names a secret (1.6 configuration); the `attributeValue`
 * and `variableAttribute[].value` of an entry whose `variable.name` names one (2.0.1); one-time tokens and
 * passwords inside URLs. A new value: the input is left as it is.
 */
export function redactPayload(value: unknown): unknown {
  if (typeof value === 'string') return redactText(storable(value));
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(redactPayload);
  const entries = value as Record<string, unknown>;
  const secretValue = isSecretName(entries.key);
  const variable = entries.variable as { name?: unknown } | null | undefined;
  const secretVariable = typeof variable === 'object' && variable !== null && isSecretName(variable.name);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(entries)) {
    const hidden =
      (isSecretName(key) && !IDENTIFIERS.has(key)) ||
      (secretValue && key === 'value') ||
      (secretVariable && key === 'attributeValue');
    if (hidden && item !== null && item !== undefined) copy[storable(key)] = REDACTED;
    else if (secretVariable && key === 'variableAttribute' && Array.isArray(item))
      copy[key] = item.map((attribute) =>
        typeof attribute === 'object' && attribute !== null && 'value' in attribute
          ? { ...(redactPayload(attribute) as object), value: REDACTED }
          : redactPayload(attribute),
      );
    else copy[storable(key)] = redactPayload(item);
  }
  return copy;
}

/**
 * The frame as the log stores it: parsed, redacted, storable, and cut to a preview past MAX_PAYLOAD_CHARS.
 * `text` is the frame as it went over the wire.
 */
export function frameForLog(text: string): ParsedFrame {
  const frame = parseFrame(text);
  if (frame.kind === 'malformed') return frame;
  if (MAY_NEED_WORK.test(text)) {
    frame.payload = redactPayload(frame.payload);
    if (frame.action !== null) frame.action = storable(frame.action);
    frame.messageId = storable(frame.messageId);
  }
  if (text.length > MAX_PAYLOAD_CHARS) {
    const json = JSON.stringify(frame.payload) ?? 'null';
    if (json.length > MAX_PAYLOAD_CHARS) {
      frame.payload = {
        truncated: true,
        chars: json.length,
        text: storable(json.slice(0, PREVIEW_CHARS)),
      };
    }
  }
  return frame;
}
