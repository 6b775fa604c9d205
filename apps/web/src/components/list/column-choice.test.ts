import { describe, expect, it } from 'vitest';
import { columnChoiceKey, readColumnChoice, writeColumnChoice } from './column-choice.ts';

/** A Web Storage stand-in. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('the column choice', () => {
  it('is kept per user and list', () => {
    const storage = memoryStorage();
    writeColumnChoice(storage, columnChoiceKey(7, 'Booking Management'), { email: true, energy: false });
    expect(readColumnChoice(storage, columnChoiceKey(7, 'Booking Management'))).toEqual({
      email: true,
      energy: false,
    });
    expect(readColumnChoice(storage, columnChoiceKey(8, 'Booking Management'))).toEqual({});
    expect(readColumnChoice(storage, columnChoiceKey(7, 'Transaction Management'))).toEqual({});
  });

  it('goes when reset to automatic', () => {
    const storage = memoryStorage();
    const key = columnChoiceKey(7, 'Site');
    writeColumnChoice(storage, key, { address: false });
    writeColumnChoice(storage, key, {});
    expect(storage.items.has(key)).toBe(false);
  });

  it('ignores what is not a choice', () => {
    const storage = memoryStorage();
    for (const stored of ['not json', '[true]', '42', 'null', '{"email":"yes","phone":true}']) {
      storage.setItem('k', stored);
      expect(readColumnChoice(storage, 'k')).toEqual(stored.includes('phone') ? { phone: true } : {});
    }
    expect(readColumnChoice(null, 'k')).toEqual({});
  });
});
