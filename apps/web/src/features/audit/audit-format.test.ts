import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '@ev/shared';
import { describe, expect, it } from 'vitest';
import {
  ACTION_OPTIONS,
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  ENTITY_OPTIONS,
  recordLink,
  valueText,
} from './audit-format.ts';

describe('the audit log filters', () => {
  it('offer Any, then every entity and action of the contract by a readable label', () => {
    expect(ENTITY_OPTIONS[0]).toEqual({ value: '', label: 'Any' });
    expect(
      ENTITY_OPTIONS.slice(1)
        .map((option) => option.value)
        .sort(),
    ).toEqual([...AUDIT_ENTITIES].sort());
    expect(ACTION_OPTIONS.slice(1).map((option) => option.value)).toEqual([...AUDIT_ACTIONS]);
    const labels = [...Object.values(AUDIT_ENTITY_LABELS), ...Object.values(AUDIT_ACTION_LABELS)];
    for (const label of labels) expect(label).toMatch(/^[A-Z]/);
    expect(AUDIT_ENTITY_LABELS.merchant).toBe('Cluster');
    expect(AUDIT_ENTITY_LABELS.landlord).toBe('Site');
    expect(AUDIT_ENTITY_LABELS.party).toBe('Group');
  });
});

describe('recordLink', () => {
  const link = (entity: string, entityId: string | null, details: Record<string, unknown> | null = null) =>
    recordLink({ entity: entity as never, entityId, details });

  it("opens a record's setting page where it has one", () => {
    expect(link('price', '6')).toBe('/price/6');
    expect(link('merchant', '3')).toBe('/merchant/3');
    expect(link('landlord', '4')).toBe('/landlord/4');
    expect(link('party', '2')).toBe('/party/2');
    expect(link('charger-brand', '1')).toBe('/charger-brand/1');
    expect(link('charger', 'TH-MP-ASOK-04')).toBe('/charger/TH-MP-ASOK-04');
    expect(link('charger', 'a/b')).toBe('/charger/a%2Fb');
  });

  it('finds a booking in the booking list, a promotion by its type, the single screens as they are', () => {
    expect(link('booking', '12')).toBe('/booking-management?bookingId=12');
    expect(link('promotion', '5', { type: 'point' })).toBe('/promotion/point/5');
    expect(link('promotion', '5')).toBeNull();
    expect(link('promotion', '5', { type: '../x' })).toBeNull();
    expect(link('contact-us', null)).toBe('/contact-us');
    expect(link('alert-setting', 'charger-offline')).toBe('/alert-settings');
  });

  it('has none for what no screen shows, or an entry without an id', () => {
    expect(link('session', '1')).toBeNull();
    expect(link('report', null)).toBeNull();
    expect(link('price', null)).toBeNull();
  });
});

describe('valueText', () => {
  it('reads numbers, text and booleans as they are', () => {
    expect(valueText(1.25)).toEqual({ line: '1.25', whole: '1.25', kind: 'text' });
    expect(valueText('AC')).toMatchObject({ line: 'AC', kind: 'text' });
    expect(valueText(false)).toMatchObject({ line: 'false', kind: 'text' });
  });

  it('says empty for nothing, and keeps a redacted secret as such', () => {
    expect(valueText(null)).toMatchObject({ line: '—', kind: 'empty' });
    expect(valueText(undefined)).toMatchObject({ kind: 'empty' });
    expect(valueText('[redacted]')).toEqual({ line: '[redacted]', whole: '[redacted]', kind: 'redacted' });
  });

  it('puts JSON on one line in the cell and pretty in the tooltip', () => {
    const value = { from: '22:00', days: [1, 2] };
    const text = valueText(value);
    expect(text.kind).toBe('json');
    expect(text.line).toBe('{"from":"22:00","days":[1,2]}');
    expect(text.whole).toBe(JSON.stringify(value, null, 2));
  });
});
