import { ADMIN_ROLES, type AdminRole, can, PERMISSIONS, type Permission } from '@ev/shared';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAuth } from '../../src/plugins/auth.ts';
import { signedInUser } from '../helpers/factories.ts';
import { collectRoutes, type RouteInfo } from '../helpers/routes.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let routes: RouteInfo[];
beforeAll(async () => {
  ({ result: t, routes } = await collectRoutes(() => startTestApp()));
});
afterAll(() => t.close());

const isApi = (route: RouteInfo) => route.url.startsWith('/api/') && !route.url.startsWith('/api/docs');
/** The API routes to call: HEAD answers as its GET does. Logout last, since it ends the session. */
const apiRoutes = () =>
  routes
    .filter((route) => isApi(route) && route.method !== 'HEAD')
    .sort((a, b) => Number(a.url === '/api/auth/logout') - Number(b.url === '/api/auth/logout'));
const protectedRoutes = () => apiRoutes().filter((route) => !route.public);
/** Staff routes: a permission from the table (member routes take a member's token instead). */
const staffRoutes = () => protectedRoutes().filter((route) => !route.member);
/** A concrete path: any `:param` becomes 1 (a record that may not exist; only 401/403 matter here). */
const pathOf = (route: RouteInfo) => route.url.replace(/:[^/]+/g, '1');
const label = (route: RouteInfo) => `${route.method} ${route.url}`;

describe('route declarations', () => {
  it('every /api route declares a permission from the table, member, or public', () => {
    const api = routes.filter(isApi);
    expect(api.length).toBeGreaterThan(0);
    for (const route of api) {
      const declared = [route.public, route.permission, route.member].filter(Boolean);
      expect(declared.length, label(route)).toBe(1);
      if (route.permission) expect(Object.keys(PERMISSIONS), label(route)).toContain(route.permission);
    }
  });

  it('lists the routes of this issue with their permissions', () => {
    const declared = Object.fromEntries(
      apiRoutes().map((route) => [
        label(route),
        route.public ? 'public' : route.member ? 'member' : route.permission,
      ]),
    );
    expect(declared).toMatchObject({
      'POST /api/auth/login': 'public',
      'POST /api/auth/forgot-password': 'public',
      'POST /api/auth/reset-password': 'public',
      'POST /api/auth/logout': 'self.read',
      'GET /api/user/self': 'self.read',
      'PATCH /api/user/self': 'self.update',
      'POST /api/user/self/term-accept': 'terms.accept',
      'GET /api/terms': 'public',
      'GET /api/privacy': 'public',
      'GET /api/health': 'public',
      'GET /api/ready': 'public',
      'GET /api/province': 'province.read',
      'GET /api/pea': 'pea.read',
      'GET /api/merchant': 'merchant.read',
      'GET /api/merchant/:id': 'merchant.read',
      'POST /api/merchant': 'merchant.write',
      'PATCH /api/merchant/:id': 'merchant.write',
      'DELETE /api/merchant/:id': 'merchant.write',
      'GET /api/landlord': 'landlord.read',
      'GET /api/landlord/:id': 'landlord.read',
      'POST /api/landlord': 'landlord.create',
      'PATCH /api/landlord/:id': 'landlord.update',
      'DELETE /api/landlord/:id': 'landlord.delete',
      // issue 34: a site's live load, as its detail
      'GET /api/landlord/:id/power': 'landlord.read',
      'GET /api/party': 'party.read',
      'GET /api/party/:id': 'party.read',
      'POST /api/party': 'party.write',
      'PATCH /api/party/:id': 'party.write',
      'DELETE /api/party/:id': 'party.write',
      'GET /api/charger-brand': 'charger-brand.read',
      'GET /api/charger-brand/:id': 'charger-brand.read',
      'POST /api/charger-brand': 'charger-brand.write',
      'PATCH /api/charger-brand/:id': 'charger-brand.write',
      'DELETE /api/charger-brand/:id': 'charger-brand.write',
      'GET /api/charger': 'charger.read',
      'GET /api/charger/:id': 'charger.read',
      'POST /api/charger': 'charger.write',
      'PATCH /api/charger/:id': 'charger.write',
      'DELETE /api/charger/:id': 'charger.write',
      'GET /api/connector-type': 'connector-type.read',
      'GET /api/contact-us': 'contact-us.read',
      'PATCH /api/contact-us': 'contact-us.write',
      // One path for both user screens: each call then needs user.admin.* for admin users (user.test.ts).
      'GET /api/user': 'user.mobile.read',
      'POST /api/user': 'user.mobile.write',
      'PATCH /api/user/:id': 'user.mobile.write',
      'DELETE /api/user/:id': 'user.mobile.write',
      // issue 12
      'GET /api/booking': 'booking.read',
      'GET /api/booking/:id': 'booking.read',
      'POST /api/booking/:id/stop': 'booking.stop',
      'POST /api/booking/:id/force-stop': 'booking.force-stop',
      'POST /api/booking/:id/avaliable': 'booking.payment',
      'POST /api/booking/:id/cancel-payment': 'booking.payment',
      'POST /api/booking/:id/pay': 'booking.payment',
      'PATCH /api/booking/:id': 'booking.payment',
      'DELETE /api/booking/:id': 'booking.delete',
      'GET /api/payment': 'payment.read',
      'POST /api/payment/:id/refund': 'payment.refund',
      'GET /api/promotion': 'promotion.read',
      'GET /api/promotion/:id': 'promotion.read',
      'POST /api/promotion': 'promotion.write',
      'PATCH /api/promotion/:id': 'promotion.write',
      'DELETE /api/promotion/:id': 'promotion.write',
      'GET /api/promotion/:id/code': 'promotion.codes',
      'GET /api/user-promotion': 'user-promotion.read',
      'GET /api/report/user-promotion': 'report.user-promotion',
      'GET /api/point': 'point.read',
      'POST /api/point': 'point.write',
      'PATCH /api/point/:id': 'point.write',
      'DELETE /api/point/:id': 'point.write',
      'GET /api/report/booking': 'report.booking',
      // issue 35
      'GET /api/statistics': 'statistics.read',
      'GET /api/statistics/export': 'statistics.read',
      'GET /api/dashboard': 'dashboard.read',
      'POST /api/member/login': 'public',
      'GET /api/member/booking': 'member',
      'GET /api/member/booking/:id': 'member',
      'POST /api/member/booking': 'member',
      'POST /api/member/booking/:id/check-in': 'member',
      'POST /api/member/booking/:id/start': 'member',
      'POST /api/member/booking/:id/stop': 'member',
      'POST /api/member/booking/:id/cancel': 'member',
      'POST /api/member/booking/:id/pay': 'member',
      'POST /api/member/promotion/redeem': 'member',
      'GET /api/member/promotion': 'member',
      // issue 13
      'GET /api/page': 'page.read',
      'GET /api/page/:id': 'page.read',
      'POST /api/page': 'page.write',
      'PATCH /api/page/:id': 'page.write',
      'DELETE /api/page/:id': 'page.write',
      'POST /api/upload': 'page.write',
      'GET /api/member/guide': 'member',
      // issue 20
      'POST /api/member/forgot-password': 'public',
      'POST /api/member/reset-password': 'public',
      // issue 36 §2
      'GET /api/alert-settings': 'alert.settings',
      'PATCH /api/alert-settings/:condition': 'alert.settings',
      'GET /api/alert-subscriptions': 'alert.read',
      'PUT /api/alert-subscriptions': 'alert.read',
      'GET /api/alerts': 'alert.read',
      'POST /api/alerts/read': 'alert.read',
      'GET /api/alerts/stream': 'alert.read',
    });
  });

  it('refuses, at registration, an /api route that declares neither', async () => {
    const app = Fastify();
    registerAuth(app, t.database.db);
    expect(() => app.get('/api/undeclared', async () => 'x')).toThrow(/must declare/);
    expect(() => app.get('/api/declared', { config: { public: true } }, async () => 'x')).not.toThrow();
    expect(() => app.get('/outside-api', async () => 'x')).not.toThrow();
    await app.close();
  });
});

describe('signed out', () => {
  it('answers 401 on every protected route, without a token or with a garbage one', async () => {
    expect(protectedRoutes().length).toBeGreaterThan(0);
    for (const route of protectedRoutes()) {
      for (const token of [undefined, 'garbage-token', 'x'.repeat(500)]) {
        const response = await t.call(route.method, pathOf(route), { token });
        expect(response.status, `${label(route)} token=${token?.slice(0, 10)}`).toBe(401);
        expect(response.body).toEqual({ message: expect.any(String) });
      }
    }
  });

  it('lets anyone through on the public routes', async () => {
    for (const route of apiRoutes().filter((r) => r.public)) {
      const response = await t.call(route.method, pathOf(route));
      expect([401, 403], label(route)).not.toContain(response.status);
    }
  });
});

describe('by role, as the permission table says', () => {
  const tokens = new Map<AdminRole, string>();
  beforeAll(async () => {
    for (const role of ADMIN_ROLES) tokens.set(role, (await signedInUser(t, { role })).token);
  });

  it.each(ADMIN_ROLES)('%s gets 403 exactly where the table refuses it', async (role) => {
    const refused: string[] = [];
    for (const route of staffRoutes()) {
      const response = await t.call(route.method, pathOf(route), {
        token: tokens.get(role),
        peekStreams: true,
      });
      const allowed = can(role, route.permission as Permission);
      if (allowed) {
        expect([401, 403], `${role} ${label(route)}`).not.toContain(response.status);
      } else {
        expect(response.status, `${role} ${label(route)}`).toBe(403);
        expect(response.body).toEqual({ message: expect.any(String) });
        refused.push(label(route));
      }
    }
    // The oracle is the table; this line only shows the check has teeth for this routes.
    expect(refused.includes('GET /api/pea')).toBe(role !== 'admin');
  });

  it.each(ADMIN_ROLES)(
    '%s may open every dropdown (mode=dropdown needs only the dropdown permission)',
    async (role) => {
      // A fresh session: the loop above ends each role's session with the logout route.
      const { token } = await signedInUser(t, { role });
      for (const [path, permission] of [
        ['/api/merchant', 'merchant.dropdown'],
        ['/api/landlord', 'landlord.dropdown'],
        ['/api/party', 'party.dropdown'],
        ['/api/charger-brand', 'charger-brand.dropdown'],
      ] as const) {
        expect(can(role, permission)).toBe(true);
        const response = await t.call('GET', `${path}?mode=dropdown`, { token });
        expect(response.status, `${role} ${path}`).toBe(200);
      }
    },
  );

  it('gives 403 everywhere to a role outside the table', async () => {
    const { user, token } = await signedInUser(t);
    await t.database.db.execute(sql`update users set admin_role = 'superuser' where id = ${user.id}`);
    for (const route of staffRoutes()) {
      const response = await t.call(route.method, pathOf(route), { token });
      expect(response.status, label(route)).toBe(403);
    }
  });
});

describe('member routes', () => {
  it("take a member's token: a staff token is 401 there, a member's is not refused", async () => {
    const members = protectedRoutes().filter((route) => route.member);
    expect(members.length).toBeGreaterThan(0);
    const { token: staff } = await signedInUser(t, { role: 'admin' });
    const { token: member } = await signedInUser(t, { type: 'mobile' });
    for (const route of members) {
      expect((await t.call(route.method, pathOf(route), { token: staff })).status, label(route)).toBe(401);
      const response = await t.call(route.method, pathOf(route), { token: member });
      expect([401, 403], label(route)).not.toContain(response.status);
    }
  });

  it('a member token opens no staff route', async () => {
    const { token: member } = await signedInUser(t, { type: 'mobile' });
    for (const route of staffRoutes()) {
      expect((await t.call(route.method, pathOf(route), { token: member })).status, label(route)).toBe(401);
    }
  });
});
