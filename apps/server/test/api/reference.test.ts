import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  t = await startTestApp();
  adminToken = (await signedInUser(t, { role: 'admin' })).token;
});
afterAll(() => t.close());

describe('GET /api/province', () => {
  it('lists the 77 provinces with English and Thai names', async () => {
    const { token } = await signedInUser(t, { role: 'station' });
    const response = await t.call('GET', '/api/province', { token });
    expect(response.status).toBe(200);
    const provinces = response.body.provinces as Array<{ id: number; nameEn: string; nameTh: string }>;
    expect(provinces).toHaveLength(77);
    expect(new Set(provinces.map((p) => p.id)).size).toBe(77);
    expect(new Set(provinces.map((p) => p.nameEn)).size).toBe(77);
    for (const province of provinces) {
      expect(Object.keys(province).sort()).toEqual(['id', 'nameEn', 'nameTh']);
      expect(Number.isInteger(province.id)).toBe(true);
      expect(province.nameEn).toMatch(/^[A-Za-z][A-Za-z .-]+$/);
      expect(province.nameTh).toMatch(/^[\u0E00-\u0E7F ]+$/);
    }
    expect(provinces).toContainEqual({ id: expect.any(Number), nameEn: 'Bangkok', nameTh: 'กรุงเทพมหานคร' });
    expect(provinces).toContainEqual({ id: expect.any(Number), nameEn: 'Chiang Mai', nameTh: 'เชียงใหม่' });
  });
});

describe('GET /api/pea', () => {
  it('gives the admin both configured tokens', async () => {
    const response = await t.call('GET', '/api/pea', { token: adminToken });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ peaToken: { token: 'pea-token-value', tokenC: 'pea-token-c-value' } });
  });

  it('answers 503 naming the missing settings when the tokens are not configured', async () => {
    const bare = await startTestApp({ PEA_TOKEN: '', PEA_TOKEN_C: '' });
    const half = await startTestApp({ PEA_TOKEN: 'pea-token-value', PEA_TOKEN_C: '' });
    try {
      const none = await bare.call('GET', '/api/pea', {
        token: (await signedInUser(bare, { role: 'admin' })).token,
      });
      expect(none.status).toBe(503);
      expect(none.body).toEqual({
        message:
          'The PEA tokens are not configured on this server: PEA_TOKEN and PEA_TOKEN_C are not set. Ask the server administrator to set them and restart the server.',
      });
      // Half a pair is not shown: the notification always holds both values.
      const one = await half.call('GET', '/api/pea', {
        token: (await signedInUser(half, { role: 'admin' })).token,
      });
      expect(one.status).toBe(503);
      expect(one.body).toEqual({
        message:
          'The PEA tokens are not configured on this server: PEA_TOKEN_C is not set. Ask the server administrator to set it and restart the server.',
      });
    } finally {
      await Promise.all([bare.close(), half.close()]);
    }
  });

  it('is for admins only, configured or not', async () => {
    const { token } = await signedInUser(t, { role: 'callcenter' });
    expect((await t.call('GET', '/api/pea', { token })).status).toBe(403);
  });
});

describe('GET /api/app-config', () => {
  it('tells anyone the map tile source, OpenStreetMap by default', async () => {
    const response = await t.call('GET', '/api/app-config');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      mapTileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      mapAttribution: '© OpenStreetMap contributors',
    });
  });

  it('takes MAP_TILE_URL, and an empty one means no tiles', async () => {
    const own = await startTestApp({ MAP_TILE_URL: 'https://tiles.example.com/{z}/{x}/{y}.png' });
    const none = await startTestApp({ MAP_TILE_URL: '' });
    try {
      expect((await own.call('GET', '/api/app-config')).body.mapTileUrl).toBe(
        'https://tiles.example.com/{z}/{x}/{y}.png',
      );
      expect((await none.call('GET', '/api/app-config')).body.mapTileUrl).toBeNull();
    } finally {
      await Promise.all([own.close(), none.close()]);
    }
  });
});
