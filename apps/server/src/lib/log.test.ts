import { PassThrough, Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions, prettyLogs, redactUrl } from './log.ts';

describe('redactUrl', () => {
  it.each([
    ['/api/events?accessToken=abc123', '/api/events?accessToken=[Redacted]'],
    ['/reset-password?token=t0k&x=1', '/reset-password?token=[Redacted]&x=1'],
    ['/a?x=1&emailToken=e-t&y=2', '/a?x=1&emailToken=[Redacted]&y=2'],
    ['/a?ACCESSTOKEN=abc', '/a?ACCESSTOKEN=[Redacted]'],
    ['/a?accessToken=one&accessToken=two', '/a?accessToken=[Redacted]&accessToken=[Redacted]'],
    // The server's query parser does not stop at '#': neither does the redaction.
    ['/a?accessToken=abc#frag', '/a?accessToken=[Redacted]'],
    ['/a?accessToken=', '/a?accessToken=[Redacted]'],
    // Names are read decoded, as the query parser reads them.
    ['/a?acc%65ssToken=abc&x=1', '/a?acc%65ssToken=[Redacted]&x=1'],
    ['/a?%61ccessToken=abc', '/a?%61ccessToken=[Redacted]'],
    ['/a?email%54oken=e&tok%65n=t', '/a?email%54oken=[Redacted]&tok%65n=[Redacted]'],
    ['/a?x=%ZZ&accessToken=abc', '/a?x=%ZZ&accessToken=[Redacted]'],
  ])('%s -> %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('leaves other parameters and plain paths alone', () => {
    expect(redactUrl('/api/merchant?page=1&size=10&sort=nameEn')).toBe(
      '/api/merchant?page=1&size=10&sort=nameEn',
    );
    expect(redactUrl('/api/user/self')).toBe('/api/user/self');
    // Only whole parameter names count.
    expect(redactUrl('/a?mytoken=visible&tokenType=bearer')).toBe('/a?mytoken=visible&tokenType=bearer');
  });
});

describe('loggerOptions', () => {
  it('censors passwords and tokens in logged objects', async () => {
    let text = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    const app = Fastify({ logger: loggerOptions('info', stream) });
    await app.ready();
    app.log.info(
      {
        body: { pass: 'p-1', currentPass: 'p-2', emailToken: 'p-3', accessToken: 'p-4', token: 'p-5' },
        user: { password: 'p-6', accessToken: 'p-7' },
        headers: { 'x-access-token': 'p-8' },
      },
      'something',
    );
    // A request is logged as method, redacted URL and address: no headers at all.
    app.log.info(
      {
        req: {
          method: 'GET',
          url: '/api/events?accessToken=p-9',
          ip: '127.0.0.1',
          headers: { 'x-access-token': 'p-10', authorization: 'p-11', cookie: 'p-12' },
        },
      },
      'incoming',
    );
    await app.close();
    expect(text).toContain('something');
    expect(text).toContain('"url":"/api/events?accessToken=[Redacted]"');
    expect(text).toContain('[Redacted]');
    expect(text).not.toMatch(/p-\d/);
  });
});

describe('log format', () => {
  it('is readable on a terminal and JSON elsewhere, unless LOG_FORMAT forces one', () => {
    expect(prettyLogs('auto', true)).toBe(true);
    expect(prettyLogs('auto', false)).toBe(false);
    expect(prettyLogs('auto', undefined)).toBe(false);
    expect(prettyLogs('json', true)).toBe(false);
    expect(prettyLogs('pretty', false)).toBe(true);
  });

  it('goes through pino-pretty only when pretty, and never when the caller gives a stream', () => {
    const options = (format: 'json' | 'pretty', stream?: NodeJS.WritableStream) =>
      loggerOptions('info', stream, format) as { transport?: { target: string }; stream?: unknown };
    expect(options('pretty').transport?.target).toBe('pino-pretty');
    expect(options('json').transport).toBeUndefined();
    const stream = new PassThrough();
    expect(options('pretty', stream).transport).toBeUndefined();
    expect(options('pretty', stream).stream).toBe(stream);
    // Redaction is the logger's, before any format: the same paths either way.
    expect(loggerOptions('info', undefined, 'pretty')).toMatchObject({ redact: { censor: '[Redacted]' } });
  });
});
