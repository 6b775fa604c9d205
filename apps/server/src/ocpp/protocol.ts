import { createRequire } from 'node:module';
import { unstorableText } from '../lib/text.ts';
import { createRPCError, createValidator } from './rpc.ts';

/** The CALLERROR codes OCPP-J 1.6 defines (section 4.2.3; the errata keep 'Occurence' and 'FormationViolation'). */
export const OCPP16_ERROR_CODES = [
  'NotImplemented',
  'NotSupported',
  'InternalError',
  'ProtocolError',
  'SecurityError',
  'FormationViolation',
  'PropertyConstraintViolation',
  'OccurenceConstraintViolation',
  'TypeConstraintViolation',
  'GenericError',
] as const;
export type Ocpp16ErrorCode = (typeof OCPP16_ERROR_CODES)[number];
const IS_OCPP16_CODE = new Set<string>(OCPP16_ERROR_CODES);

/**
 * ocpp-rpc speaks OCPP 2.0.1's codes in places, and "corrects" 1.6's spelling to 2.0.1's. Every other code
 * becomes GenericError.
 */
const OCPP16_CODE_OF: Record<string, Ocpp16ErrorCode> = {
  // Not a valid OCPP-J frame (not JSON, not an array, a message id that is not a string, ...).
  RpcFrameworkError: 'FormationViolation',
  // A message type other than CALL, CALLRESULT and CALLERROR: not the PDU structure 1.6 knows.
  MessageTypeNotSupported: 'FormationViolation',
  FormatViolation: 'FormationViolation',
  OccurrenceConstraintViolation: 'OccurenceConstraintViolation',
};

export function toOcpp16ErrorCode(code: unknown): Ocpp16ErrorCode {
  if (typeof code !== 'string') return 'GenericError';
  if (IS_OCPP16_CODE.has(code)) return code as Ocpp16ErrorCode;
  return OCPP16_CODE_OF[code] ?? 'GenericError';
}

/**
 * The one place every CALLERROR we send passes through (ocpp-rpc sends all frames with `sendRaw`): its error
 * code becomes one of OCPP 1.6's. Other frames pass untouched.
 */
export function toOcpp16Frame(frame: string): string {
  if (!frame.startsWith('[4,')) return frame;
  try {
    const parsed = JSON.parse(frame) as unknown[];
    if (!Array.isArray(parsed) || parsed[0] !== 4) return frame;
    const code = toOcpp16ErrorCode(parsed[2]);
    if (code === parsed[2]) return frame;
    parsed[2] = code;
    return JSON.stringify(parsed);
  } catch {
    return frame;
  }
}

/** OCPP 1.6 "integer" is 32 bits (31 bits and a sign): our columns hold exactly that. */
export const INT32_MAX = 2_147_483_647;
const INT32_MIN = -2_147_483_648;

/** Which 1.6 code a failed JSON-schema keyword stands for. */
const CODE_OF_KEYWORD: Record<string, Ocpp16ErrorCode> = {
  type: 'TypeConstraintViolation',
  required: 'OccurenceConstraintViolation',
  minItems: 'OccurenceConstraintViolation',
  maxItems: 'OccurenceConstraintViolation',
  additionalItems: 'OccurenceConstraintViolation',
  minProperties: 'OccurenceConstraintViolation',
  maxProperties: 'OccurenceConstraintViolation',
  // A property the action does not have: the payload does not conform to the action's PDU.
  additionalProperties: 'FormationViolation',
  maxLength: 'PropertyConstraintViolation',
  minLength: 'PropertyConstraintViolation',
  pattern: 'PropertyConstraintViolation',
  format: 'PropertyConstraintViolation',
  enum: 'PropertyConstraintViolation',
  const: 'PropertyConstraintViolation',
  maximum: 'PropertyConstraintViolation',
  minimum: 'PropertyConstraintViolation',
  exclusiveMaximum: 'PropertyConstraintViolation',
  exclusiveMinimum: 'PropertyConstraintViolation',
  multipleOf: 'PropertyConstraintViolation',
};

interface SchemaError {
  keyword: string;
  params?: { limit?: unknown };
}

type JsonSchema = { [key: string]: unknown };

/** Every `integer` of the schemas gets the 32-bit bounds OCPP 1.6 gives the type (the JSON schemas omit them). */
function withInt32Bounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withInt32Bounds);
  if (node === null || typeof node !== 'object') return node;
  const copy: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) copy[key] = withInt32Bounds(value);
  const type = copy.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) {
    copy.maximum = Math.min(typeof copy.maximum === 'number' ? copy.maximum : INT32_MAX, INT32_MAX);
    copy.minimum = Math.max(typeof copy.minimum === 'number' ? copy.minimum : INT32_MIN, INT32_MIN);
  }
  return copy;
}

interface RpcValidator {
  readonly subprotocol: string;
  validate(schemaId: string, params: unknown): boolean;
}

/** The subprotocols the endpoint speaks, newest first: what 'auto' prefers (issue 33). */
export const OCPP_SUBPROTOCOLS = ['ocpp2.0.1', 'ocpp1.6'] as const;
export type OcppSubprotocol = (typeof OCPP_SUBPROTOCOLS)[number];
export const isOcpp201 = (protocol: string | undefined | null) => protocol === 'ocpp2.0.1';

/** Which 2.0.1 code a failed JSON-schema keyword stands for (OCPP-J 2.0.1, section 4.3). */
const CODE_OF_KEYWORD_201: Record<string, string> = {
  ...CODE_OF_KEYWORD,
  required: 'OccurrenceConstraintViolation',
  minItems: 'OccurrenceConstraintViolation',
  maxItems: 'OccurrenceConstraintViolation',
  additionalItems: 'OccurrenceConstraintViolation',
  minProperties: 'OccurrenceConstraintViolation',
  maxProperties: 'OccurrenceConstraintViolation',
  additionalProperties: 'FormatViolation',
};

/**
 * A strict-mode validator (it replaces ocpp-rpc's own): the official JSON schemas of the version with 32-bit
 * integers (both versions define integer so), no text PostgreSQL cannot store (NUL, lone surrogates), and
 * failures named with the version's own codes. So nothing a charger sends can fail in the database as our
 * error: it is refused as the charger's.
 */
function createStrictValidator(
  subprotocol: OcppSubprotocol,
  schemaFile: string,
  codes: Record<string, string>,
  fallback: string,
): RpcValidator {
  // Compiled (ajv) when the first frame comes, not while the server starts: chargers wait for the server to
  // listen, not for schemas.
  let compiled: RpcValidator | undefined;
  const compile = () => {
    const schemas = createRequire(import.meta.url)(schemaFile) as unknown[];
    return createValidator(subprotocol, withInt32Bounds(schemas) as object) as unknown as RpcValidator;
  };
  return {
    subprotocol,
    validate(schemaId, params) {
      compiled ??= compile();
      const inner = compiled;
      const textIssue = unstorableText(params);
      if (textIssue) throw createRPCError('PropertyConstraintViolation', textIssue, {});
      try {
        return inner.validate(schemaId, params);
      } catch (error) {
        const { details, message } = error as { details?: { errors?: SchemaError[] }; message?: string };
        const first = details?.errors?.[0];
        if (!first) throw error;
        const int32Bound =
          (first.keyword === 'maximum' && first.params?.limit === INT32_MAX) ||
          (first.keyword === 'minimum' && first.params?.limit === INT32_MIN);
        const code = int32Bound ? 'TypeConstraintViolation' : (codes[first.keyword] ?? fallback);
        throw createRPCError(code as never, message ?? '', details);
      }
    },
  };
}

/** 'ocpp1.6': failures named with 1.6's codes (and its spelling, 'OccurenceConstraintViolation'). */
export const createOcpp16Validator = (): RpcValidator =>
  createStrictValidator(
    'ocpp1.6',
    'ocpp-rpc/lib/schemas/ocpp1_6.json',
    CODE_OF_KEYWORD,
    'FormationViolation',
  );

/** 'ocpp2.0.1': the official 2.0.1 schemas that ocpp-rpc ships, failures named with 2.0.1's codes. */
export const createOcpp201Validator = (): RpcValidator =>
  createStrictValidator(
    'ocpp2.0.1',
    'ocpp-rpc/lib/schemas/ocpp2_0_1.json',
    CODE_OF_KEYWORD_201,
    'FormatViolation',
  );
