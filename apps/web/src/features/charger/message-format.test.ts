import type { ChargerConnection } from '@ev/shared';
import { describe, expect, it } from 'vitest';
import {
  connectionDuration,
  connectionEnd,
  durationText,
  formatLogTime,
  PREVIEW_CHARS,
  payloadPreview,
} from './message-format.ts';

const connection = (over: Partial<ChargerConnection>): ChargerConnection => ({
  id: 1,
  node: 'n',
  remoteAddress: '10.0.0.1',
  protocol: 'ocpp1.6',
  connectedAt: '2026-11-28T10:00:00.000Z',
  disconnectedAt: null,
  closeCode: null,
  closeReason: null,
  refusedStatus: null,
  ...over,
});

describe('message formats', () => {
  it('shows a frame time to the millisecond in Bangkok, Thai year', () => {
    expect(formatLogTime('2026-11-28T11:44:20.385Z')).toBe('28/11/2569 18:44:20.385');
    expect(formatLogTime(null)).toBe('-');
    expect(formatLogTime('nonsense')).toBe('-');
  });

  it('previews a payload on one line, cut', () => {
    expect(payloadPreview({ a: 1 })).toBe('{"a":1}');
    expect(payloadPreview(null)).toBe('null');
    expect(payloadPreview('x'.repeat(1000))).toHaveLength(PREVIEW_CHARS + 1);
  });

  it('says how long and how a connection ended', () => {
    expect(durationText(45_000)).toBe('45 s');
    expect(durationText(725_000)).toBe('12 min 5 s');
    expect(durationText(12_000_000)).toBe('3 h 20 min');
    expect(durationText(187_200_000)).toBe('2 d 4 h');
    const closed = connection({
      disconnectedAt: '2026-11-28T10:00:30.000Z',
      closeCode: 1000,
      closeReason: 'Replaced by a new connection',
    });
    expect(connectionDuration(closed)).toBe('30 s');
    expect(connectionEnd(closed)).toBe('1000 Replaced by a new connection');
    expect(connectionDuration(connection({}), Date.parse('2026-11-28T10:01:00.000Z'))).toBe('1 min 0 s');
    expect(connectionEnd(connection({}))).toBe('Open');
    const refused = connection({
      disconnectedAt: '2026-11-28T10:00:00.000Z',
      closeCode: 401,
      closeReason: 'Unauthorized',
      refusedStatus: 401,
    });
    expect(connectionEnd(refused)).toBe('Refused 401 Unauthorized');
    expect(connectionDuration(refused)).toBe('-');
    expect(connectionEnd(connection({ disconnectedAt: '2026-11-28T10:00:01.000Z' }))).toBe('Closed');
  });
});
