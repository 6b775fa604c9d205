import { describe, expect, it } from 'vitest';
import { parseSse, type SseEvent } from './sse.ts';

/** A body that arrives in the given pieces, as a network would cut it. */
function stream(...chunks: string[]) {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function events(...chunks: string[]) {
  const found: SseEvent[] = [];
  for await (const event of parseSse(stream(...chunks))) found.push(event);
  return found;
}

describe('parseSse', () => {
  it('reads the batch stream: size, job, updates', async () => {
    expect(
      await events(
        'event: size\ndata: 2\n\n',
        'event: job\ndata: {"id":7}\n\n',
        'event: update\ndata: {"id":"TH-1","result":"Accepted"}\n\n',
        'event: update\ndata: {"id":"TH-2","result":"Offline"}\n\n',
      ),
    ).toEqual([
      { event: 'size', data: '2' },
      { event: 'job', data: '{"id":7}' },
      { event: 'update', data: '{"id":"TH-1","result":"Accepted"}' },
      { event: 'update', data: '{"id":"TH-2","result":"Offline"}' },
    ]);
  });

  it('joins events cut anywhere, even inside a character or a CRLF', async () => {
    const text = 'event: error\r\ndata: {"message":"ไม่ได้"}\r\n\r\n';
    const bytes = new TextEncoder().encode(text);
    const cut = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(Uint8Array.of(byte));
        controller.close();
      },
    });
    const found: SseEvent[] = [];
    for await (const event of parseSse(cut)) found.push(event);
    expect(found).toEqual([{ event: 'error', data: '{"message":"ไม่ได้"}' }]);
  });

  it('follows the standard: data lines, comments, CR endings, default type, one space dropped', async () => {
    expect(
      await events(': keep-alive\n\n', 'data:first\ndata:  second\r', '\rid: 3\nevent:x\ndata\n\n'),
    ).toEqual([
      { event: 'message', data: 'first\n second' },
      { event: 'x', data: '' },
    ]);
  });

  it('skips events without data and drops an unfinished one at the end', async () => {
    expect(await events('event: size\n\n', 'event: size\ndata: 5\n\n', 'event: update\ndata: {')).toEqual([
      { event: 'size', data: '5' },
    ]);
  });
});
