import { optionalTaxId, optionalTel } from '@ev/shared';
import { describe, expect, it } from 'vitest';
import { DEMO_CLUSTERS, DEMO_SITES } from './demo-places.ts';

const refusal = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error?.issues[0]?.message;

// The demo is inserted straight into the database, past the API: its values must pass the forms' rules, or
// the first save of a demo record would ask the operator to fix data they never typed.
describe('demo places', () => {
  it("give every cluster a valid Tax ID and Tel, and every site a valid Tel, as the forms' rules read them", () => {
    const refused = [
      ...DEMO_CLUSTERS.flatMap((c) => [
        [c.key, 'taxId', c.taxId, refusal(optionalTaxId.safeParse(c.taxId))],
        [c.key, 'tel', c.tel, refusal(optionalTel.safeParse(c.tel))],
      ]),
      ...DEMO_SITES.map((s) => [s.key, 'tel', s.tel, refusal(optionalTel.safeParse(s.tel))]),
    ].filter((row) => row[3] !== null);
    expect(refused).toEqual([]);
  });
});
