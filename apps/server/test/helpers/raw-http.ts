import http from 'node:http';
import net from 'node:net';

export interface RawAnswer {
  /** 0 when the server closed the connection without a status line. */
  status: number;
  headers: string;
  body: string;
  /** Set when the connection failed or the answer did not come in time. */
  error?: string;
}

/** The bytes received as text, without interim answers (100 Continue): the final one is what counts. */
const finalAnswer = (received: Buffer[]) =>
  Buffer.concat(received)
    .toString('latin1')
    .replace(/^(HTTP\/1\.[01] 1\d\d[^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '');

/**
 * Writes bytes to the server as they are (no client fixes them up) and reads what comes back until the
 * server closes the connection or `timeoutMs` passes. `end` half-closes after writing, for requests that
 * promise more body than they send.
 */
export function rawHttp(
  port: number,
  chunks: Array<string | Buffer>,
  { timeoutMs = 5000, end = false } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const received: Buffer[] = [];
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = finalAnswer(received);
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, headers: head, body: rest.join('\r\n\r\n'), error: status ? undefined : error });
    };
    const timer = setTimeout(() => finish('no answer in time'), timeoutMs);
    socket.on('data', (data) => {
      received.push(data);
      // One answer is all we ask for: stop once its declared body has arrived.
      const text = finalAnswer(received);
      const split = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, split))?.[1];
      if (
        split >= 0 &&
        length !== undefined &&
        Buffer.byteLength(text, 'latin1') >= split + 4 + Number(length)
      )
        finish();
    });
    socket.on('end', () => finish('closed'));
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        await new Promise<void>((done) => socket.write(chunk, () => done()));
      }
      if (end) socket.end();
    });
  });
}

export interface RawCase {
  label: string;
  chunks: () => Array<string | Buffer>;
  /** Half-close after writing (the request promises more than it sends). */
  end?: boolean;
  /** The server may close without a word (it has no complete request to answer). */
  mayClose?: boolean;
}

export const CRLF = '\r\n';
const request = (line: string, headers: string[], body: string | Buffer = '') => [
  `${line}${CRLF}${['Host: 127.0.0.1', 'Connection: close', ...headers].join(CRLF)}${CRLF}${CRLF}`,
  body,
];
const jsonPost = (auth: string, body: string, type = 'application/json') =>
  request(
    'POST /api/merchant HTTP/1.1',
    [auth, `Content-Type: ${type}`, `Content-Length: ${Buffer.byteLength(body)}`],
    body,
  );

/** Malformed requests at the HTTP edge, sent as a signed-in caller (`token`) where a token matters. */
export function rawCases(token: string): RawCase[] {
  const auth = `X-ACCESS-TOKEN: ${token}`;
  return [
    {
      label: 'bad percent escape in the path',
      chunks: () => request('GET /api/merchant/%ZZ HTTP/1.1', [auth]),
    },
    {
      label: 'bad escapes in path and query',
      chunks: () => request('GET /api/merchant/%ZZ%00?page=%ZZ&%E0%A4%A=1 HTTP/1.1', [auth]),
    },
    { label: 'truncated UTF-8 in the path', chunks: () => request('GET /api/%E0%A4%A HTTP/1.1', [auth]) },
    {
      label: 'raw byte 0xFF in the path',
      chunks: () => [
        Buffer.concat([
          Buffer.from('GET /api/merchant/'),
          Buffer.from([0xff]),
          Buffer.from(` HTTP/1.1${CRLF}Host: x${CRLF}Connection: close${CRLF}${CRLF}`),
        ]),
      ],
    },
    { label: 'NUL in the request line', chunks: () => request('GET /api/merchant/\u0000 HTTP/1.1', []) },
    {
      label: 'a 10 kB header',
      chunks: () => request('GET /api/merchant HTTP/1.1', [auth, `X-Filler: ${'a'.repeat(10_240)}`]),
    },
    {
      label: 'a 20 kB header (over the parser limit)',
      chunks: () => request('GET /api/merchant HTTP/1.1', [auth, `X-Filler: ${'a'.repeat(20_480)}`]),
    },
    {
      label: 'a 10 kB token',
      chunks: () => request('GET /api/merchant HTTP/1.1', [`X-ACCESS-TOKEN: ${'t'.repeat(10_240)}`]),
    },
    {
      label: 'header value with a control character',
      chunks: () => request('GET /api/merchant HTTP/1.1', [auth, 'X-Bad: a\u0001b']),
    },
    {
      label: 'Content-Length: abc',
      chunks: () =>
        request(
          'POST /api/merchant HTTP/1.1',
          [auth, 'Content-Type: application/json', 'Content-Length: abc'],
          '{}',
        ),
    },
    {
      label: 'Content-Length: -1',
      chunks: () =>
        request(
          'POST /api/merchant HTTP/1.1',
          [auth, 'Content-Type: application/json', 'Content-Length: -1'],
          '{}',
        ),
    },
    {
      label: 'two different Content-Lengths',
      chunks: () =>
        request(
          'POST /api/merchant HTTP/1.1',
          [auth, 'Content-Type: application/json', 'Content-Length: 2', 'Content-Length: 3'],
          '{} ',
        ),
    },
    {
      label: 'Content-Length with chunked encoding',
      chunks: () =>
        request(
          'POST /api/merchant HTTP/1.1',
          [auth, 'Content-Type: application/json', 'Content-Length: 2', 'Transfer-Encoding: chunked'],
          `2${CRLF}{}${CRLF}0${CRLF}${CRLF}`,
        ),
    },
    {
      label: 'bad chunk size',
      chunks: () =>
        request(
          'POST /api/merchant HTTP/1.1',
          [auth, 'Content-Type: application/json', 'Transfer-Encoding: chunked'],
          `zz${CRLF}{}${CRLF}0${CRLF}${CRLF}`,
        ),
    },
    {
      label: 'Content-Length larger than the body, then close',
      end: true,
      mayClose: true,
      chunks: () =>
        request(
          'POST /api/merchant HTTP/1.1',
          [auth, 'Content-Type: application/json', 'Content-Length: 100'],
          '{"nameEn":',
        ),
    },
    {
      label: 'Content-Length smaller than the body',
      chunks: () =>
        request(
          'POST /api/merchant HTTP/1.1',
          [auth, 'Content-Type: application/json', 'Content-Length: 5'],
          '{"nameEn":"x","nameTh":"y","internal":true}',
        ),
    },
    {
      label: 'a 10 GB Content-Length with Expect: 100-continue',
      chunks: () =>
        request('POST /api/merchant HTTP/1.1', [
          auth,
          'Content-Type: application/json',
          'Content-Length: 10737418240',
          'Expect: 100-continue',
        ]),
    },
    {
      label: 'JSON sent as text/plain',
      chunks: () => jsonPost(auth, '{"nameEn":"x","nameTh":"y","internal":true}', 'text/plain'),
    },
    {
      label: 'JSON sent as application/xml',
      chunks: () => jsonPost(auth, '{"nameEn":"x","nameTh":"y","internal":true}', 'application/xml'),
    },
    {
      label: 'XML sent as application/json',
      chunks: () => jsonPost(auth, '<merchant><nameEn>x</nameEn></merchant>'),
    },
    {
      label: 'JSON in a strange charset',
      chunks: () => jsonPost(auth, '{"nameEn":"x"}', 'application/json; charset=utf-7'),
    },
    {
      label: 'a 4 kB content type',
      chunks: () => jsonPost(auth, '{}', `application/json; ${'p=1; '.repeat(800)}`),
    },
    {
      label: 'gzip claimed, plain sent',
      chunks: () =>
        request(
          'POST /api/merchant HTTP/1.1',
          [auth, 'Content-Type: application/json', 'Content-Encoding: gzip', 'Content-Length: 2'],
          '{}',
        ),
    },
    {
      label: 'arrays nested 100k deep',
      chunks: () => jsonPost(auth, `${'['.repeat(100_000)}${']'.repeat(100_000)}`),
    },
    {
      label: 'objects nested 100k deep',
      chunks: () => jsonPost(auth, `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`),
    },
    { label: 'unclosed nesting 100k deep', chunks: () => jsonPost(auth, '['.repeat(100_000)) },
    {
      label: 'a 1.5 MB body (over the 1 MB limit)',
      chunks: () => jsonPost(auth, JSON.stringify({ nameEn: 'x'.repeat(1_500_000) })),
    },
    {
      label: 'a 1.5 MB chunked body',
      chunks: () =>
        request(
          'POST /api/merchant HTTP/1.1',
          [auth, 'Content-Type: application/json', 'Transfer-Encoding: chunked'],
          `${(1_500_000).toString(16)}${CRLF}${'x'.repeat(1_500_000)}${CRLF}0${CRLF}${CRLF}`,
        ),
    },
    { label: 'unknown method', chunks: () => request('FOO /api/health HTTP/1.1', []) },
    {
      label: 'absolute URI to another host',
      chunks: () => request('GET http://elsewhere.example/api/health HTTP/1.1', []),
    },
    { label: 'HTTP/1.0 without Host', chunks: () => [`GET /api/health HTTP/1.0${CRLF}${CRLF}`] },
    {
      label: 'a TLS hello on the plain port',
      mayClose: true,
      chunks: () => [Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03])],
    },
    {
      label: 'headers cut off, then close',
      end: true,
      mayClose: true,
      chunks: () => [`GET /api/health HTTP/1.1${CRLF}Host: x${CRLF}X-Half: `],
    },
  ];
}

/** What is wrong with a raw answer, if anything. */
export function rawVerdict(c: RawCase, a: RawAnswer): string | null {
  if (a.status === 0) return c.mayClose ? null : `no answer (${a.error})`;
  if (a.status >= 500) return `${a.status}`;
  if (a.status >= 400) {
    try {
      if (typeof JSON.parse(a.body).message !== 'string') return `${a.status} without a string message`;
    } catch {
      return `${a.status} without JSON {message}`;
    }
  }
  return null;
}

/** A GET with the body's bytes and the headers as sent (fetch would decode the body and hide the encoding). */
export function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      http
        .get(url, { headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks),
            }),
          );
        })
        .on('error', reject);
    },
  );
}
