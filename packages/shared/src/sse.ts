/** Reading server-sent events from a fetch body (the browser's batch modal and the server's tests). */

/** One server-sent event: its type ('message' when the stream names none) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * The events of a `text/event-stream` body, as the HTML standard parses them: lines end in CRLF, LF or CR;
 * `event:` names the type, `data:` lines join with '\n', a line starting with ':' is a comment, one space
 * after the colon is dropped, and a blank line dispatches (an event without data is skipped). What follows
 * the last blank line when the stream ends is incomplete and dropped.
 */
export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  // One decoder for the whole stream: a character cut between two chunks is joined, not garbled.
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      // A CR at the very end may be the first half of a CRLF: keep it for the next chunk.
      const lines = buffer.split(/\r\n|\n|\r(?!$)/);
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const text = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
      }
    }
  } finally {
    reader.releaseLock();
  }
}
