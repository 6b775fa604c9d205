import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations, resolvePointer, unresolvedRefs } from '../helpers/openapi.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is arbitrary JSON
let doc: any;
beforeAll(async () => {
  t = await startTestApp();
  const response = await t.call('GET', '/api/docs/json');
  expect(response.status).toBe(200);
  doc = response.body;
});
afterAll(() => t.close());

describe('GET /api/docs/json', () => {
  it('the walker finds a broken reference (so a pass below means something)', () => {
    const sample = {
      components: { schemas: { Ok: { type: 'object' } } },
      paths: { '/x': { get: { responses: { 200: { $ref: '#/components/schemas/Ok' } } } } },
      extra: [{ $ref: '#/components/schemas/Missing' }, { $ref: 'https://elsewhere/x' }],
    };
    expect(unresolvedRefs(sample)).toEqual([
      '#/extra/0: #/components/schemas/Missing',
      '#/extra/1: https://elsewhere/x',
    ]);
  });

  it('resolves every $ref it holds', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    expect(unresolvedRefs(doc)).toEqual([]);
  });

  it('lists operations with their parameters and bodies', () => {
    const operations = listOperations(doc);
    expect(operations.length).toBeGreaterThan(40);
    const patch = operations.find((op) => op.key === 'PATCH /api/merchant/{id}');
    expect(patch?.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:id']);
    expect(patch?.body).toBeDefined();
  });

  it('defines the shared error answer as a component', () => {
    expect(resolvePointer(doc, '#/components/schemas/Error')).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    });
  });
});
