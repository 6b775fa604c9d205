import fc from 'fast-check';
import { deref, type JsonSchema } from './openapi.ts';

/**
 * Hostile values for the API fuzz test (test/api/fuzz.test.ts): fixed lists per kind of field, arbitraries
 * leaning on them, and the encodings that put them on the wire as they are.
 */

/** A JSON number written as is: JSON.stringify cannot write 9007199254740993 or 1e400. */
export class RawNumber {
  constructor(readonly text: string) {}
}

/** JSON text of a value that may hold RawNumbers. */
export function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item) =>
    item instanceof RawNumber ? `@@raw${raws.push(item.text) - 1}@@` : item,
  );
  return (text ?? 'null').replace(/"@@raw(\d+)@@"/g, (_all, index) => raws[Number(index)] ?? '0');
}

/** Percent-encodes the UTF-8 bytes of a string (a lone surrogate becomes U+FFFD, as a browser sends it). */
export function enc(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9._~-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export const LONG_TEXT = 'x'.repeat(100_000);

/** Values no field of ours should take as they are: [label, value]. */
export const HOSTILE_VALUES: Array<[string, unknown]> = [
  ['2147483648', 2147483648],
  // In range for an integer column, and (in these tests) no record's id: a reference to nothing.
  ['2147483647', 2147483647],
  ['-2147483649', -2147483649],
  ['9007199254740993', new RawNumber('9007199254740993')],
  ['1e308', 1e308],
  ['1e400', new RawNumber('1e400')],
  ['-1', -1],
  ['0', 0],
  ['1.5', 1.5],
  ['-0', new RawNumber('-0')],
  ['"NaN"', 'NaN'],
  ['"1e3"', '1e3'],
  ['""', ''],
  ['"   "', '   '],
  ['100k chars', LONG_TEXT],
  ['NUL', 'ab\u0000cd'],
  ['lone surrogate', '\ud800x'],
  ['unicode', 'ทดสอบ 😀 \u202e'],
  ['bad date-time', '2024-02-30T25:61:00Z'],
  ['bad date', '0000-00-00'],
  ['bad time', '24:60'],
  ['markup', '<script>alert(1)</script>'],
  ['sql', "' OR 1=1 --"],
  ['true', true],
  ['null', null],
  ['[]', []],
  ['{}', {}],
  ['[1,2]', [1, 2]],
  ['nested object', { a: { b: [1] } }],
  ['__proto__', JSON.parse('{"__proto__":{"admin":true}}')],
];

const pick = (...labels: string[]) =>
  labels.map((label) => HOSTILE_VALUES.find(([known]) => known === label)!).filter(Boolean);
const WRONG_TYPES = pick('true', 'null', '[]', '{}', '__proto__');
const NUMBERS = pick(
  '2147483648',
  '2147483647',
  '-2147483649',
  '9007199254740993',
  '1e308',
  '1e400',
  '-1',
  '0',
  '1.5',
  '-0',
);
const TEXTS = pick('""', '"   "', '100k chars', 'NUL', 'lone surrogate', 'unicode', 'markup', 'sql');
const DATES = pick('bad date-time', 'bad date', 'bad time');

/** The hostile values worth sending to a field of this schema (all of them when its kind is unclear). */
export function hostileFor(document: unknown, schema: JsonSchema): Array<[string, unknown]> {
  const s = deref(document, schema);
  const branch = [...(s.anyOf ?? s.oneOf ?? [])]
    .map((b) => deref(document, b))
    .find((b) => !b.enum?.includes(null));
  const kind = s.enum ? 'enum' : (s.type ?? branch?.type);
  switch (kind) {
    case 'integer':
    case 'number':
      return [...NUMBERS, ...pick('"NaN"', '"1e3"', '""', '100k chars'), ...WRONG_TYPES];
    case 'string':
      return [...TEXTS, ...DATES, ...pick('2147483648', '[1,2]', 'nested object'), ...WRONG_TYPES];
    case 'enum':
    case 'boolean':
      return [...pick('""', '"1e3"', '0', '-1', 'unicode', 'NUL'), ...WRONG_TYPES];
    case 'array':
      return [
        ['[null]', [null]],
        ['[2147483648]', [2147483648]],
        ['[2147483647]', [2147483647]],
        ['[{}]', [{}]],
        ['[[]]', [[]]],
        ['10k items', Array.from({ length: 10_000 }, (_, i) => i + 1)],
        ...pick('"1e3"', '0', '""'),
        ...WRONG_TYPES,
      ];
    default:
      return HOSTILE_VALUES;
  }
}

/** Query values as they go on the wire (already percent-encoded, or deliberately not): [label, raw]. */
export const HOSTILE_QUERY: Array<[string, string]> = [
  ['2147483648', '2147483648'],
  ['9007199254740993', '9007199254740993'],
  ['99999999999', '99999999999'],
  ['1e308', '1e308'],
  ['-1', '-1'],
  ['0', '0'],
  ['1.5', '1.5'],
  ['NaN', 'NaN'],
  ['1e3', '1e3'],
  ['0x10', '0x10'],
  ['empty', ''],
  ['%ZZ', '%ZZ'],
  ['%00', '%00'],
  ['truncated UTF-8', '%E0%A4%A'],
  ['10k chars', 'x'.repeat(10_000)],
  ['unicode', enc('ทดสอบ😀')],
  ['bad date', '2024-02-30'],
  ['true', 'true'],
  ['null', 'null'],
  ['[]', '%5B%5D'],
  ['{}', '%7B%7D'],
  ['JSON array', enc('[{"key":1}]')],
  ['+', '+'],
];

const ENCODING = ['empty', '%ZZ', '%00', 'truncated UTF-8', '10k chars', 'unicode', '[]', '{}', '+'];

/** The hostile query values worth sending to a parameter of this schema. */
export function hostileQueryFor(document: unknown, schema: JsonSchema): Array<[string, string]> {
  const s = deref(document, schema);
  const numeric = [s, ...(s.anyOf ?? s.oneOf ?? [])].some((b) =>
    ['integer', 'number'].includes(deref(document, b).type ?? ''),
  );
  if (numeric) return HOSTILE_QUERY;
  const extra = s.enum ? ['true', 'null', '0'] : ['2147483648', 'bad date', 'JSON array', 'null'];
  return HOSTILE_QUERY.filter(([label]) => ENCODING.includes(label) || extra.includes(label));
}

/** Hostile path ids, raw on the wire. */
export const HOSTILE_PATH_IDS: Array<[string, string]> = [
  ['%ZZ', '%ZZ'],
  ['%00', '%00'],
  ['..%2F', '..%2F'],
  ['..%2F..%2Fhealth', '..%2F..%2Fhealth'],
  ['-1', '-1'],
  ['0', '0'],
  ['1e3', '1e3'],
  ['1.5', '1.5'],
  ['2147483648', '2147483648'],
  ['99999999999', '99999999999'],
  ['9007199254740993', '9007199254740993'],
  ['5000 chars', 'x'.repeat(5000)],
  ['5000 digits', '9'.repeat(5000)],
  ['unicode', enc('ไทย😀')],
  ['truncated UTF-8', '%F0%9F'],
  ['NaN', 'NaN'],
  ['0x1F', '0x1F'],
  ['space', '%201'],
];

/** Any value, leaning on the hostile ones. */
export const hostileArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_VALUES.map(([, value]) => value)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
  {
    weight: 1,
    arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => new RawNumber(n.toString())),
  },
  { weight: 1, arbitrary: fc.double() },
);

/** Any query value, raw on the wire. */
export const hostileQueryArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_QUERY.map(([, raw]) => raw)) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }).map(enc) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => enc(JSON.stringify(v))) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String) },
);

export const describeValue = (value: unknown): string => {
  const label = HOSTILE_VALUES.find(([, known]) => known === value)?.[0];
  return label ?? truncate(value instanceof RawNumber ? value.text : toJson(value), 60);
};

export const truncate = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
