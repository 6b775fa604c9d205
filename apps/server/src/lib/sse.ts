import type { FastifyReply } from 'fastify';

export interface EventStream {
  /** Queues one event; events queued in the same tick go out in one write. */
  send(event: string, data: unknown): void;
  /** Queues a comment line (`: text`): a heartbeat that keeps proxies from closing an idle stream. */
  comment(text: string): void;
  /** Whether the client has gone away (or `end()` was called). */
  readonly closed: boolean;
  /** Flushes and ends the response. */
  end(): void;
}

/**
 * Turns a reply into a server-sent event stream (text/event-stream). Fastify lets go of the reply: the caller
 * owns it until `end()`. A client that goes away stops nothing but the writing.
 */
export function openEventStream(reply: FastifyReply): EventStream {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    // Proxies must pass events on as they come.
    'X-Accel-Buffering': 'no',
  });
  let closed = false;
  let pending = '';
  let scheduled = false;
  raw.on('close', () => {
    closed = true;
  });
  const flush = () => {
    scheduled = false;
    if (!closed && pending) raw.write(pending);
    pending = '';
  };
  const queue = (text: string) => {
    if (closed) return;
    pending += text;
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return {
    send(event, data) {
      queue(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    comment(text) {
      queue(`: ${text.replace(/[\r\n]+/g, ' ')}\n\n`);
    },
    get closed() {
      return closed;
    },
    end() {
      flush();
      if (!closed) raw.end();
      closed = true;
    },
  };
}
