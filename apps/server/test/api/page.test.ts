import { ADMIN_ROLES, ID_MAX, PAGE_DETAIL_MAX, PAGE_MESSAGES, VIDEO_SANDBOX } from '@ev/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: string;
let marketing: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await signedInUser(t, { role: 'admin' })).token;
  marketing = (await signedInUser(t, { role: 'marketting' })).token;
});
afterAll(() => t.close());

let sequence = 0;
const guide = (over: Record<string, unknown> = {}) => ({
  type: 'guide',
  titleEn: `Tutorial ${++sequence}`,
  titleTh: `บทเรียน ${sequence}`,
  detailEn: '<p>How to charge</p>',
  detailTh: '<p>วิธีชาร์จ</p>',
  ...over,
});
const legal = (type: 'terms' | 'privacy', over: Record<string, unknown> = {}) => ({
  type,
  titleEn: `${type} ${++sequence}`,
  titleTh: `${type} TH ${sequence}`,
  detailEn: `<p>${type} text ${sequence}</p>`,
  detailTh: `<p>ข้อความ ${sequence}</p>`,
  ...over,
});

const create = async (body: unknown, token = admin) => {
  const response = await t.call('POST', '/api/page', { token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body).toEqual({ message: 'Success', id: expect.any(Number) });
  return response.body.id as number;
};
const read = async (id: number) => {
  const response = await t.call('GET', `/api/page/${id}`, { token: admin });
  expect(response.status).toBe(200);
  return response.body.page;
};
const patch = (id: number, body: unknown, token = admin) =>
  t.call('PATCH', `/api/page/${id}`, { token, body });
const list = (query: string, token = admin) => t.call('GET', `/api/page?${query}`, { token });
const ids = (response: { body: { pages: Array<{ id: number }> } }) => response.body.pages.map((p) => p.id);

describe('POST and GET /api/page/{id}', () => {
  it('creates a tutorial, active by default, not displayed, never published', async () => {
    const id = await create(guide({ titleEn: '  Padded  ' }));
    expect(await read(id)).toEqual({
      id,
      type: 'guide',
      titleEn: 'Padded',
      titleTh: expect.any(String),
      detailEn: '<p>How to charge</p>',
      detailTh: '<p>วิธีชาร์จ</p>',
      active: true,
      weight: 0,
      publishedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await read(await create(guide({ active: false })))).active).toBe(false);
  });

  it('creates terms and privacy pages as Drafts unless sent active, which publishes them', async () => {
    const draft = await read(await create(legal('terms')));
    expect(draft).toMatchObject({ type: 'terms', active: false, publishedAt: null });
    const published = await read(await create(legal('privacy', { active: true })));
    expect(published.active).toBe(true);
    expect(published.publishedAt).toEqual(expect.any(String));
  });

  it('sanitizes the Detail HTML: scripts and handlers are gone, the toolbar output stays', async () => {
    const id = await create(
      guide({
        detailEn:
          '<p style="font-family:Kanit">Hello<script>alert(1)</script><img src=x onerror=alert(1)></p>' +
          '<iframe src="https://www.youtube.com/embed/abc123"></iframe><a href="javascript:alert(1)">x</a>',
        detailTh: '<p onclick="alert(1)">สวัสดี</p>',
      }),
    );
    const page = await read(id);
    expect(page.detailEn).toBe(
      '<p style="font-family:Kanit">Hello</p>' +
        `<iframe src="https://www.youtube.com/embed/abc123" sandbox="${VIDEO_SANDBOX}" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe><a>x</a>`,
    );
    expect(page.detailTh).toBe('<p>สวัสดี</p>');
  });

  it('refuses missing, blank, long or empty fields with the form messages', async () => {
    const cases: Array<[unknown, string]> = [
      [guide({ titleEn: undefined }), `body.titleEn: ${PAGE_MESSAGES.titleEn}`],
      [guide({ titleTh: '   ' }), `body.titleTh: ${PAGE_MESSAGES.titleTh}`],
      [guide({ titleEn: 'x'.repeat(101) }), 'body.titleEn: Please enter no more than 100 characters.'],
      [
        legal('terms', { titleEn: 'x'.repeat(256) }),
        'body.titleEn: Please enter no more than 255 characters.',
      ],
      [guide({ detailEn: '<p><br></p>' }), `body.detailEn: ${PAGE_MESSAGES.detailEn}`],
      // Text only inside what the sanitizer removes: empty once stored.
      [guide({ detailEn: '<script>alert(1)</script>' }), `body.detailEn: ${PAGE_MESSAGES.detailEn}`],
      [guide({ detailTh: '<p><svg><text>x</text></svg></p>' }), `body.detailTh: ${PAGE_MESSAGES.detailTh}`],
      [guide({ type: 'news' }), expect.stringContaining('body.type')],
      [guide({ weight: 3 }), expect.stringContaining('weight')],
    ];
    for (const [body, message] of cases) {
      const response = await t.call('POST', '/api/page', { token: admin, body });
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body).toEqual({ message });
    }
    await create(legal('terms', { titleEn: 'x'.repeat(255) }));
  });

  it('takes a long bilingual page up to the Detail limit, beyond the app-wide 1 MiB body limit', async () => {
    // 600,000 Thai characters a Detail: 1.8 MB of UTF-8 each, 3.6 MB in all.
    const thai = `<p>${'ก'.repeat(600_000)}</p>`;
    const id = await create(guide({ detailEn: thai, detailTh: thai }));
    expect((await read(id)).detailTh).toBe(thai);
    const tooLong = `<p>${'a'.repeat(PAGE_DETAIL_MAX)}</p>`;
    const response = await t.call('POST', '/api/page', { token: admin, body: guide({ detailEn: tooLong }) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      message: `body.detailEn: Please enter no more than ${PAGE_DETAIL_MAX} characters.`,
    });
  });

  it('answers 404 with the message for unknown ids', async () => {
    for (const id of [987_654, ID_MAX + 1]) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { active: true }],
        ['DELETE', undefined],
      ] as const) {
        const response = await t.call(method, `/api/page/${id}`, { token: admin, body });
        expect(response.status, `${method} ${id}`).toBe(404);
        expect(response.body).toEqual({ message: PAGE_MESSAGES.notFound });
      }
    }
    expect((await t.call('GET', '/api/page/abc', { token: admin })).status).toBe(400);
  });
});

describe('GET /api/page', () => {
  let first: number;
  let second: number;
  let off: number;
  beforeAll(async () => {
    first = await create(guide({ titleEn: 'List A' }));
    second = await create(guide({ titleEn: 'List B' }));
    off = await create(guide({ titleEn: 'List C', active: false }));
  });

  it('needs a type, and lists summaries without their Detail', async () => {
    expect((await list('')).status).toBe(400);
    expect((await list('type=news')).status).toBe(400);
    const response = await list('type=guide&size=100');
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(response.body.pages.length);
    const row = response.body.pages.find((p: { id: number }) => p.id === first);
    expect(row).toEqual({
      id: first,
      type: 'guide',
      titleEn: 'List A',
      titleTh: expect.any(String),
      active: true,
      weight: 0,
      publishedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(response.body.pages.every((p: { type: string }) => p.type === 'guide')).toBe(true);
  });

  it('orders tutorials newest first by default, and by any listed key', async () => {
    const all = ids(await list('type=guide&size=100'));
    expect(all).toEqual([...all].sort((a, b) => b - a));
    expect(ids(await list('type=guide&size=100&sort=titleEn&order=asc')).indexOf(first)).toBeLessThan(
      ids(await list('type=guide&size=100&sort=titleEn&order=asc')).indexOf(second),
    );
    expect(ids(await list('type=guide&size=100&sort=id&order=asc'))).toEqual([...all].reverse());
    for (const sort of ['titleTh', 'active', 'weight', 'updatedAt', 'createdAt'])
      expect((await list(`type=guide&sort=${sort}`)).status, sort).toBe(200);
    const bad = await list('type=guide&sort=detailEn');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/query\.sort/);
  });

  it('orders terms and privacy pages last updated first by default', async () => {
    const older = await create(legal('terms', { titleEn: 'Older' }));
    const newer = await create(legal('terms', { titleEn: 'Newer' }));
    expect(ids(await list('type=terms&size=100')).indexOf(newer)).toBeLessThan(
      ids(await list('type=terms&size=100')).indexOf(older),
    );
    // Editing the older one brings it to the top.
    expect((await patch(older, legal('terms', { titleEn: 'Older, edited' }))).status).toBe(200);
    expect(ids(await list('type=terms&size=100'))[0]).toBe(older);
  });

  it('filters by id and status, and pages', async () => {
    expect(ids(await list(`type=guide&id=${second}`))).toEqual([second]);
    expect(ids(await list(`type=terms&id=${second}`))).toEqual([]);
    const inactive = await list('type=guide&active=false&size=100');
    expect(ids(inactive)).toContain(off);
    expect(ids(inactive)).not.toContain(first);
    expect(ids(await list('type=guide&active=true&size=100'))).not.toContain(off);
    const page2 = await list('type=guide&size=1&page=2&sort=id&order=asc');
    expect(page2.body.pages).toHaveLength(1);
    expect(page2.body.total).toBe((await list('type=guide')).body.total);
  });

  it('answers mode=dropdown with every title of the type', async () => {
    const response = await list('type=guide&mode=dropdown');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ pages: expect.any(Array) });
    expect(response.body.pages).toContainEqual({ id: first, titleEn: 'List A', titleTh: expect.any(String) });
    expect(response.body.pages.length).toBe((await list('type=guide&size=100')).body.total);
    expect(Object.keys(response.body.pages[0]).sort()).toEqual(['id', 'titleEn', 'titleTh']);
  });
});

describe('tutorial order (Manage Tutorials)', () => {
  let a: number;
  let b: number;
  let c: number;
  let hidden: number;
  let inactive: number;
  beforeAll(async () => {
    a = await create(guide({ titleEn: 'Order A' }));
    b = await create(guide({ titleEn: 'Order B' }));
    c = await create(guide({ titleEn: 'Order C' }));
    hidden = await create(guide({ titleEn: 'Order hidden' }));
    inactive = await create(guide({ titleEn: 'Order inactive' }));
  });

  it('saves weights one call at a time and lists chosen and unchosen tutorials', async () => {
    const before = (await read(b)).updatedAt;
    for (const [id, weight] of [
      [c, 1],
      [a, 2],
      [b, 3],
      [inactive, 4],
    ] as const) {
      const response = await patch(id, { weight });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ message: 'Success' });
    }
    expect(new Date((await read(b)).updatedAt).getTime()).toBeGreaterThan(new Date(before).getTime());

    const chosen = await list('type=guide&minWeight=0&page=1&size=99&sort=weight&order=asc');
    expect(chosen.status).toBe(200);
    expect(ids(chosen)).toEqual([c, a, b, inactive]);
    expect(chosen.body.total).toBe(4);
    const unchosen = await list('type=guide&weight=0&size=100');
    expect(ids(unchosen)).toContain(hidden);
    expect(ids(unchosen)).not.toContain(a);
    expect(unchosen.body.pages.every((p: { weight: number }) => p.weight === 0)).toBe(true);
    expect(ids(await list('type=guide&weight=2'))).toEqual([a]);
    expect(ids(await list('type=guide&minWeight=2&sort=weight&order=asc'))).toEqual([b, inactive]);
  });

  it('moving a tutorial back sets weight 0', async () => {
    expect((await patch(inactive, { weight: 0 })).status).toBe(200);
    expect(ids(await list('type=guide&minWeight=0&size=99&sort=weight&order=asc'))).toEqual([c, a, b]);
  });

  it('refuses a weight on terms and privacy pages, and bad weights', async () => {
    const terms = await create(legal('terms'));
    const response = await patch(terms, { weight: 1 });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/body\.weight/);
    for (const weight of [-1, 1.5, 10_001, '1', null]) expect((await patch(a, { weight })).status).toBe(400);
    expect((await patch(a, { weight: 1, active: true })).status).toBe(400);
    expect((await list('type=guide&minWeight=-1')).status).toBe(400);
  });

  it('gives the member app the active displayed tutorials in order', async () => {
    const { token } = await signedInUser(t, { type: 'mobile' });
    // Two at the same weight: by id.
    const tie = await create(guide({ titleEn: 'Order tie' }));
    expect((await patch(tie, { weight: 3 })).status).toBe(200);
    // Displayed but switched off: not shown.
    expect((await patch(inactive, { weight: 5 })).status).toBe(200);
    expect((await patch(inactive, { active: false })).status).toBe(200);

    const response = await t.call('GET', '/api/member/guide', { token });
    expect(response.status).toBe(200);
    expect(response.body.pages.map((p: { id: number }) => p.id)).toEqual([c, a, b, tie]);
    expect(response.body.total).toBe(4);
    expect(response.body.pages[0]).toEqual({
      id: c,
      titleEn: 'Order C',
      titleTh: expect.any(String),
      detailEn: '<p>How to charge</p>',
      detailTh: '<p>วิธีชาร์จ</p>',
      weight: 1,
    });
    // A staff token is not a member's.
    expect((await t.call('GET', '/api/member/guide', { token: admin })).status).toBe(401);
    expect((await t.call('GET', '/api/member/guide')).status).toBe(401);
  });
});

describe('PATCH /api/page/{id}', () => {
  it('saves the whole form, sanitized, and toggles with { active }', async () => {
    const id = await create(guide());
    const saved = await patch(
      id,
      guide({ titleEn: 'Renamed', detailEn: '<p>New<script>x</script></p>', active: false }),
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ message: 'Success' });
    expect(await read(id)).toMatchObject({ titleEn: 'Renamed', detailEn: '<p>New</p>', active: false });
    // `active` left out of the form: unchanged.
    expect((await patch(id, guide({ titleEn: 'Again' }))).status).toBe(200);
    expect((await read(id)).active).toBe(false);
    expect((await patch(id, { active: true })).status).toBe(200);
    expect((await read(id)).active).toBe(true);
  });

  it("refuses a form of another type than the page's, and unknown keys", async () => {
    const id = await create(guide());
    const response = await patch(id, legal('terms'));
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^body\.type: /);
    const unknown = await patch(id, guide({ foo: 1 }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/foo/);
    expect((await patch(id, { active: true, foo: 1 })).status).toBe(400);
  });
});

const termAccept = async (token: string) =>
  (await t.call('GET', '/api/user/self', { token })).body.user.termAccept as boolean;
const accept = async (token: string) => {
  const terms = (await t.call('GET', '/api/terms')).body.terms.id;
  const privacy = (await t.call('GET', '/api/privacy')).body.privacy.id;
  const response = await t.call('POST', '/api/user/self/term-accept', {
    token,
    body: { termsId: terms, privacyId: privacy },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.termAccept).toBe(true);
  return { terms, privacy };
};

// In order: each step starts from what the one before left.
describe('publishing terms and privacy', () => {
  let staff: string;
  let termsV1: number;
  let termsV2: number;
  let draft: number;

  beforeAll(async () => {
    staff = (await signedInUser(t, { role: 'callcenter' })).token;
    termsV1 = await create(legal('terms', { active: true }));
    await create(legal('privacy', { active: true }));
  });

  it('a staff user accepts the pages in force', async () => {
    expect(await termAccept(staff)).toBe(false);
    expect((await accept(staff)).terms).toBe(termsV1);
    expect(await termAccept(staff)).toBe(true);
  });

  it('publishing a new terms page asks again; accepting it clears that', async () => {
    termsV2 = await create(legal('terms', { active: true, titleEn: 'Terms v2' }));
    expect(await termAccept(staff)).toBe(false);
    expect((await t.call('GET', '/api/terms')).body.terms.titleEn).toBe('Terms v2');
    expect((await accept(staff)).terms).toBe(termsV2);
    expect(await termAccept(staff)).toBe(true);
  });

  it('switching a Draft on publishes it: asked again', async () => {
    draft = await create(legal('terms', { titleEn: 'Terms v3' }));
    expect(await termAccept(staff)).toBe(true);
    expect((await patch(draft, { active: true })).status).toBe(200);
    expect((await read(draft)).publishedAt).toEqual(expect.any(String));
    expect(await termAccept(staff)).toBe(false);
    expect((await accept(staff)).terms).toBe(draft);
  });

  it('changing the text of the page in force publishes it again; saving it unchanged does not', async () => {
    const page = await read(draft);
    const form = {
      type: 'terms',
      titleEn: page.titleEn,
      titleTh: page.titleTh,
      detailEn: page.detailEn,
      detailTh: page.detailTh,
    };
    expect((await patch(draft, form)).status).toBe(200);
    expect((await read(draft)).publishedAt).toBe(page.publishedAt);
    expect(await termAccept(staff)).toBe(true);

    expect((await patch(draft, { ...form, detailEn: '<p>A changed clause</p>' })).status).toBe(200);
    expect((await read(draft)).publishedAt).not.toBe(page.publishedAt);
    expect(await termAccept(staff)).toBe(false);
    expect((await accept(staff)).terms).toBe(draft);
  });

  it('editing an active page that is not in force does not publish it', async () => {
    const v1 = await read(termsV1);
    expect((await patch(termsV1, legal('terms', { titleEn: 'Terms v1, fixed typo' }))).status).toBe(200);
    expect((await read(termsV1)).publishedAt).toBe(v1.publishedAt);
    expect((await t.call('GET', '/api/terms')).body.terms.id).toBe(draft);
    expect(await termAccept(staff)).toBe(true);
  });

  it('the page in force goes off only while another of its type is active', async () => {
    // v1, v2 and the draft (in force) are active: switch off the one in force, then the next, …
    expect((await patch(draft, { active: false })).status).toBe(200);
    expect((await t.call('GET', '/api/terms')).body.terms.id).toBe(termsV2);
    expect((await patch(termsV2, { active: false })).status).toBe(200);
    expect((await t.call('GET', '/api/terms')).body.terms.id).toBe(termsV1);
    // … until the last one.
    for (const body of [{ active: false }, legal('terms', { active: false })]) {
      const response = await patch(termsV1, body);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ message: PAGE_MESSAGES.lastPublished });
    }
    expect((await read(termsV1)).active).toBe(true);
    // Switching off a page that is not in force is always fine (it is a Draft already here).
    expect((await patch(termsV2, { active: false })).status).toBe(200);
  });

  it('deletes only inactive pages nobody accepted', async () => {
    // Active.
    const active = await t.call('DELETE', `/api/page/${termsV1}`, { token: admin });
    expect(active.status).toBe(409);
    expect(active.body).toEqual({ message: PAGE_MESSAGES.activeDelete });
    // Inactive, but the staff user accepted it: a legal record.
    const used = await t.call('DELETE', `/api/page/${termsV2}`, { token: admin });
    expect(used.status).toBe(409);
    expect(used.body).toEqual({ message: "Can't delete already used item" });
    expect((await read(termsV2)).id).toBe(termsV2);
    // Inactive and never accepted.
    const unused = await create(legal('terms'));
    const deleted = await t.call('DELETE', `/api/page/${unused}`, { token: admin });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Success' });
    expect((await t.call('GET', `/api/page/${unused}`, { token: admin })).status).toBe(404);
  });

  it('deletes an inactive tutorial, not an active one', async () => {
    const on = await create(guide());
    expect((await t.call('DELETE', `/api/page/${on}`, { token: admin })).status).toBe(409);
    expect((await patch(on, { active: false })).status).toBe(200);
    expect((await t.call('DELETE', `/api/page/${on}`, { token: marketing })).status).toBe(200);
  });
});

describe('roles', () => {
  it.each(ADMIN_ROLES)(
    '%s: admin and marketting read and write pages, every other role gets 403',
    async (role) => {
      const { token } = await signedInUser(t, { role });
      const allowed = role === 'admin' || role === 'marketting';
      const id = await create(guide({ active: false }));
      // In sequence: the delete comes last.
      const calls: Array<[string, string, unknown?]> = [
        ['GET', '/api/page?type=guide'],
        ['GET', '/api/page?type=terms&mode=dropdown'],
        ['GET', `/api/page/${id}`],
        ['POST', '/api/page', guide()],
        ['PATCH', `/api/page/${id}`, { weight: 0 }],
        ['PATCH', `/api/page/${id}`, guide()],
        ['DELETE', `/api/page/${id}`],
      ];
      for (const [method, path, body] of calls) {
        const response = await t.call(method, path, { token, body });
        if (allowed) expect(response.status, `${method} ${path}`).toBeLessThan(300);
        else {
          expect(response.status, `${method} ${path}`).toBe(403);
          expect(response.body).toEqual({ message: expect.any(String) });
        }
      }
      expect((await t.call('GET', '/api/page?type=guide')).status).toBe(401);
    },
  );
});
