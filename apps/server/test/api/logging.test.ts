import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('server logs', () => {
  it('hold no token and no password', async () => {
    const user = await createUser(t);
    const secrets = {
      wrongPassword: 'Wrong-Guess-4821',
      factoryPassword: user.pass,
      newPassword: 'Brand-New-Pass-77',
      wrongCurrent: 'Not-Current-993',
      queryToken: 'SECRET-QUERY-TOKEN-5150',
    };

    expect(
      (
        await t.call('POST', '/api/auth/login', {
          body: { email: user.email, pass: secrets.wrongPassword, type: 'admin' },
        })
      ).status,
    ).toBe(401);
    const signIn = await t.call('POST', '/api/auth/login', {
      body: { email: user.email, pass: user.pass, type: 'admin' },
    });
    expect(signIn.status).toBe(200);
    const token: string = signIn.body.accessToken;

    expect((await t.call('GET', '/api/user/self', { token })).status).toBe(200);
    expect((await t.call('GET', `/api/user/self?accessToken=${secrets.queryToken}`, { token })).status).toBe(
      200,
    );
    expect(
      (
        await t.call(
          'GET',
          `/api/province?accessToken=${secrets.queryToken}&emailToken=${secrets.queryToken}`,
        )
      ).status,
    ).toBe(401);
    const wrongCurrent = { currentPass: secrets.wrongCurrent, pass: secrets.newPassword };
    expect((await t.call('PATCH', '/api/user/self', { token, body: wrongCurrent })).status).toBe(400);
    const change = { currentPass: user.pass, pass: secrets.newPassword };
    expect((await t.call('PATCH', '/api/user/self', { token, body: change })).status).toBe(200);
    // A validation failure on the password itself.
    const weak = { currentPass: secrets.newPassword, pass: `${secrets.newPassword}ไทย` };
    expect((await t.call('PATCH', '/api/user/self', { token, body: weak })).status).toBe(400);

    const logs = t.logs();
    // The requests were logged (so the absence checks below mean something), with the query redacted.
    expect(logs).toContain('"url":"/api/user/self?accessToken=[Redacted]"');
    expect(logs).toContain('"url":"/api/province?accessToken=[Redacted]&emailToken=[Redacted]"');
    expect(logs.match(/"url":"\/api\/user\/self"/g)?.length).toBeGreaterThanOrEqual(4);

    expect(logs).not.toContain(token);
    for (const [name, secret] of Object.entries(secrets)) expect(logs, name).not.toContain(secret);
    expect(logs).not.toMatch(/SECRET/);
  });

  it('redacts a session token sent under a percent-encoded parameter name', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const signIn = await t.call('POST', '/api/auth/login', {
      body: { email: admin.email, pass: admin.pass, type: 'admin' },
    });
    const token: string = signIn.body.accessToken;
    // The query parser decodes `acc%65ssToken` to `accessToken`: the session is taken (403 for the batch
    // token, not 401), so the value is a secret in the log too.
    const url = `/api/charger/batch/hard-reset?acc%65ssToken=${token}&t%6Fken=batch-secret-42`;
    const answer = await t.call('GET', url);
    expect(answer.status).toBe(403);
    const logs = t.logs();
    expect(logs).toContain(
      '"url":"/api/charger/batch/hard-reset?acc%65ssToken=[Redacted]&t%6Fken=[Redacted]"',
    );
    expect(logs).not.toContain(token);
    expect(logs).not.toContain('batch-secret-42');
  });
});
