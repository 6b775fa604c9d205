import { describe, expect, it } from 'vitest';
import { powerTags } from './power-status.ts';

const texts = (waiting: boolean, profileStatus: string) =>
  powerTags({ waiting, profileStatus }).map((tag) => `${tag.text}:${tag.color}`);

describe('powerTags', () => {
  it('shows a steered session by its answer', () => {
    expect(texts(false, 'Accepted')).toEqual(['Accepted:green']);
    expect(texts(false, 'Pending')).toEqual(['Pending:blue']);
    expect(texts(false, 'None')).toEqual(['No limit:blue']);
  });

  it('says a waiting session waits', () => {
    expect(texts(true, 'Accepted')).toEqual(['Waiting:orange']);
    expect(powerTags({ waiting: true, profileStatus: 'Accepted' })[0]?.tooltip).toMatch(/waits at 0 kW/);
  });

  it('shows a refused, unsupported, failed or offline profile in red, counted at full power', () => {
    for (const status of ['Rejected', 'NotSupported', 'Timeout', 'Offline']) {
      const [tag] = powerTags({ waiting: false, profileStatus: status });
      expect(tag).toMatchObject({ text: status, color: 'red' });
      expect(tag?.tooltip).toMatch(/counted at its full power/);
    }
    expect(texts(true, 'Rejected')).toEqual(['Waiting:orange', 'Rejected:red']);
    expect(texts(false, '')).toEqual(['Unknown:red']);
  });
});
