import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages } from '../../src/db/schema/index.ts';
import { createLegalPage, signedInUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const termAccept = async (token: string) =>
  (await t.call('GET', '/api/user/self', { token })).body.user.termAccept;
const accept = (token: string, termsId: number | null, privacyId: number | null) =>
  t.call('POST', '/api/user/self/term-accept', { token, body: { termsId, privacyId } });

// The describes run in order: first with no page published, then with pages.
describe('with no terms or privacy page published', () => {
  it('answers 404 with a message on the public calls', async () => {
    for (const path of ['/api/terms', '/api/privacy']) {
      const response = await t.call('GET', path);
      expect(response.status, path).toBe(404);
      expect(response.body, path).toEqual({ message: expect.any(String) });
    }
  });

  it('counts every user as having accepted, and accepts nulls', async () => {
    const { token } = await signedInUser(t);
    expect(await termAccept(token)).toBe(true);
    const response = await accept(token, null, null);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Success', termAccept: true });
  });

  it('answers 409 to ids of pages that are not in force', async () => {
    const { token } = await signedInUser(t);
    const inactive = await createLegalPage(t, 'terms', { active: false });
    const response = await accept(token, inactive.id, null);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ message: expect.any(String) });
  });
});

describe('with terms and privacy published', () => {
  let terms: typeof pages.$inferSelect;
  let privacy: typeof pages.$inferSelect;
  beforeAll(async () => {
    terms = await createLegalPage(t, 'terms', { detailEn: '<p>Terms EN</p>', detailTh: '<p>ข้อกำหนด</p>' });
    privacy = await createLegalPage(t, 'privacy', {
      detailEn: '<p>Privacy EN</p>',
      detailTh: '<p>ความเป็นส่วนตัว</p>',
    });
  });

  it('serves the pages in force to anyone, signed in or not', async () => {
    const termsResponse = await t.call('GET', '/api/terms');
    expect(termsResponse.status).toBe(200);
    expect(termsResponse.body).toEqual({
      terms: {
        id: terms.id,
        type: 'terms',
        titleEn: terms.titleEn,
        titleTh: terms.titleTh,
        detailEn: '<p>Terms EN</p>',
        detailTh: '<p>ข้อกำหนด</p>',
        updatedAt: expect.any(String),
      },
    });
    const privacyResponse = await t.call('GET', '/api/privacy');
    expect(privacyResponse.status).toBe(200);
    expect(privacyResponse.body.privacy).toMatchObject({
      id: privacy.id,
      type: 'privacy',
      detailEn: '<p>Privacy EN</p>',
      detailTh: '<p>ความเป็นส่วนตัว</p>',
    });
  });

  it('does not serve an inactive page, even one published later', async () => {
    await createLegalPage(t, 'terms', { active: false, publishedAt: new Date(Date.now() + 60_000) });
    expect((await t.call('GET', '/api/terms')).body.terms.id).toBe(terms.id);
  });

  it('asks a new user, and records the acceptance of the ids in force', async () => {
    const { token } = await signedInUser(t);
    expect(await termAccept(token)).toBe(false);

    const response = await accept(token, terms.id, privacy.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Success', termAccept: true });
    expect(await termAccept(token)).toBe(true);
  });

  it('answers 409 to stale, swapped or missing ids and records nothing', async () => {
    const { token } = await signedInUser(t);
    for (const [termsId, privacyId] of [
      [terms.id + 1000, privacy.id],
      [privacy.id, terms.id],
      [null, null],
      [terms.id, null],
    ] as const) {
      const response = await accept(token, termsId, privacyId);
      expect(response.status, `${termsId}/${privacyId}`).toBe(409);
      expect(response.body).toEqual({ message: expect.any(String) });
    }
    expect(await termAccept(token)).toBe(false);
  });

  it('asks again once a newer page is published, and 409s the old ids', async () => {
    const { token } = await signedInUser(t);
    expect((await accept(token, terms.id, privacy.id)).status).toBe(200);
    expect(await termAccept(token)).toBe(true);

    // Published now, so later than the page it replaces.
    const newer = await createLegalPage(t, 'terms');
    expect(newer.publishedAt!.getTime()).toBeGreaterThan(terms.publishedAt!.getTime());
    expect(await termAccept(token)).toBe(false);
    expect((await t.call('GET', '/api/terms')).body.terms.id).toBe(newer.id);
    expect((await accept(token, terms.id, privacy.id)).status).toBe(409);
    expect((await accept(token, newer.id, privacy.id)).body.termAccept).toBe(true);
    terms = newer;
  });

  it('asks again when the page in force is published again', async () => {
    const { token } = await signedInUser(t);
    expect((await accept(token, terms.id, privacy.id)).body.termAccept).toBe(true);

    await t.database.db
      .update(pages)
      .set({ publishedAt: new Date(Date.now() + 60_000) })
      .where(eq(pages.id, privacy.id));
    expect(await termAccept(token)).toBe(false);
  });
});
