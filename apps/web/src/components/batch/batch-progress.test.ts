import { describe, expect, it } from 'vitest';
import { applyBatchEvent, batchPath, progressCsv, progressPercent, START } from './batch-progress.ts';

const AT = new Date('2026-05-01T03:00:00Z');
const run = (...events: Array<[string, string]>) =>
  events.reduce((state, [event, data]) => applyBatchEvent(state, { event, data }, AT), START);

describe('applyBatchEvent', () => {
  it('counts the updates against the size and keeps the job id', () => {
    const state = run(
      ['size', '3'],
      ['job', '{"id":12}'],
      ['update', '{"id":"A","result":"Accepted"}'],
      ['update', '{"id":"B","result":"Offline"}'],
      ['update', '{"id":"C","result":"Accepted"}'],
    );
    expect(state.total).toBe(3);
    expect(state.jobId).toBe(12);
    expect(state.updates.map((update) => update.id)).toEqual(['A', 'B', 'C']);
    expect(state.counts).toEqual({ Accepted: 2, Offline: 1 });
    expect(state.error).toBeNull();
  });

  it("takes the error event's message, or its text when it is not JSON", () => {
    expect(run(['size', '2'], ['error', '{"message":"Database unavailable"}']).error).toBe(
      'Database unavailable',
    );
    expect(run(['error', 'boom']).error).toBe('boom');
  });

  it('ignores what it does not know: other events, an unknown result, a bad size', () => {
    const state = run(['size', 'x'], ['ping', '1'], ['update', '{"id":"A","result":"Maybe"}']);
    expect(state).toEqual(START);
  });
});

describe('progressCsv', () => {
  it("writes the server's CSV layout, quoting where needed", () => {
    const state = run(
      ['size', '2'],
      ['update', '{"id":"A","result":"Accepted"}'],
      ['update', '{"id":"B,1","result":"Timeout"}'],
      ['update', '{"id":"-1","result":"Offline"}'],
    );
    expect(progressCsv(state)).toBe(
      'Charger Id,Result,Detail,Time\r\nA,Accepted,,2026-05-01T03:00:00.000Z\r\n"B,1",Timeout,,2026-05-01T03:00:00.000Z\r\n\'-1,Offline,,2026-05-01T03:00:00.000Z\r\n',
    );
  });
});

describe('progressPercent', () => {
  it('stands where the count says, not rounded down (141 / 142 is not 99 %)', () => {
    expect(progressPercent(0, 142, false)).toBe(0);
    expect(progressPercent(71, 142, false)).toBe(50);
    expect(progressPercent(141, 142, false)).toBeCloseTo(99.296, 3);
    expect(progressPercent(142, 142, true)).toBe(100);
  });

  it('is empty before the size, and full once a run over no charger ends', () => {
    expect(progressPercent(0, null, false)).toBe(0);
    expect(progressPercent(0, 0, false)).toBe(0);
    expect(progressPercent(0, 0, true)).toBe(100);
  });
});

describe('batchPath', () => {
  it('puts the batch token in the query, and Config All its pairs as JSON', () => {
    expect(batchPath('hard-reset', 'a b&c')).toBe('/charger/batch/hard-reset?token=a+b%26c');
    const path = batchPath('config', 't', [{ key: 'HeartbeatInterval', value: '300' }]);
    const query = new URLSearchParams(path.split('?')[1]);
    expect(path.startsWith('/charger/batch/config?')).toBe(true);
    expect(query.get('token')).toBe('t');
    expect(JSON.parse(query.get('configurations') ?? '')).toEqual([
      { key: 'HeartbeatInterval', value: '300' },
    ]);
  });
});
