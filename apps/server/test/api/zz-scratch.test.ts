import { it } from 'vitest';
import { signedInUser } from '../helpers/factories.ts';
import { startTestApp } from '../helpers/test-app.ts';

it('probe', async () => {
  const t = await startTestApp();
  const { token } = await signedInUser(t);
  const show = async (label: string, p: Promise<{ status: number; body: unknown; headers: Headers }>) => {
    try { const r = await p; console.log(label, r.status, JSON.stringify(r.body).slice(0, 300)); } catch (e) { console.log(label, 'THROW', (e as Error).message, (e as any).cause?.code); }
  };
  await show('weak', t.call('PATCH', '/api/user/self', { token, body: { currentPass: 'Factory123', pass: 'abcdefgh1' } }));
  await show('thai', t.call('PATCH', '/api/user/self', { token, body: { currentPass: 'Factory123', pass: 'Abcdefgh1ก' } }));
  await show('short', t.call('PATCH', '/api/user/self', { token, body: { currentPass: 'Factory123', pass: 'Ab1' } }));
  await show('mixed', t.call('PATCH', '/api/user/self', { token, body: { currentPass: 'Factory123', pass: 'Abcdefgh1', firstName: 'a', lastName: 'b' } }));
  await show('name51', t.call('PATCH', '/api/user/self', { token, body: { firstName: 'a'.repeat(51), lastName: 'b' } }));
  await show('nul-login', t.call('POST', '/api/auth/login', { body: { email: 'a\u0000b', pass: 'x', type: 'admin' } }));
  await show('nul-name', t.call('PATCH', '/api/user/self', { token, body: { firstName: 'a\u0000b', lastName: 'b' } }));
  await show('nul-forgot', t.call('POST', '/api/auth/forgot-password', { body: { email: 'a\u0000b@example.com', type: 'admin' } }));
  await show('badjson', t.call('POST', '/api/auth/login', { raw: '{"email":', headers: { 'content-type': 'application/json' } }));
  await show('empty-json', t.call('POST', '/api/auth/login', { raw: '', headers: { 'content-type': 'application/json' } }));
  await show('text', t.call('POST', '/api/auth/login', { raw: 'hello', headers: { 'content-type': 'text/plain' } }));
  await show('xml', t.call('POST', '/api/auth/login', { raw: '<a/>', headers: { 'content-type': 'application/xml' } }));
  await show('form', t.call('POST', '/api/auth/login', { raw: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
  await show('nobody', t.call('POST', '/api/auth/login', {}));
  await show('array', t.call('POST', '/api/auth/login', { body: [] }));
  await show('null', t.call('POST', '/api/auth/login', { body: null }));
  await show('proto', t.call('POST', '/api/auth/login', { raw: '{"__proto__":{"x":1},"email":"a","pass":"b","type":"admin"}', headers: { 'content-type': 'application/json' } }));
  await show('2mb', t.call('POST', '/api/auth/login', { raw: JSON.stringify({ email: 'a'.repeat(2 * 1024 * 1024), pass: 'x', type: 'admin' }), headers: { 'content-type': 'application/json' } }));
  await show('2mb-auth', t.call('PATCH', '/api/user/self', { token, raw: JSON.stringify({ firstName: 'a'.repeat(2 * 1024 * 1024), lastName: 'x' }), headers: { 'content-type': 'application/json' } }));
  await show('logout-body', t.call('POST', '/api/auth/logout', { token: 'garbage', raw: '{bad', headers: { 'content-type': 'application/json' } }));
  await show('logout-json-body', t.call('POST', '/api/auth/logout', { token: 'garbage', body: {a:1} }));
  await show('term-str', t.call('POST', '/api/user/self/term-accept', { token, body: { termsId: '1', privacyId: null } }));
  await show('term-big', t.call('POST', '/api/user/self/term-accept', { token, body: { termsId: 1e20, privacyId: null } }));
  await show('term-3e9', t.call('POST', '/api/user/self/term-accept', { token, body: { termsId: 3e9, privacyId: null } }));
  await show('reset-tok', t.call('POST', '/api/auth/reset-password', { body: { emailToken: 'x'.repeat(200), pass: 'abcdefgh' } }));
  await show('get-with-body', t.call('GET', '/api/user/self?accessToken=SECRET', { token }));
  console.log(t.app.printRoutes({ commonPrefix: false, includeMeta: ['config'] }));
  console.log(t.logs().slice(-3000));
  await t.close();
}, 60000);
