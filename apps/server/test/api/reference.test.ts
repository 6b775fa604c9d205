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

  it('answers 404 with a message when no token is configured', async () => {
    const bare = await startTestApp({ PEA_TOKEN: '', PEA_TOKEN_C: '' });
    try {
      const { token } = await signedInUser(bare, { role: 'admin' });
      const response = await bare.call('GET', '/api/pea', { token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: expect.stringMatching(/.+/) });
    } finally {
      await bare.close();
    }
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
