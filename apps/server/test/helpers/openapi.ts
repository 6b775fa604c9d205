/** Reading our own OpenAPI document (GET /api/docs/json) in tests: references and operations. */

/** The JSON Schema subset the document uses (OpenAPI 3.0: `nullable`, boolean `exclusiveMinimum`). */
export interface JsonSchema {
  $ref?: string;
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  format?: string;
  default?: unknown;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  /** `GET /api/merchant/{id}` */
  key: string;
  method: string;
  /** The path template, `/api/merchant/{id}`. */
  path: string;
  parameters: Parameter[];
  /** The JSON body schema, when the operation takes one. */
  body?: JsonSchema;
}

/** Follows a local JSON pointer (`#/a/b~1c`) through the document; undefined when any step is missing. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const steps = ref
    .slice(1)
    .split('/')
    .slice(1)
    .map((step) => decodeURIComponent(step).replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = document;
  for (const step of steps) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, step)) return undefined;
    node = (node as Record<string, unknown>)[step];
  }
  return node;
}

/** Every `$ref` anywhere in the document, with where it sits, that does not point at a node of it. */
export function unresolvedRefs(document: unknown): string[] {
  const broken: string[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) walk(item, `${at}/${index}`);
    } else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref') {
          if (typeof value !== 'string' || resolvePointer(document, value) === undefined)
            broken.push(`${at}: ${String(value)}`);
        } else walk(value, `${at}/${key}`);
      }
    }
  };
  walk(document, '#');
  return broken;
}

/** The schema a `$ref` points at (repeatedly), or the schema itself. */
export function deref(document: unknown, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 20; hops++) {
    const target = resolvePointer(document, current.$ref);
    if (!target) throw new Error(`unresolved $ref ${current.$ref}`);
    current = target as JsonSchema;
  }
  return current;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every path × method of the document, in document order. */
export function listOperations(document: unknown): Operation[] {
  const paths = (document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const op = raw as {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      };
      const body = op.requestBody?.content?.['application/json']?.schema;
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters: (op.parameters ?? []).map((p) => ({ ...p, schema: deref(document, p.schema ?? {}) })),
        body: body ? deref(document, body) : undefined,
      });
    }
  }
  return operations;
}
