import { ID_TAG_MESSAGES } from '@ev/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { bookings, idTags, users } from '../../src/db/schema/index.ts';
import { memberTag } from '../../src/modules/member/member.service.ts';
import { createMember } from '../helpers/bookings.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually, rpcClient } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 32 §4, id tags: an unknown tag is Invalid by default (accepted with OCPP_UNKNOWN_TAGS=accept); a
 * member's RFID cards, registered through the API, start as the app tag does, Blocked when blocked, Expired past
 * their expiry, compared without regard to case.
 */
let t: TestApp;
let admin: string;
let callcenter: string;
let place: Awaited<ReturnType<typeof chargerPlace>>;
let stationCount = 0;

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '2000' });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  callcenter = (await signedInUser(t, { role: 'callcenter' })).token;
  place = await chargerPlace(t);
});
afterAll(() => t.close());

/** A member with their app tag. */
async function member() {
  const user = await createMember(t);
  return { user, appTag: await memberTag(t.database.db, user.id) };
}

const tagsPath = (userId: number) => `/api/user/${userId}/id-tag`;
const tagPath = (userId: number, idTag: string) => `${tagsPath(userId)}/${encodeURIComponent(idTag)}`;
const addCard = (userId: number, body: unknown, token = admin) =>
  t.call('POST', tagsPath(userId), { token, body });

/** A bare charger of `app`'s that records the remote stops it is asked for. */
async function station(app: TestApp, token: string, where: Awaited<ReturnType<typeof chargerPlace>>) {
  const id = `TAGS-${++stationCount}`;
  await createChargers(app, token, where, [id], { connectors: 2 });
  const client = rpcClient(app, id);
  const stops: Array<{ transactionId: number }> = [];
  client.handle('RemoteStopTransaction', async ({ params }: { params?: unknown }) => {
    stops.push(params as { transactionId: number });
    return { status: 'Accepted' };
  });
  await client.connect();
  await client.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'Tags' });
  let meter = 0;
  const reading = () => {
    meter += 1000;
    return meter;
  };
  return {
    stops,
    authorize: async (idTag: string) =>
      ((await client.call('Authorize', { idTag })) as { idTagInfo: Record<string, string> }).idTagInfo,
    start: async (idTag: string, connectorId = 1) =>
      (await client.call('StartTransaction', {
        connectorId,
        idTag,
        meterStart: reading(),
        timestamp: new Date().toISOString(),
      })) as { transactionId: number; idTagInfo: Record<string, string> },
    stop: (transactionId: number) =>
      client.call('StopTransaction', {
        transactionId,
        meterStop: reading(),
        timestamp: new Date().toISOString(),
      }),
    close: () => client.close({ code: 1000, force: true }),
  };
}

const bookingOf = async (transactionId: number) =>
  (await t.database.db.select().from(bookings).where(eq(bookings.sessionId, transactionId)))[0];

describe('OCPP_UNKNOWN_TAGS', () => {
  it("is 'invalid' unless set to 'accept'; any other value refuses to start, naming the variable", () => {
    expect(loadConfig({}).ocpp.unknownTags).toBe('invalid');
    expect(loadConfig({ OCPP_UNKNOWN_TAGS: 'accept' }).ocpp.unknownTags).toBe('accept');
    expect(() => loadConfig({ OCPP_UNKNOWN_TAGS: 'yes' })).toThrow(
      /OCPP_UNKNOWN_TAGS: 'invalid' \(the default: an unknown id tag may not charge\) or 'accept'/,
    );
  });

  it('answers an unknown tag Invalid at Authorize and StartTransaction, records the refused session and asks for its stop', async () => {
    const s = await station(t, admin, place);
    expect(await s.authorize('NOBODY-CARD')).toEqual({ status: 'Invalid' });
    const refused = await s.start('NOBODY-CARD');
    expect(refused.idTagInfo).toEqual({ status: 'Invalid' });
    expect(refused.transactionId).toBeGreaterThan(0);
    await eventually(async () => s.stops.length === 1);
    expect(s.stops).toEqual([{ transactionId: refused.transactionId }]);
    expect(await bookingOf(refused.transactionId)).toBeUndefined();
    await s.stop(refused.transactionId);
    await s.close();
  });

  it('accepts an unknown tag with OCPP_UNKNOWN_TAGS=accept: the session is recorded, with no booking', async () => {
    const open = await startTestApp({ OCPP_UNKNOWN_TAGS: 'accept', OCPP_COMMAND_TIMEOUT_MS: '2000' });
    try {
      const token = (await signedInUser(open, { role: 'admin' })).token;
      const s = await station(open, token, await chargerPlace(open));
      expect(await s.authorize('NOBODY-CARD')).toEqual({ status: 'Accepted' });
      const started = await s.start('NOBODY-CARD');
      expect(started.idTagInfo).toEqual({ status: 'Accepted' });
      const rows = await open.database.db.select().from(bookings);
      expect(rows).toEqual([]);
      await s.stop(started.transactionId);
      expect(s.stops).toEqual([]);
      await s.close();
    } finally {
      await open.close();
    }
  });
});

describe("a member's RFID cards through the API", () => {
  it('lists the app tag, adds cards (stored as typed), changes and removes them', async () => {
    const { user, appTag } = await member();
    const listed = await t.call('GET', tagsPath(user.id), { token: callcenter });
    expect(listed.status).toBe(200);
    expect(listed.body.idTags).toEqual([
      expect.objectContaining({
        idTag: appTag,
        kind: 'app',
        expiresAt: null,
        blocked: false,
        state: 'Accepted',
      }),
    ]);

    const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const added = await addCard(user.id, { idTag: 'rfid-04a1b2', expiresAt: expiry }, callcenter);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toEqual({
      message: 'Success',
      idTag: {
        idTag: 'rfid-04a1b2',
        kind: 'rfid',
        expiresAt: expiry,
        blocked: false,
        state: 'Accepted',
        createdAt: expect.any(String),
      },
    });
    // Any printable ASCII up to 20 characters, with a slash in it (the path takes it encoded).
    expect((await addCard(user.id, { idTag: 'A/B C#%?~x', blocked: true })).body.idTag).toMatchObject({
      idTag: 'A/B C#%?~x',
      state: 'Blocked',
    });

    // The path names a card in any case.
    const blocked = await t.call('PATCH', tagPath(user.id, 'RFID-04A1B2'), {
      token: callcenter,
      body: { blocked: true },
    });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
    expect(blocked.body.idTag).toMatchObject({ idTag: 'rfid-04a1b2', blocked: true, state: 'Blocked' });
    const cleared = await t.call('PATCH', tagPath(user.id, 'rfid-04a1b2'), {
      token: admin,
      body: { blocked: false, expiresAt: null },
    });
    expect(cleared.body.idTag).toMatchObject({ blocked: false, expiresAt: null, state: 'Accepted' });
    const unblocked = await t.call('PATCH', tagPath(user.id, 'A/B C#%?~x'), {
      token: admin,
      body: { blocked: false },
    });
    expect(unblocked.status, JSON.stringify(unblocked.body)).toBe(200);

    expect(
      (await t.call('GET', tagsPath(user.id), { token: admin })).body.idTags.map(
        (tag: { idTag: string; kind: string }) => `${tag.kind}:${tag.idTag}`,
      ),
    ).toEqual([`app:${appTag}`, 'rfid:rfid-04a1b2', 'rfid:A/B C#%?~x']);

    const removed = await t.call('DELETE', tagPath(user.id, 'a/b c#%?~X'), { token: callcenter });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await t.call('DELETE', tagPath(user.id, 'A/B C#%?~x'), { token: admin })).status).toBe(404);
    expect((await t.call('GET', tagsPath(user.id), { token: admin })).body.idTags).toHaveLength(2);
  });

  it('refuses bad input with 400 naming the field, and never changes what was typed', async () => {
    const { user } = await member();
    const cases: Array<[unknown, RegExp]> = [
      [{}, /^body\.idTag: /],
      [{ idTag: '' }, /^body\.idTag: Id tag is required/],
      [{ idTag: 'X'.repeat(21) }, /^body\.idTag: Id tag is required: 1 to 20 characters/],
      [{ idTag: ' LEADING' }, /^body\.idTag: Id tag takes printable ASCII only/],
      [{ idTag: 'TRAILING ' }, /^body\.idTag: Id tag takes printable ASCII only/],
      [{ idTag: 'บัตร' }, /^body\.idTag: Id tag takes printable ASCII only/],
      [{ idTag: 'TAB\tTAG' }, /^body\.idTag: Id tag takes printable ASCII only/],
      [{ idTag: 42 }, /^body\.idTag: /],
      [{ idTag: 'OK-1', expiresAt: 'tomorrow' }, /^body\.expiresAt: Expiry must be a date and time/],
      [
        { idTag: 'OK-1', expiresAt: '2020-01-01T00:00:00Z' },
        /^body\.expiresAt: Expiry must be in the future/,
      ],
      [{ idTag: 'OK-1', blocked: 'yes' }, /^body\.blocked: Blocked must be true or false/],
      [{ idTag: 'OK-1', kind: 'app' }, /^body: .*kind/],
    ];
    for (const [body, message] of cases) {
      const response = await addCard(user.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message, JSON.stringify(body)).toMatch(message);
    }
    await addCard(user.id, { idTag: 'OK-1' });
    const empty = await t.call('PATCH', tagPath(user.id, 'OK-1'), { token: admin, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe(`body: ${ID_TAG_MESSAGES.change}`);
    const past = await t.call('PATCH', tagPath(user.id, 'OK-1'), {
      token: admin,
      body: { expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(past.body.message).toBe(`body.expiresAt: ${ID_TAG_MESSAGES.expiresAtPast}`);
    expect((await t.call('GET', tagsPath(user.id), { token: admin })).body.idTags).toHaveLength(1 + 1);
  });

  it('keeps every tag unique without regard to case (409), at most 10 cards a member, the app tag read-only', async () => {
    const first = await member();
    const second = await member();
    expect((await addCard(first.user.id, { idTag: 'SAME-CARD' })).status).toBe(200);
    for (const idTag of ['SAME-CARD', 'same-card', first.appTag.toLowerCase()]) {
      const taken = await addCard(second.user.id, { idTag });
      expect(taken.status, idTag).toBe(409);
      expect(taken.body.message).toBe(ID_TAG_MESSAGES.taken);
    }
    // Another member's card is not this member's to change: 404.
    expect(
      (await t.call('PATCH', tagPath(second.user.id, 'SAME-CARD'), { token: admin, body: { blocked: true } }))
        .status,
    ).toBe(404);

    for (let i = 2; i <= 10; i++)
      expect((await addCard(first.user.id, { idTag: `CARD-${i}` })).status).toBe(200);
    const eleventh = await addCard(first.user.id, { idTag: 'CARD-11' });
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.message).toBe(ID_TAG_MESSAGES.tooMany);

    for (const call of [
      t.call('PATCH', tagPath(first.user.id, first.appTag), { token: admin, body: { blocked: true } }),
      t.call('DELETE', tagPath(first.user.id, first.appTag), { token: admin }),
    ]) {
      const refused = await call;
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(ID_TAG_MESSAGES.appTag);
    }
  });

  it('is for the Member Mobile User roles (403 otherwise) and for members only (404)', async () => {
    const { user } = await member();
    for (const role of ['marketting', 'merchant', 'landlord', 'station'] as const) {
      const token = (await signedInUser(t, { role })).token;
      expect((await t.call('GET', tagsPath(user.id), { token })).status, role).toBe(403);
      expect((await addCard(user.id, { idTag: `R-${role}` }, token)).status, role).toBe(403);
    }
    expect((await t.call('GET', tagsPath(user.id))).status).toBe(401);
    const staffUser = (await signedInUser(t, { role: 'admin' })).user;
    const notMember = await t.call('GET', tagsPath(staffUser.id), { token: admin });
    expect(notMember.status).toBe(404);
    expect(notMember.body.message).toBe('User not found');
    expect((await addCard(2_147_483_648, { idTag: 'X-1' })).status).toBe(404);
    expect((await t.call('DELETE', tagPath(999_999, 'X-1'), { token: admin })).status).toBe(404);
  });
});

describe('RFID cards at the charger', () => {
  it('start as the app tag does, with their expiry and the member’s app tag as parent, in any case', async () => {
    const { user, appTag } = await member();
    const expiry = new Date(Date.now() + 86_400_000).toISOString();
    await addCard(user.id, { idTag: 'Card-Start-1', expiresAt: expiry });
    const s = await station(t, admin, place);
    const info = { status: 'Accepted', expiryDate: expiry, parentIdTag: appTag };
    expect(await s.authorize('Card-Start-1')).toEqual(info);
    expect(await s.authorize('CARD-START-1')).toEqual(info);
    const started = await s.start('card-start-1');
    expect(started.idTagInfo).toEqual(info);
    const walkIn = await bookingOf(started.transactionId);
    expect(walkIn).toMatchObject({ userId: user.id, status: 'charging', idTag: 'card-start-1' });
    // The member charges now: the app tag is refused a second session elsewhere.
    expect((await s.start(appTag, 2)).idTagInfo.status).toBe('ConcurrentTx');
    await s.close();
  });

  it('answers a blocked card Blocked, one past its expiry Expired, a removed one Invalid, a locked member’s Blocked', async () => {
    const { user } = await member();
    await addCard(user.id, { idTag: 'CARD-BLOCKED', blocked: true });
    await addCard(user.id, { idTag: 'CARD-OLD', expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await addCard(user.id, { idTag: 'CARD-GONE' });
    // A card whose last day has passed (the API takes only future expiries: it was set then).
    const past = new Date(Date.now() - 60_000);
    await t.database.db.update(idTags).set({ expiresAt: past }).where(eq(idTags.idTag, 'CARD-OLD'));
    await t.call('DELETE', tagPath(user.id, 'CARD-GONE'), { token: admin });
    const s = await station(t, admin, place);

    expect((await s.authorize('CARD-BLOCKED')).status).toBe('Blocked');
    expect(await s.authorize('card-old')).toMatchObject({
      status: 'Expired',
      expiryDate: past.toISOString(),
    });
    expect(await s.authorize('CARD-GONE')).toEqual({ status: 'Invalid' });
    const blocked = await s.start('CARD-BLOCKED');
    expect(blocked.idTagInfo.status).toBe('Blocked');
    const expired = await s.start('CARD-OLD', 2);
    expect(expired.idTagInfo.status).toBe('Expired');
    await eventually(async () => s.stops.length === 2);
    expect(s.stops.map((stop) => stop.transactionId).sort()).toEqual(
      [blocked.transactionId, expired.transactionId].sort(),
    );
    expect(await bookingOf(blocked.transactionId)).toBeUndefined();
    expect(await bookingOf(expired.transactionId)).toBeUndefined();

    // Unblocked, the card starts; the member locked, every tag of theirs is Blocked.
    await t.call('PATCH', tagPath(user.id, 'CARD-BLOCKED'), { token: admin, body: { blocked: false } });
    expect((await s.authorize('CARD-BLOCKED')).status).toBe('Accepted');
    await t.database.db.update(users).set({ active: false }).where(eq(users.id, user.id));
    expect((await s.authorize('CARD-BLOCKED')).status).toBe('Blocked');
    await s.close();
  });
});
