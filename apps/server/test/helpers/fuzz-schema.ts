import fc from 'fast-check';
import { RawNumber } from './fuzz-values.ts';
import { deref, type JsonSchema } from './openapi.ts';

/**
 * From JSON schemas of our OpenAPI document to request values: a plain valid example (the base that fixed
 * cases break one field of) and fast-check arbitraries of valid-looking values; positions in a JSON value
 * and copies with one of them changed.
 */

/** What the generators know about the test's data: ids that exist, values that must be unique. */
export interface FuzzContext {
  document: unknown;
  /** Body fields by name: makes a value that fits the data (an existing merchantId, a unique email). */
  bodyValues: Record<string, (schema: JsonSchema) => unknown>;
  /** Query parameters by name, likewise (as they are before encoding). */
  queryValues: Record<string, () => unknown>;
  /** The id of an existing record for each path template, e.g. `/api/merchant/{id}` -> 12. */
  pathIds: Record<string, string>;
  /** Fields of an operation's valid-looking body the generic example can't guess (e.g. the record's own id). */
  bodyOverrides: Record<string, Record<string, unknown>>;
  /** Path ids random cases leave alone, by path template: the test's own signed-in admin. */
  sparedPathIds: Record<string, string[]>;
}

const lowest = (s: JsonSchema) =>
  s.exclusiveMinimum === true ? (s.minimum ?? 0) + (s.type === 'integer' ? 1 : 0.01) : (s.minimum ?? -1e6);
const highest = (s: JsonSchema) =>
  s.exclusiveMaximum === true ? (s.maximum ?? 0) - (s.type === 'integer' ? 1 : 0.01) : (s.maximum ?? 1e6);
const clamp = (value: number, s: JsonSchema) => Math.min(Math.max(value, lowest(s)), highest(s));

let counter = 0;
const next = () => ++counter;

function patternSample(s: JsonSchema, seed: number): string {
  const [value] = fc.sample(stringArbitrary(s), { seed, numRuns: 1 });
  return value ?? '';
}

function stringArbitrary(s: JsonSchema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 60;
  if (s.pattern) {
    const regex = new RegExp(s.pattern);
    return fc.stringMatching(regex, { size: 'xsmall' }).filter((v) => v.length >= min && v.length <= max);
  }
  const cap = Math.min(max, 40);
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: cap, unit: 'grapheme-ascii' }) },
    { weight: 2, arbitrary: fc.string({ minLength: min, maxLength: cap, unit: 'grapheme' }) },
    { weight: 1, arbitrary: fc.constant('a'.repeat(Math.max(min, Math.min(max, 20_000)))) },
  );
}

/** Fields whose text is a time of day (HH:mm) or a date-time (YYYY-MM-DD HH:mm), by their names. */
const isTime = (name: string) => /time(From|To)$|^(open|close)Time$/i.test(name);
const isDate = (name: string) => /^valid(From|To)$/.test(name);

/** A value the schema accepts, plain and predictable: the base that one-field cases break. */
export function exampleOf(ctx: FuzzContext, schema: JsonSchema, name = ''): unknown {
  const s = deref(ctx.document, schema);
  const known = ctx.bodyValues[name];
  if (known) return known(s);
  if (s.enum) return s.enum.find((v) => v !== null) ?? null;
  const branches = s.anyOf ?? s.oneOf;
  if (branches?.length) return exampleOf(ctx, branches[0]!, name);
  switch (s.type) {
    case 'string': {
      if (isTime(name)) return /To$|^close/i.test(name) ? '18:00' : '08:00';
      if (isDate(name)) return name.endsWith('To') ? '2031-01-01 00:00' : '2030-01-01 00:00';
      if (s.pattern) return patternSample(s, 7);
      const text = `Fuzz ${next()}`.padEnd(s.minLength ?? 0, 'x');
      return text.slice(0, s.maxLength ?? text.length);
    }
    case 'integer':
    case 'number':
      return clamp(1, s);
    case 'boolean':
      return true;
    case 'array':
      return s.maxItems === 0 || !s.items ? [] : [exampleOf(ctx, s.items, name)];
    case 'object':
      return Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([key, property]) => [key, exampleOf(ctx, property, key)]),
      );
    default:
      return 'x';
  }
}

/** Valid-looking values of a schema (with the test's known ids mixed in). */
export function arbitraryOf(ctx: FuzzContext, schema: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  const s = deref(ctx.document, schema);
  const inner = plainArbitrary(ctx, s, name);
  const known = ctx.bodyValues[name];
  const withKnown = known
    ? fc.oneof(
        { weight: 3, arbitrary: fc.constant(null).map(() => known(s)) },
        { weight: 1, arbitrary: inner },
      )
    : inner;
  return s.nullable ? fc.option(withKnown, { nil: null, freq: 6 }) : withKnown;
}

function plainArbitrary(ctx: FuzzContext, s: JsonSchema, name: string): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...s.enum);
  const branches = s.anyOf ?? s.oneOf;
  if (branches?.length) return fc.oneof(...branches.map((branch) => arbitraryOf(ctx, branch, name)));
  switch (s.type) {
    case 'string':
      if (isTime(name))
        return fc
          .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
          .map(([h, m]) => `${h}`.padStart(2, '0').concat(':', `${m}`.padStart(2, '0')));
      if (isDate(name))
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 16).replace('T', ' '));
      return stringArbitrary(s);
    case 'integer': {
      const lo = lowest(s);
      const hi = highest(s);
      return fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: lo, max: Math.min(hi, lo + 1000) }) },
        { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
        { weight: 1, arbitrary: fc.integer({ min: lo, max: hi }) },
      );
    }
    case 'number': {
      const lo = lowest(s);
      const hi = highest(s);
      return fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 0, max: 1_000_000 }).map((v) => clamp(v / 100, s)) },
        { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
        { weight: 1, arbitrary: fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }) },
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return s.items
        ? fc.array(arbitraryOf(ctx, s.items, name), {
            minLength: s.minItems ?? 0,
            maxLength: Math.min(s.maxItems ?? 3, 3),
          })
        : fc.constant([]);
    case 'object': {
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, property] of Object.entries(s.properties ?? {}))
        model[key] = arbitraryOf(ctx, property, key);
      return fc.record(model, { requiredKeys: (s.required ?? []).filter((key) => key in model) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The property schemas of a body, or of each branch of a union body. */
export function bodyBranches(ctx: FuzzContext, body: JsonSchema): JsonSchema[] {
  const s = deref(ctx.document, body);
  const branches = s.anyOf ?? s.oneOf;
  return branches?.length ? branches.map((branch) => deref(ctx.document, branch)) : [s];
}

export type Path = Array<string | number>;

/** Every position inside a JSON value (not the value itself). */
export function positions(value: unknown, at: Path = []): Path[] {
  if (Array.isArray(value))
    return value.flatMap((item, index) => [[...at, index], ...positions(item, [...at, index])]);
  if (value !== null && typeof value === 'object' && !(value instanceof RawNumber))
    return Object.entries(value).flatMap(([key, item]) => [[...at, key], ...positions(item, [...at, key])]);
  return [];
}

/** A copy of `value` with `path` replaced (or removed when `replacement` is `REMOVE`). */
export const REMOVE = Symbol('remove');
export function withValueAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (replacement === REMOVE && rest.length === 0) copy.splice(Number(head), 1);
    else copy[Number(head)] = withValueAt(copy[Number(head)], rest, replacement);
    return copy;
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (replacement === REMOVE && rest.length === 0) delete copy[String(head)];
  else
    Object.defineProperty(copy, String(head), {
      value: withValueAt(copy[String(head)], rest, replacement),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}
