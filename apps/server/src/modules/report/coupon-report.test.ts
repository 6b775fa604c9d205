import { describe, expect, it } from 'vitest';
import { mergeStreams } from './coupon-report.ts';

type Row = { id: number; createdAt: number };

/** A stream over rows in (createdAt, id) order, read after the last id as the report's keyset readers are. */
function stream(times: number[], idBase: number, reads: number[]) {
  const rows = times.map((createdAt, i) => ({ id: idBase + i, createdAt }) as Row);
  return async (lastId: number | undefined, limit: number) => {
    reads.push(limit);
    const from = lastId === undefined ? 0 : rows.findIndex((row) => row.id === lastId) + 1;
    return rows.slice(from, from + limit) as never[];
  };
}

describe('mergeStreams', () => {
  it('merges streams by time into full batches until both are spent, each read after its own last row', async () => {
    const reads: number[] = [];
    const next = mergeStreams([
      stream([1, 2, 5, 8, 9, 10, 11], 100, reads),
      stream([3, 4, 6, 12], 200, reads),
    ]);
    const batches: number[][] = [];
    for (;;) {
      const batch = (await next(3)) as unknown as Row[];
      batches.push(batch.map((row) => row.createdAt));
      if (batch.length < 3) break;
    }
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5, 6],
      [8, 9, 10],
      [11, 12],
    ]);
  });

  it('answers nothing for empty streams, and keeps the first stream first at the same instant', async () => {
    const reads: number[] = [];
    expect(await mergeStreams([stream([], 1, reads), stream([], 2, reads)])(5)).toEqual([]);
    const tied = (await mergeStreams([stream([7], 10, reads), stream([7], 20, reads)])(
      5,
    )) as unknown as Row[];
    expect(tied.map((row) => row.id)).toEqual([10, 20]);
  });
});
