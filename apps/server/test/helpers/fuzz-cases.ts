import fc from 'fast-check';
import {
  arbitraryOf,
  bodyBranches,
  exampleOf,
  type FuzzContext,
  type Path,
  positions,
  REMOVE,
  withValueAt,
} from './fuzz-schema.ts';
import {
  describeValue,
  enc,
  HOSTILE_PATH_IDS,
  hostileArbitrary,
  hostileFor,
  hostileQueryArbitrary,
  hostileQueryFor,
  LONG_TEXT,
  RawNumber,
  toJson,
} from './fuzz-values.ts';
import { deref, type Operation } from './openapi.ts';

/** One request to send: the operation's path template filled in, a query, maybe a body, who sends it. */
export interface FuzzCase {
  /** What is wrong with it, for the report. */
  label: string;
  auth: 'admin' | 'none' | 'bogus';
  /** Path parameters, raw on the wire. */
  path: Record<string, string>;
  /** Query pairs, raw on the wire. */
  query: Array<[string, string]>;
  body?: { text: string; type: string };
  /** The body carries this key, which its schema does not name: a write must refuse it (4xx). */
  unknownKey?: string;
  /** The plain valid-looking request (of this body branch): what the other cases break one thing of. */
  base?: number;
  /** The body branch an unknown-key case added its key to. */
  branch?: number;
}

const JSON_TYPE = 'application/json';
const jsonBody = (value: unknown) => ({ text: toJson(value), type: JSON_TYPE });

/** Query pairs of one parameter: arrays repeat the name, the rest goes as text. */
export function queryPairs(name: string, value: unknown): Array<[string, string]> {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((item) => queryPairs(name, item));
  return [[enc(name), enc(typeof value === 'string' ? value : toJson(value))]];
}

const params = (op: Operation, where: 'path' | 'query') => op.parameters.filter((p) => p.in === where);

function basePath(ctx: FuzzContext, op: Operation): Record<string, string> {
  return Object.fromEntries(
    params(op, 'path').map((p) => [
      p.name,
      ctx.pathIds[op.path] ?? enc(String(exampleOf(ctx, p.schema, p.name))),
    ]),
  );
}

/** The required query parameters and those the test knows values for (e.g. the batch token). */
function baseQuery(ctx: FuzzContext, op: Operation): Array<[string, string]> {
  return params(op, 'query')
    .filter((p) => p.required || ctx.queryValues[p.name])
    .flatMap((p) => queryPairs(p.name, ctx.queryValues[p.name]?.() ?? exampleOf(ctx, p.schema, p.name)));
}

/**
 * Takes one case from each group (one field) in turn, so a capped run still breaks every field. Past its
 * first two cases each group is rotated by its index, so capped fields try different kinds of values.
 */
function roundRobin(groups: FuzzCase[][]): FuzzCase[] {
  const rotated = groups.map((group, index) => {
    const tail = group.slice(2);
    const shift = tail.length ? index % tail.length : 0;
    return [...group.slice(0, 2), ...tail.slice(shift), ...tail.slice(0, shift)];
  });
  const out: FuzzCase[] = [];
  for (let round = 0; rotated.some((group) => group.length > round); round++) {
    for (const group of rotated) if (group[round]) out.push(group[round]!);
  }
  return out;
}

/** A few hostile values for fields nested in arrays (the top-level fields get all of them). */
const NESTED_VALUES: unknown[] = [
  2147483648,
  2147483647,
  new RawNumber('9007199254740993'),
  '',
  LONG_TEXT,
  null,
  {},
];

const isWrite = (op: Operation) => ['POST', 'PUT', 'PATCH'].includes(op.method);
/** The sign-in calls take what they need and ignore the rest (test/api/bad-input.test.ts). */
export const refusesUnknownKeys = (op: Operation) => isWrite(op) && !op.path.startsWith('/api/auth/');

/** The fixed cases of an operation: each path, query and body field broken in each listed way. */
export function fixedCases(ctx: FuzzContext, op: Operation): FuzzCase[] {
  const path = basePath(ctx, op);
  const query = baseQuery(ctx, op);
  const branches = op.body ? bodyBranches(ctx, op.body) : [];
  const overrides = ctx.bodyOverrides[op.key] ?? {};
  const examples = branches.map((branch) => {
    const example = exampleOf(ctx, branch) as Record<string, unknown>;
    for (const [field, value] of Object.entries(overrides)) if (field in example) example[field] = value;
    return example;
  });
  const valid: FuzzCase = {
    label: 'valid-looking',
    auth: 'admin',
    path,
    query,
    body: examples[0] ? jsonBody(examples[0]) : undefined,
    base: 0,
  };
  const base = (label: string, over: Partial<FuzzCase>): FuzzCase => ({
    ...valid,
    base: undefined,
    label,
    ...over,
  });
  const groups: FuzzCase[][] = [
    [valid, base('signed out', { auth: 'none' }), base('unknown token', { auth: 'bogus' })],
  ];

  for (const p of params(op, 'path')) {
    groups.push(
      HOSTILE_PATH_IDS.map(([label, raw]) =>
        base(`path ${p.name} = ${label}`, { path: { ...path, [p.name]: raw } }),
      ),
    );
  }

  const without = (name: string) => query.filter(([key]) => key !== enc(name));
  for (const p of params(op, 'query')) {
    const name = enc(p.name);
    groups.push([
      ...hostileQueryFor(ctx.document, p.schema).map(([label, raw]) =>
        base(`query ${p.name} = ${label}`, { query: [...without(p.name), [name, raw]] }),
      ),
      base(`query ${p.name} repeated`, { query: [...without(p.name), [name, '1'], [name, '2']] }),
      base(`query ${p.name}[x]`, { query: [...without(p.name), [`${name}%5Bx%5D`, '1']] }),
    ]);
  }
  groups.push([
    base('query __proto__', { query: [...query, ['__proto__%5Badmin%5D', 'true'], ['constructor', '1']] }),
    base('query unknown parameter', { query: [...query, ['fuzzUnknown', '1']] }),
  ]);

  if (op.body || isWrite(op)) {
    const sample = examples[0] ?? {};
    groups.push([
      base('body []', { body: jsonBody([]) }),
      base('body [valid]', { body: jsonBody([sample]) }),
      base('body "text"', { body: jsonBody('text') }),
      base('body 42', { body: jsonBody(42) }),
      base('body null', { body: jsonBody(null) }),
      base('body {}', { body: jsonBody({}) }),
      base('body not JSON', { body: { text: '{"nameEn": oops', type: JSON_TYPE } }),
      base('body empty', { body: { text: '', type: JSON_TYPE } }),
      base('body as text/plain', { body: { text: toJson(sample), type: 'text/plain' } }),
      base('body as form', { body: { text: 'a=1&b=2', type: 'application/x-www-form-urlencoded' } }),
    ]);
  }
  branches.forEach((branch, index) => {
    const example = examples[index]!;
    const at = (label: string, value: unknown, unknownKey?: string) =>
      base(branches.length > 1 ? `branch ${index + 1}: ${label}` : label, {
        body: jsonBody(value),
        unknownKey,
      });
    // The branch's own valid-looking body first: the unknown key must be the only thing wrong after it.
    const unknownKeys: FuzzCase[] = [
      ...(index > 0 ? [{ ...at('valid-looking', example), base: index }] : []),
      { ...at('unknown key', { ...example, fuzzUnknownKey: 1 }, 'fuzzUnknownKey'), branch: index },
    ];
    groups.push(unknownKeys);
    for (const [field, schema] of Object.entries(branch.properties ?? {})) {
      const group: FuzzCase[] = [];
      if (branch.required?.includes(field))
        group.push(at(`missing ${field}`, withValueAt(example, [field], REMOVE)));
      for (const [label, value] of hostileFor(ctx.document, schema))
        group.push(at(`body.${field} = ${label}`, { ...example, [field]: value }));
      const items = deref(ctx.document, schema).items;
      const item = Array.isArray(example[field]) ? (example[field] as unknown[])[0] : undefined;
      if (items && item && typeof item === 'object') {
        const nested = deref(ctx.document, items).properties ?? {};
        unknownKeys.push(
          at(
            `${field}[0] unknown key`,
            { ...example, [field]: [{ ...item, fuzzUnknownKey: 1 }] },
            `${field}[0].fuzzUnknownKey`,
          ),
        );
        for (const inner of Object.keys(nested)) {
          for (const value of NESTED_VALUES) {
            const changed = withValueAt(example, [field, 0, inner], value);
            group.push(at(`body.${field}[0].${inner} = ${describeValue(value)}`, changed));
          }
        }
      }
      groups.push(group);
    }
  });
  return roundRobin(groups);
}

type Mutation = {
  kind: 'replace' | 'remove' | 'add' | 'none';
  at: number;
  value: unknown;
  raw: string;
  key: string;
};

const mutationArbitrary: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('replace', 'replace', 'replace', 'remove', 'add', 'none'),
  at: fc.nat(),
  value: hostileArbitrary,
  raw: hostileQueryArbitrary,
  key: fc.oneof(
    fc.constantFrom('fuzzExtra', '__proto__', 'constructor', 'ACTIVE', ''),
    fc.string({ maxLength: 12 }),
  ),
});

/** Valid-looking requests from the schema, most with one thing broken: `runs` of them, from `seed`. */
export function randomCases(ctx: FuzzContext, op: Operation, runs: number, seed: number): FuzzCase[] {
  if (runs <= 0) return [];
  const fixedPath = basePath(ctx, op);
  const pathModel: Record<string, fc.Arbitrary<string>> = {};
  for (const p of params(op, 'path')) {
    pathModel[p.name] = fc.oneof(
      { weight: 5, arbitrary: fc.constant(fixedPath[p.name]!) },
      { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_PATH_IDS.map(([, raw]) => raw)) },
      {
        weight: 1,
        arbitrary: arbitraryOf(ctx, p.schema, p.name)
          .map((v) => enc(String(v)))
          .filter((raw) => !ctx.sparedPathIds[op.path]?.includes(raw)),
      },
    );
  }
  const queryModel: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of params(op, 'query')) {
    const known = ctx.queryValues[p.name];
    const own = arbitraryOf(ctx, p.schema, p.name);
    queryModel[p.name] = known ? fc.oneof({ weight: 3, arbitrary: fc.constant(null).map(known) }, own) : own;
  }
  const required = params(op, 'query')
    .filter((p) => p.required)
    .map((p) => p.name);
  const request = fc.record({
    auth: fc.oneof(
      { weight: 14, arbitrary: fc.constant<FuzzCase['auth']>('admin') },
      { weight: 1, arbitrary: fc.constant<FuzzCase['auth']>('none') },
      { weight: 1, arbitrary: fc.constant<FuzzCase['auth']>('bogus') },
    ),
    path: fc.record(pathModel),
    query: fc.record(queryModel, { requiredKeys: required }),
    body: op.body ? arbitraryOf(ctx, op.body) : fc.constant(undefined),
    mutation: mutationArbitrary,
  });
  const topKeys = new Set(
    op.body ? bodyBranches(ctx, op.body).flatMap((b) => Object.keys(b.properties ?? {})) : [],
  );
  return fc.sample(request, { seed, numRuns: runs }).map(({ auth, path, query, body, mutation }) => {
    let label = 'random valid-looking';
    let unknownKey: string | undefined;
    let pairs = Object.entries(query).flatMap(([name, value]) => queryPairs(name, value));
    if (op.body && mutation.kind !== 'none') {
      const spots: Path[] = [[], ...positions(body)];
      if (mutation.kind === 'add') {
        const objects = spots.filter((spot) => isObject(valueAt(body, spot)));
        const spot = objects[mutation.at % Math.max(objects.length, 1)] ?? [];
        body = withValueAt(body, [...spot, mutation.key], mutation.value);
        label = `add ${where(spot, mutation.key)} = ${describeValue(mutation.value)}`;
        if (spot.length === 0 && !topKeys.has(mutation.key)) unknownKey = mutation.key;
      } else {
        const spot = spots[mutation.at % spots.length]!;
        const removing = mutation.kind === 'remove' && spot.length > 0;
        body = withValueAt(body, spot, removing ? REMOVE : mutation.value);
        label = removing ? `remove ${where(spot)}` : `${where(spot)} = ${describeValue(mutation.value)}`;
      }
    } else if (!op.body && mutation.kind !== 'none' && mutation.kind !== 'add' && pairs.length > 0) {
      const index = mutation.at % pairs.length;
      const [name] = pairs[index]!;
      pairs =
        mutation.kind === 'remove'
          ? pairs.filter((_, i) => i !== index)
          : pairs.with(index, [name, mutation.raw]);
      label =
        mutation.kind === 'remove' ? `remove query ${name}` : `query ${name} = ${mutation.raw.slice(0, 40)}`;
    } else if (!op.body && mutation.kind === 'add') {
      pairs = [...pairs, [enc(mutation.key || 'k'), mutation.raw]];
      label = `add query ${mutation.key}`;
    }
    const pathLabel = Object.entries(path).filter(([name, raw]) => raw !== fixedPath[name]);
    if (pathLabel.length)
      label += `; path ${pathLabel.map(([n, raw]) => `${n}=${raw.slice(0, 30)}`).join(',')}`;
    return { label, auth, path, query: pairs, body: op.body ? jsonBody(body) : undefined, unknownKey };
  });
}

const isObject = (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof RawNumber);
const where = (spot: Path, key?: string) =>
  `body${[...spot, ...(key === undefined ? [] : [key])].map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('')}`;
function valueAt(value: unknown, spot: Path): unknown {
  return spot.reduce<unknown>((node, step) => (node as Record<string | number, unknown>)?.[step], value);
}
