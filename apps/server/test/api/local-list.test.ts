import type { SimulatedCharger, SimulatorEvent } from '@ev/tools/simulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idTags, users } from '../../src/db/schema/index.ts';
import { memberTag } from '../../src/modules/member/member.service.ts';
import { createBooking, createMember } from '../helpers/bookings.ts';
import {
  createChargerBrand,
  createLandlord,
  createMerchant,
  createPrice,
  signedInUser,
} from '../helpers/factories.ts';
import { chargerPlace, createChargers, readEvents, simulate } from '../helpers/ocpp.ts';
import { createPromotion, memberWithSession, privateStation, redeem } from '../helpers/promotions.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 32 §4, the local authorization list: SendLocalList (Full, then Differential parts) of the members' id
 * tags valid at a charger, its version read back (GetLocalListVersion), against simulated chargers, with each
 * answer a charger can give; the private station's own list; Send Local List All as a batch.
 */
const TOKEN = 'local-list-batch-token';
let t: TestApp;
let admin: string;
let callcenter: string;
let place: Awaited<ReturnType<typeof chargerPlace>>;
let simulation: Awaited<ReturnType<typeof simulate>>;
const seen: SimulatorEvent[] = [];
const behaviours = new Map<string, 'silent' | 'reject' | 'not-supported'>();
const chargerOf = (id: string) => simulation.chargers.find((c) => c.spec.id === id) as SimulatedCharger;
const sent = (id: string) =>
  seen
    .filter((e) => e.type === 'command' && e.id === id && e.action === 'SendLocalList')
    .map(
      (e) =>
        (e as { params: { listVersion: number; updateType: string; localAuthorizationList?: unknown[] } })
          .params,
    );

const send = (id: string, token = admin) =>
  t.call('POST', `/api/charger/${encodeURIComponent(id)}/local-list`, { token, body: {} });
const version = (id: string, token = admin) =>
  t.call('GET', `/api/charger/${encodeURIComponent(id)}/local-list`, { token });

/** The members of this file's network and what each of their tags should say at a charger. */
const expected: Record<string, { status: string; expiryDate?: string; parentIdTag?: string }> = {};
let resident: { appTag: string };

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '1000', BATCH_COMMAND_TOKEN: TOKEN });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  callcenter = (await signedInUser(t, { role: 'callcenter' })).token;
  place = await chargerPlace(t);
  const [first] = await createChargers(t, admin, place, ['LL-01', 'LL-02', 'LL-OFF'], { connectors: 1 });

  // Alice: her app tag, a card with an expiry, a lost card (blocked).
  const alice = await createMember(t, 'Alice');
  const aliceApp = await memberTag(t.database.db, alice.id);
  const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString();
  await t.call('POST', `/api/user/${alice.id}/id-tag`, {
    token: admin,
    body: { idTag: 'alice-card', expiresAt: expiry },
  });
  await t.call('POST', `/api/user/${alice.id}/id-tag`, {
    token: admin,
    body: { idTag: 'ALICE-LOST', blocked: true },
  });
  expected[aliceApp] = { status: 'Accepted' };
  expected['alice-card'] = { status: 'Accepted', expiryDate: expiry, parentIdTag: aliceApp };
  expected['ALICE-LOST'] = { status: 'Blocked' };
  // Bob is locked: every tag of his is Blocked.
  const bob = await createMember(t, 'Bob');
  await t.database.db.update(users).set({ active: false }).where(eq(users.id, bob.id));
  expected[await memberTag(t.database.db, bob.id)] = { status: 'Blocked' };
  // Carol owes (an Unpaid booking): left out, asked of us online.
  const carol = await createMember(t, 'Carol');
  await memberTag(t.database.db, carol.id);
  await createBooking(t, first!.connectorIds[0]!, 'stopped', { userId: carol.id });
  // Dave's card is past its last day: Expired.
  const dave = await createMember(t, 'Dave');
  expected[await memberTag(t.database.db, dave.id)] = { status: 'Accepted' };
  await t.call('POST', `/api/user/${dave.id}/id-tag`, {
    token: admin,
    body: { idTag: 'DAVE-OLD', expiresAt: new Date(Date.now() + 60_000).toISOString() },
  });
  const past = new Date(Date.now() - 60_000);
  await t.database.db.update(idTags).set({ expiresAt: past }).where(eq(idTags.idTag, 'DAVE-OLD'));
  expected['DAVE-OLD'] = { status: 'Expired', expiryDate: past.toISOString() };

  // A private station whose one member is the resident (a member elsewhere too).
  const condo = await createMerchant(t, { nameEn: 'Condo (private)', internal: true });
  const condoSite = await createLandlord(t, condo.id, { nameEn: 'Condo Tower B' });
  await createChargers(
    t,
    admin,
    {
      merchant: condo,
      site: condoSite,
      brand: await createChargerBrand(t, { powerType: 'AC' }),
      price: await createPrice(t),
    } as typeof place,
    ['LL-PRIVATE'],
    { connectors: 1 },
  );
  const promotion = await createPromotion(t, admin, { ...privateStation([condoSite.id]), code: 'CONDOB' });
  const member = await memberWithSession(t, 'Resident');
  await redeem(t, member.token, { code: promotion.code, licensePlate: '1กข 1234' });
  resident = { appTag: await memberTag(t.database.db, member.user.id) };
  expected[resident.appTag] = { status: 'Accepted' };

  simulation = await simulate(
    t,
    ['LL-01', 'LL-02', 'LL-PRIVATE'].map((id) => ({ id, connectors: 1 })),
    { onEvent: (event) => seen.push(event), behaviour: (id) => behaviours.get(id) ?? 'normal' },
  );
});
afterAll(async () => {
  await simulation?.stop();
  await t.close();
});

/** What the simulated charger holds now, as `expected` has it. */
const held = (id: string) =>
  Object.fromEntries([...chargerOf(id).localList.values()].map((entry) => [entry.idTag, entry.idTagInfo]));

describe('the local list of one charger', () => {
  it('is offline at once (409) for a charger not connected, and 404 for one that does not exist', async () => {
    const offline = await send('LL-OFF');
    expect(offline.status).toBe(409);
    expect(offline.body.message).toBe('Charger LL-OFF is offline.');
    expect((await version('LL-OFF')).status).toBe(409);
    const missing = await send('NO-SUCH');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Charger not found');
  });

  it("sends every member's valid tags (Full, version 1): cards with expiry and parent, blocked and expired as such, owing members left out", async () => {
    const response = await send('LL-01', callcenter);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({
      status: 'Accepted',
      listVersion: 1,
      tags: Object.keys(expected).length,
      messages: 1,
    });
    expect(sent('LL-01').map((p) => [p.updateType, p.listVersion])).toEqual([['Full', 1]]);
    expect(held('LL-01')).toEqual(expected);
    expect(chargerOf('LL-01').localListVersion).toBe(1);

    const read = await version('LL-01', callcenter);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      status: 'Accepted',
      listVersion: 1,
      sentVersion: 1,
      sentAt: expect.any(String),
    });
    expect((await send('LL-01')).body.listVersion).toBe(2);
    expect((await version('LL-01')).body).toMatchObject({ listVersion: 2, sentVersion: 2 });
  });

  it("sends a private station's members only", async () => {
    const response = await send('LL-PRIVATE');
    expect(response.body).toMatchObject({ status: 'Accepted', tags: 1 });
    expect(held('LL-PRIVATE')).toEqual({ [resident.appTag]: { status: 'Accepted' } });
  });

  it('splits a list longer than SendLocalListMaxLength: Full with the first part, then Differential parts', async () => {
    const charger = chargerOf('LL-02');
    charger.sendLocalListMaxLength = 3;
    const count = Object.keys(expected).length;
    const messages = Math.ceil(count / 3);
    const response = await send('LL-02');
    expect(response.body).toEqual({ status: 'Accepted', listVersion: messages, tags: count, messages });
    expect(sent('LL-02').map((p) => [p.updateType, p.listVersion, p.localAuthorizationList?.length])).toEqual(
      Array.from({ length: messages }, (_, i) => [
        i === 0 ? 'Full' : 'Differential',
        i + 1,
        Math.min(3, count - 3 * i),
      ]),
    );
    expect(held('LL-02')).toEqual(expected);
    expect((await version('LL-02')).body).toMatchObject({ listVersion: messages, sentVersion: messages });
  });

  it('sends nothing when the tags are more than LocalAuthListMaxLength (409), and keeps the version', async () => {
    const charger = chargerOf('LL-02');
    charger.localAuthListMaxLength = 2;
    const before = sent('LL-02').length;
    const response = await send('LL-02');
    expect(response.status).toBe(409);
    expect(response.body.message).toBe(
      `Charger LL-02 holds at most 2 id tags (LocalAuthListMaxLength); ${Object.keys(expected).length} are valid there: nothing was sent.`,
    );
    expect(sent('LL-02')).toHaveLength(before);
    charger.localAuthListMaxLength = 1000;
    charger.sendLocalListMaxLength = 100;
  });

  it("answers the charger's own word: VersionMismatch, Failed, NotSupported; no answer is a 504", async () => {
    const charger = chargerOf('LL-02');
    const { sentVersion } = (await version('LL-02')).body;
    for (const word of ['VersionMismatch', 'Failed']) {
      charger.forcedAnswers.set('SendLocalList', word);
      const response = await send('LL-02');
      expect(response.body).toMatchObject({ status: word, listVersion: sentVersion, messages: 1 });
    }
    charger.forcedAnswers.clear();
    behaviours.set('LL-02', 'not-supported');
    expect((await send('LL-02')).body).toMatchObject({ status: 'NotSupported', listVersion: sentVersion });
    expect((await version('LL-02')).body).toEqual({
      status: 'NotSupported',
      listVersion: null,
      sentVersion,
      sentAt: expect.any(String),
    });
    behaviours.set('LL-02', 'reject');
    // A charger without local lists says so with -1.
    expect((await version('LL-02')).body).toMatchObject({ status: 'Accepted', listVersion: -1 });
    behaviours.set('LL-02', 'silent');
    const silent = await send('LL-02');
    expect(silent.status).toBe(504);
    expect(silent.body.message).toBe(
      'Charger LL-02 did not answer the get configuration command within 1 s.',
    );
    expect((await version('LL-02')).status).toBe(504);
    behaviours.clear();
    expect((await version('LL-02')).body.sentVersion).toBe(sentVersion);
  });

  it('is for the admin and the call center (403 for the other charger roles)', async () => {
    for (const role of ['merchant', 'party', 'landlord', 'station', 'marketting'] as const) {
      const token = (
        await signedInUser(t, { role, merchantId: place.merchant.id, landlordId: place.site.id })
      ).token;
      expect((await send('LL-01', token)).status, role).toBe(403);
      expect((await version('LL-01', token)).status, role).toBe(403);
    }
  });
});

describe('Send Local List All', () => {
  const run = (token: string, accessToken = admin) =>
    fetch(
      `${t.url}/api/charger/batch/local-list?token=${encodeURIComponent(token)}&accessToken=${accessToken}`,
    );

  it('sends each charger its list: Accepted, Offline for the one not connected; a job with its CSV', async () => {
    const events = await readEvents(await run(TOKEN));
    const updates = events
      .filter((e) => e.event === 'update')
      .map((e) => e.data as { id: string; result: string });
    expect(Object.fromEntries(updates.map((u) => [u.id, u.result]))).toEqual({
      'LL-01': 'Accepted',
      'LL-02': 'Accepted',
      'LL-OFF': 'Offline',
      'LL-PRIVATE': 'Accepted',
    });
    const job = events.find((e) => e.event === 'job')!.data as { id: number };
    const csv = await t.call('GET', `/api/charger/batch/jobs/${job.id}/csv`, { token: admin });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toMatch(/Local-List_\d+\.csv/);
    expect(csv.body).toMatch(/\r\nLL-PRIVATE,Accepted,version 2: 1 id tag\(s\) in 1 message\(s\),/);
    expect(held('LL-PRIVATE')).toEqual({ [resident.appTag]: { status: 'Accepted' } });
    const jobs = await t.call('GET', '/api/charger/batch/jobs', { token: admin });
    expect(jobs.body.jobs[0]).toMatchObject({ kind: 'local-list', status: 'finished', total: 4 });
  });

  it('reports a charger that refuses its list Rejected, with its word', async () => {
    chargerOf('LL-02').forcedAnswers.set('SendLocalList', 'Failed');
    const events = await readEvents(await run(TOKEN));
    chargerOf('LL-02').forcedAnswers.clear();
    expect(events).toContainEqual({ event: 'update', data: { id: 'LL-02', result: 'Rejected' } });
  });

  it('needs the batch token, and is the admin’s only', async () => {
    const wrong = await run('not-the-token');
    expect(wrong.status).toBe(403);
    const refused = await run(TOKEN, callcenter);
    expect(refused.status).toBe(403);
  });
});
