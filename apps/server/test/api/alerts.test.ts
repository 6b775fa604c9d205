import { ALERT_CONDITIONS, ALERT_DEFAULT_THRESHOLD_MIN, ALERT_STREAM_EVENT } from '@ev/shared';
import type { Simulation } from '@ev/tools/simulator';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditChanges,
  auditLog,
  connectors,
  paymentOperations,
  payments,
} from '../../src/db/schema/index.ts';
import { createSession } from '../../src/modules/auth/auth.service.ts';
import { memberTag } from '../../src/modules/member/member.service.ts';
import type { GatewayResult, PaymentGateway } from '../../src/modules/payment/payment-gateway.ts';
import { settlePending } from '../../src/modules/payment/settlement.ts';
import * as alertsHelpers from '../helpers/alerts.ts';
import { createBooking, createMember } from '../helpers/bookings.ts';
import { createLandlord, createMerchant, signedInUser } from '../helpers/factories.ts';
import { chargerPlace, readEvents, rpcClient, simulate } from '../helpers/ocpp.ts';
import { mailsSince, outboxFiles } from '../helpers/outbox.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 36 §2, alerts: a real server, real simulated chargers (and a raw OCPP client for a site's load), the
 * alerts' job called with a later `now` instead of waiting minutes. Each test has subjects of its own (its
 * chargers, payments, sites) and looks only at them: the job sees the whole database.
 */
const MIN = 60_000;
const BATCH_TOKEN = 'alerts-batch-token-0123456789';

/** A payment provider that does not answer while `answering` is false (the payment stays pending), then yes. */
class SlowProvider implements PaymentGateway {
  readonly name = 'slow-provider';
  answering = true;
  private waiting: Array<() => void> = [];
  private n = 0;
  private async answer(): Promise<GatewayResult> {
    if (!this.answering) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return { status: 'succeeded', reference: `ref_${++this.n}` };
  }
  charge = () => this.answer();
  refund = () => this.answer();
  release(): void {
    this.answering = true;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

let t: TestApp;
let admin: { user: { id: number; email: string }; token: string };
let place: Awaited<ReturnType<typeof chargerPlace>>;
const provider = new SlowProvider();
const simulations: Simulation[] = [];

beforeAll(async () => {
  t = await startTestApp(
    {
      // The timer stays out of the way: each test runs the job itself, at the time it says.
      ALERTS_EVERY_MS: '3600000',
      BATCH_COMMAND_TOKEN: BATCH_TOKEN,
      PAYMENT_TIMEOUT_MS: '300',
      OCPP_UNKNOWN_TAGS: 'accept',
    },
    { paymentGateway: provider },
  );
  admin = await signedInUser(t, { role: 'admin' });
  place = await chargerPlace(t);
  // The admin hears everything by mail too.
  const subscribed = await t.call('PUT', '/api/alert-subscriptions', {
    token: admin.token,
    body: { subscriptions: ALERT_CONDITIONS.map((condition) => ({ condition, inApp: true, mail: true })) },
  });
  expect(subscribed.status).toBe(200);
});
afterAll(async () => {
  provider.release();
  for (const simulation of simulations) await simulation.stop();
  await t.close();
});

const evaluate = (at: number) => t.app.jobs.evaluateAlerts(at);

const incidentsOf = (condition: string, subjectId: string) =>
  alertsHelpers.incidentsOf(t.database.db, condition, subjectId);
const deliveriesOf = (incidentId: number) => alertsHelpers.deliveriesOf(t.database.db, incidentId);
const waitOnline = (id: string, online: boolean) => alertsHelpers.waitOnline(t.database.db, id, online);
const waitStatus = (chargerId: string, number: number, status: string) =>
  alertsHelpers.waitStatus(t.database.db, chargerId, number, status);

/** The mails of the outbox since `before` whose subject names `subject`. */
const mailsAbout = (before: string[], subject: string) =>
  mailsSince(t, before).filter((mail) => mail.subject.includes(subject));

/** Chargers created at `where`, connected as simulated 1.6 chargers, online in the database. */
async function connect(ids: string[], where = place, connectorCount = 2) {
  await alertsHelpers.insertChargers(t.database.db, where, ids, connectorCount);
  const simulation = await simulate(
    t,
    ids.map((id) => ({ id, connectors: connectorCount })),
  );
  simulations.push(simulation);
  for (const id of ids) await waitOnline(id, true);
  return Object.fromEntries(simulation.chargers.map((charger) => [charger.spec.id, charger]));
}

describe('a charger offline', () => {
  it('fires once past the threshold (10 min), one mail, and resolves once back for the resolve delay', async () => {
    const { 'OFF-1': charger } = await connect(['OFF-1']);
    const before = outboxFiles(t);
    await charger!.stop();
    await waitOnline('OFF-1', false);
    const T = Date.now();

    await evaluate(T + 5 * MIN);
    expect(await incidentsOf('charger-offline', 'OFF-1')).toEqual([]);
    await evaluate(T + 11 * MIN);
    await evaluate(T + 11.5 * MIN);
    await evaluate(T + 12 * MIN);
    const [incident, ...more] = await incidentsOf('charger-offline', 'OFF-1');
    expect(more).toEqual([]);
    expect(incident).toMatchObject({
      subjectType: 'charger',
      link: '/charger/OFF-1',
      resolvedAt: null,
      clearSince: null,
    });
    expect(incident!.firedAt.getTime()).toBe(T + 11 * MIN);
    expect(incident!.startedAt.getTime()).toBeLessThanOrEqual(T);
    expect(incident!.message).toMatch(/^Charger OFF-1 at Site \S+ offline since \d\d:\d\d$/);
    // One mail to the subscriber, sent once whatever the passes.
    const fired = mailsAbout(before, 'Charger OFF-1 offline');
    expect(fired.map((mail) => [mail.to, mail.subject])).toEqual([
      [admin.user.email, '[EV Alert] Charger OFF-1 offline'],
    ]);
    expect(fired[0]!.text).toContain(incident!.message);
    expect(fired[0]!.text).toContain(`${t.config.appUrl}/charger/OFF-1`);
    expect(fired[0]!.text).toContain('(Bangkok time)');

    const list = await t.call('GET', '/api/alerts?condition=charger-offline', { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.body.alerts.find((a: { subjectId: string }) => a.subjectId === 'OFF-1')).toEqual({
      id: incident!.id,
      condition: 'charger-offline',
      subjectType: 'charger',
      subjectId: 'OFF-1',
      message: incident!.message,
      link: '/charger/OFF-1',
      landlordId: place.site.id,
      startedAt: incident!.startedAt.toISOString(),
      firedAt: incident!.firedAt.toISOString(),
      resolvedAt: null,
      read: false,
    });

    // Back: clear from the next pass, resolved once clear for 2 minutes; no second alert meanwhile.
    await charger!.start();
    await waitOnline('OFF-1', true);
    await evaluate(T + 13 * MIN);
    expect((await incidentsOf('charger-offline', 'OFF-1'))[0]).toMatchObject({ resolvedAt: null });
    expect((await incidentsOf('charger-offline', 'OFF-1'))[0]!.clearSince?.getTime()).toBe(T + 13 * MIN);
    await evaluate(T + 14 * MIN);
    expect((await incidentsOf('charger-offline', 'OFF-1'))[0]!.resolvedAt).toBeNull();
    await evaluate(T + 15 * MIN);
    await evaluate(T + 16 * MIN);
    const resolved = await incidentsOf('charger-offline', 'OFF-1');
    expect(resolved).toHaveLength(1);
    expect(resolved[0]!.resolvedAt?.getTime()).toBe(T + 15 * MIN);
    expect(mailsAbout(before, 'Charger OFF-1 offline').map((mail) => mail.subject)).toEqual([
      '[EV Alert] Charger OFF-1 offline',
      '[Resolved] Charger OFF-1 offline',
    ]);
    expect((await deliveriesOf(incident!.id)).map((d) => [d.event, d.channel, d.status])).toEqual([
      ['fired', 'mail', 'sent'],
      ['resolved', 'mail', 'sent'],
    ]);
  });

  it('a reboot shorter than the threshold never fires', async () => {
    const { 'RB-1': charger } = await connect(['RB-1']);
    await charger!.stop();
    await waitOnline('RB-1', false);
    const T = Date.now();
    await evaluate(T + 5 * MIN);
    await charger!.start();
    await waitOnline('RB-1', true);
    await evaluate(T + 11 * MIN);
    await evaluate(T + 30 * MIN);
    expect(await incidentsOf('charger-offline', 'RB-1')).toEqual([]);
  });

  it('flapping within the threshold (offline, online, offline) opens nothing', async () => {
    const { 'FL-1': charger } = await connect(['FL-1']);
    await charger!.stop();
    await waitOnline('FL-1', false);
    const T = Date.now();
    await evaluate(T + 6 * MIN);
    await charger!.start();
    await waitOnline('FL-1', true);
    await evaluate(T + 7 * MIN);
    await charger!.stop();
    await waitOnline('FL-1', false);
    const T2 = Date.now();
    await evaluate(T2 + 9 * MIN);
    expect(await incidentsOf('charger-offline', 'FL-1')).toEqual([]);
  });

  it('flapping after it fired stays one incident: no second alert', async () => {
    const { 'FA-1': charger } = await connect(['FA-1']);
    const before = outboxFiles(t);
    await charger!.stop();
    await waitOnline('FA-1', false);
    const T = Date.now();
    await evaluate(T + 11 * MIN);
    await charger!.start();
    await waitOnline('FA-1', true);
    await evaluate(T + 12 * MIN);
    expect((await incidentsOf('charger-offline', 'FA-1'))[0]!.clearSince).not.toBeNull();
    await charger!.stop();
    await waitOnline('FA-1', false);
    await evaluate(T + 13 * MIN);
    expect((await incidentsOf('charger-offline', 'FA-1'))[0]!.clearSince).toBeNull();
    await evaluate(T + 30 * MIN);
    const incidents = await incidentsOf('charger-offline', 'FA-1');
    expect(incidents).toHaveLength(1);
    expect(incidents[0]!.resolvedAt).toBeNull();
    expect(mailsAbout(before, 'Charger FA-1 offline').map((mail) => mail.subject)).toEqual([
      '[EV Alert] Charger FA-1 offline',
    ]);
  });
});

describe('connectors', () => {
  it('a Faulted connector fires charger-faulted past its threshold and resolves once Available', async () => {
    const { 'FT-1': charger } = await connect(['FT-1']);
    await charger!.setStatus(1, 'Faulted', 'GroundFailure');
    await waitStatus('FT-1', 1, 'FAULTED');
    const T = Date.now();
    await evaluate(T + 9 * MIN);
    expect(await incidentsOf('charger-faulted', 'FT-1')).toEqual([]);
    await evaluate(T + 10 * MIN);
    const [incident] = await incidentsOf('charger-faulted', 'FT-1');
    expect(incident).toMatchObject({ subjectType: 'charger', link: '/charger/FT-1', resolvedAt: null });
    expect(incident!.message).toMatch(
      /^Charger FT-1 at Site \S+ faulted \(connector 1: GroundFailure\) since /,
    );
    await charger!.setStatus(1, 'Available');
    await waitStatus('FT-1', 1, 'AVAILABLE');
    await evaluate(T + 11 * MIN);
    await evaluate(T + 13 * MIN);
    expect((await incidentsOf('charger-faulted', 'FT-1'))[0]!.resolvedAt?.getTime()).toBe(T + 13 * MIN);
  });

  it('a connector Unavailable fires connector-unavailable, one per connector; an offline charger does not', async () => {
    const { 'UA-1': charger } = await connect(['UA-1']);
    await charger!.setStatus(2, 'Unavailable');
    await waitStatus('UA-1', 2, 'UNAVAILABLE');
    const T = Date.now();
    await evaluate(T + 11 * MIN);
    const [incident, ...more] = await incidentsOf('connector-unavailable', 'UA-1/2');
    expect(more).toEqual([]);
    expect(incident).toMatchObject({ subjectType: 'connector', link: '/charger/UA-1', resolvedAt: null });
    expect(incident!.message).toMatch(/^Connector 2 of charger UA-1 at Site \S+ unavailable since /);
    expect(await incidentsOf('connector-unavailable', 'UA-1/1')).toEqual([]);
    // Offline, its connectors' statuses are no longer news: the incident clears (the charger's own alert
    // speaks for it).
    await charger!.stop();
    await waitOnline('UA-1', false);
    await evaluate(T + 12 * MIN);
    await evaluate(T + 14 * MIN);
    expect((await incidentsOf('connector-unavailable', 'UA-1/2'))[0]!.resolvedAt).not.toBeNull();
  });

  it('a disabled condition opens nothing, and its open incidents resolve', async () => {
    const { 'DIS-1': charger } = await connect(['DIS-1']);
    await charger!.setStatus(1, 'Unavailable');
    await waitStatus('DIS-1', 1, 'UNAVAILABLE');
    const T = Date.now();
    await evaluate(T + 11 * MIN);
    expect(await incidentsOf('connector-unavailable', 'DIS-1/1')).toHaveLength(1);
    await charger!.setStatus(2, 'Unavailable');
    await waitStatus('DIS-1', 2, 'UNAVAILABLE');
    const off = await t.call('PATCH', '/api/alert-settings/connector-unavailable', {
      token: admin.token,
      body: { enabled: false },
    });
    expect(off.status).toBe(200);
    try {
      await evaluate(T + 30 * MIN);
      await evaluate(T + 33 * MIN);
      expect(await incidentsOf('connector-unavailable', 'DIS-1/2')).toEqual([]);
      expect((await incidentsOf('connector-unavailable', 'DIS-1/1'))[0]!.resolvedAt).not.toBeNull();
    } finally {
      await t.call('PATCH', '/api/alert-settings/connector-unavailable', {
        token: admin.token,
        body: { enabled: true },
      });
    }
  });
});

describe('payments', () => {
  let connectorId: number;
  beforeAll(async () => {
    await alertsHelpers.insertChargers(t.database.db, place, ['PAY-1'], 1);
    const [row] = await t.database.db
      .select({ id: connectors.id })
      .from(connectors)
      .where(eq(connectors.chargerId, 'PAY-1'));
    connectorId = row!.id;
  });

  async function unpaid() {
    const member = await createMember(t);
    const booking = await createBooking(t, connectorId, 'stopped', { userId: member.id });
    const token = await createSession(t.database.db, member.id, 3_600_000);
    return {
      booking,
      pay: () =>
        t.call('POST', `/api/member/booking/${booking.id}/pay`, { token, body: { method: 'credit' } }),
    };
  }
  const settle = () =>
    settlePending({ db: t.database.db, gateway: provider, timeoutMs: 300 }, { olderThanMs: 0 });

  it('a payment pending at the provider past 30 minutes fires; settled, it resolves', async () => {
    const { booking, pay } = await unpaid();
    provider.answering = false;
    expect((await pay()).status).toBe(504);
    const [operation] = await t.database.db
      .select()
      .from(paymentOperations)
      .where(eq(paymentOperations.bookingId, booking.id));
    expect(operation?.status).toBe('pending');
    const T = operation!.createdAt.getTime();
    await evaluate(T + 29 * MIN);
    expect(await incidentsOf('payment-pending', String(operation!.id))).toEqual([]);
    await evaluate(T + ALERT_DEFAULT_THRESHOLD_MIN['payment-pending'] * MIN);
    const [incident] = await incidentsOf('payment-pending', String(operation!.id));
    expect(incident).toMatchObject({
      subjectType: 'payment',
      link: `/booking-management?bookingId=${booking.id}`,
      landlordId: place.site.id,
    });
    expect(incident!.message).toMatch(
      new RegExp(
        `^Payment of booking ${booking.id} \\(100\\.00 THB\\) at Site \\S+ pending at the payment provider since`,
      ),
    );
    provider.release();
    await settle();
    await evaluate(T + 31 * MIN);
    await evaluate(T + 33 * MIN);
    expect((await incidentsOf('payment-pending', String(operation!.id)))[0]!.resolvedAt).not.toBeNull();
  });

  it('a refund pending at the provider fires too, linked to its payment', async () => {
    const { booking, pay } = await unpaid();
    provider.release();
    expect((await pay()).status).toBe(200);
    const [payment] = await t.database.db.select().from(payments).where(eq(payments.bookingId, booking.id));
    provider.answering = false;
    const refund = await t.call('POST', `/api/payment/${payment!.id}/refund`, {
      token: admin.token,
      body: { amount: 40 },
    });
    expect(refund.status).toBe(504);
    const [operation] = await t.database.db
      .select()
      .from(paymentOperations)
      .where(and(eq(paymentOperations.paymentId, payment!.id), eq(paymentOperations.kind, 'refund')));
    const T = operation!.createdAt.getTime();
    await evaluate(T + 31 * MIN);
    const [incident] = await incidentsOf('refund-pending', String(operation!.id));
    expect(incident).toMatchObject({
      subjectType: 'refund',
      link: `/charging-payment?bookingId=${booking.id}`,
      resolvedAt: null,
    });
    expect(incident!.message).toContain(`Refund of ${payment!.invoiceNo} (40.00 THB)`);
    provider.release();
    await settle();
    await evaluate(T + 32 * MIN);
    await evaluate(T + 34 * MIN);
    expect((await incidentsOf('refund-pending', String(operation!.id)))[0]!.resolvedAt).not.toBeNull();
  });
});

describe('a batch command with failures', () => {
  it('fires once per job (an event: resolved as it fires), naming what failed', async () => {
    await connect(['BT-1']);
    // A charger that never connected is Offline to the batch.
    await alertsHelpers.insertChargers(t.database.db, place, ['BT-2']);
    const before = outboxFiles(t);
    const run = await t.call(
      'GET',
      `/api/charger/batch/config?token=${BATCH_TOKEN}&configurations=${encodeURIComponent('[{"key":"AlertsTestKey","value":"1"}]')}`,
      { token: admin.token },
    );
    expect(run.status).toBe(200);
    const jobs = await t.call('GET', '/api/charger/batch/jobs', { token: admin.token });
    const jobId = String(jobs.body.jobs[0].id);
    const now = Date.now();
    await evaluate(now);
    await evaluate(now + MIN);
    await evaluate(now + 60 * MIN);
    const [incident, ...more] = await incidentsOf('batch-failed', jobId);
    expect(more).toEqual([]);
    expect(incident).toMatchObject({ subjectType: 'batch', link: '/charger', landlordId: null });
    expect(incident!.resolvedAt?.getTime()).toBe(now);
    expect(incident!.message).toMatch(
      new RegExp(`^Config All #${jobId} ended at \\d\\d:\\d\\d: \\d+ of \\d+ chargers failed \\(`),
    );
    expect(incident!.message).toMatch(/NotSupported \d+/);
    expect(incident!.message).toMatch(/Offline \d+/);
    expect(mailsAbout(before, `Config All #${jobId}`).map((mail) => mail.subject)).toEqual([
      expect.stringMatching(
        new RegExp(`^\\[EV Alert\\] Config All #${jobId} failed on \\d+ of \\d+ chargers$`),
      ),
    ]);
  });
});

describe('a site over its power limit', () => {
  it('fires when the live load stays over the limit past the threshold, and resolves when it drops', async () => {
    const site = await createLandlord(t, place.merchant.id, { maxPowerKw: '10.00' });
    await alertsHelpers.insertChargers(t.database.db, { ...place, site }, ['LIM-1'], 1);
    // A raw 1.6 charger that does not take the power sharing's profiles (it answers NotImplemented).
    const client = rpcClient(t, 'LIM-1');
    await client.connect();
    await client.call('BootNotification', { chargePointVendor: 'Raw', chargePointModel: 'Limitless' });
    const member = await createMember(t);
    const { transactionId } = (await client.call('StartTransaction', {
      connectorId: 1,
      idTag: await memberTag(t.database.db, member.id),
      meterStart: 1000,
      timestamp: new Date().toISOString(),
    })) as { transactionId: number };
    await client.call('MeterValues', {
      connectorId: 1,
      transactionId,
      meterValue: [
        {
          timestamp: new Date().toISOString(),
          sampledValue: [
            { value: '2000', measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
            { value: '22', measurand: 'Power.Active.Import', unit: 'kW' },
          ],
        },
      ],
    });
    await t.app.jobs.flushPowerSamples();
    const T = Date.now();
    await evaluate(T + 3 * MIN);
    const [incident] = await incidentsOf('site-over-limit', String(site.id));
    expect(incident).toMatchObject({
      subjectType: 'site',
      link: `/landlord/${site.id}`,
      landlordId: site.id,
      resolvedAt: null,
    });
    expect(incident!.message).toMatch(/over its power limit \(22 kW of 10 kW\) since/);
    await client.call('StopTransaction', {
      transactionId,
      meterStop: 3000,
      timestamp: new Date().toISOString(),
      reason: 'Local',
    });
    await t.app.jobs.flushPowerSamples();
    await evaluate(T + 4 * MIN);
    await evaluate(T + 6 * MIN);
    expect((await incidentsOf('site-over-limit', String(site.id)))[0]!.resolvedAt?.getTime()).toBe(
      T + 6 * MIN,
    );
    await client.close({ code: 1000, force: true } as never);
  });
});

describe('who hears', () => {
  it('a site user sees, hears live and gets mail of its own site only; the system only those who see all', async () => {
    const otherMerchant = await createMerchant(t);
    const siteA = await createLandlord(t, place.merchant.id);
    const siteB = await createLandlord(t, otherMerchant.id);
    const placeA = { ...place, site: siteA };
    const placeB = { ...place, merchant: otherMerchant, site: siteB };
    const siteUser = await signedInUser(t, { role: 'landlord', landlordId: siteA.id });
    const clusterUserB = await signedInUser(t, { role: 'merchant', merchantId: otherMerchant.id });
    for (const user of [siteUser, clusterUserB]) {
      const put = await t.call('PUT', '/api/alert-subscriptions', {
        token: user.token,
        body: { subscriptions: [{ condition: 'charger-offline', inApp: true, mail: true }] },
      });
      expect(put.status).toBe(200);
    }
    const a = await connect(['SCA-1'], placeA);
    const b = await connect(['SCB-1'], placeB);

    // The site user's stream is open before anything fires.
    const stream = await fetch(`${t.url}/api/alerts/stream?accessToken=${siteUser.token}`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const heard = readEvents(stream, (events) =>
      events.some((e) => (e.data as { resolvedAt?: unknown }).resolvedAt),
    );

    const before = outboxFiles(t);
    await b['SCB-1']!.stop();
    await a['SCA-1']!.stop();
    await waitOnline('SCB-1', false);
    await waitOnline('SCA-1', false);
    const T = Date.now();
    await evaluate(T + 11 * MIN);
    const [incidentA] = await incidentsOf('charger-offline', 'SCA-1');
    const [incidentB] = await incidentsOf('charger-offline', 'SCB-1');
    expect(incidentA && incidentB).toBeTruthy();

    const seen = async (token: string) =>
      (await t.call('GET', '/api/alerts?size=100', { token })).body.alerts.map(
        (x: { subjectId: string }) => x.subjectId,
      );
    expect(await seen(siteUser.token)).toEqual(['SCA-1']);
    expect(await seen(clusterUserB.token)).toEqual(['SCB-1']);
    const all = await seen(admin.token);
    expect(all).toEqual(expect.arrayContaining(['SCA-1', 'SCB-1']));

    const mails = mailsSince(t, before).filter((mail) => /Charger SC[AB]-1 offline/.test(mail.subject));
    expect(mails.filter((mail) => mail.to === siteUser.user.email).map((mail) => mail.subject)).toEqual([
      '[EV Alert] Charger SCA-1 offline',
    ]);
    expect(mails.filter((mail) => mail.to === clusterUserB.user.email).map((mail) => mail.subject)).toEqual([
      '[EV Alert] Charger SCB-1 offline',
    ]);

    // Live: the fire and the resolve of its site's incident, nothing of the other site's.
    await a['SCA-1']!.start();
    await b['SCB-1']!.start();
    await waitOnline('SCA-1', true);
    await waitOnline('SCB-1', true);
    await evaluate(T + 12 * MIN);
    await evaluate(T + 14 * MIN);
    const events = await heard;
    expect(events.map((e) => e.event)).toEqual([ALERT_STREAM_EVENT, ALERT_STREAM_EVENT]);
    expect(events.map((e) => (e.data as { subjectId: string }).subjectId)).toEqual(['SCA-1', 'SCA-1']);
    expect(events[0]!.data).toMatchObject({
      id: incidentA!.id,
      resolvedAt: null,
      read: false,
      link: '/charger/SCA-1',
    });
    expect((events[1]!.data as { resolvedAt: string }).resolvedAt).toBe(new Date(T + 14 * MIN).toISOString());

    // A batch's (and the system's) alerts have no site: only users who see everything hear them.
    const batchSeen = await t.call('GET', '/api/alerts?condition=batch-failed', { token: siteUser.token });
    expect(batchSeen.body.total).toBe(0);
  });

  it('in the app off: not in the list (nor its unread count); read marks are per user', async () => {
    const viewer = await signedInUser(t, { role: 'callcenter' });
    const list = await t.call('GET', '/api/alerts?condition=charger-offline', { token: viewer.token });
    expect(list.body.total).toBeGreaterThan(0);
    const first = list.body.alerts[0];
    expect(first.read).toBe(false);
    const unread = list.body.unread;

    const read = await t.call('POST', '/api/alerts/read', { token: viewer.token, body: { ids: [first.id] } });
    expect(read.status).toBe(200);
    const after = await t.call('GET', '/api/alerts?condition=charger-offline', { token: viewer.token });
    expect(after.body.unread).toBe(unread - 1);
    expect(after.body.alerts[0]).toMatchObject({ id: first.id, read: true });
    const onlyUnread = await t.call('GET', '/api/alerts?unread=true&size=100', { token: viewer.token });
    expect(onlyUnread.body.alerts.map((a: { id: number }) => a.id)).not.toContain(first.id);
    // Another user's marks are theirs.
    const adminView = await t.call('GET', '/api/alerts?condition=charger-offline&size=100', {
      token: admin.token,
    });
    expect(adminView.body.alerts.find((a: { id: number }) => a.id === first.id).read).toBe(false);

    const off = await t.call('PUT', '/api/alert-subscriptions', {
      token: viewer.token,
      body: { subscriptions: [{ condition: 'charger-offline', inApp: false, mail: false }] },
    });
    expect(
      off.body.subscriptions.find((s: { condition: string }) => s.condition === 'charger-offline'),
    ).toEqual({
      condition: 'charger-offline',
      inApp: false,
      mail: false,
    });
    const hidden = await t.call('GET', '/api/alerts?condition=charger-offline', { token: viewer.token });
    expect(hidden.body.total).toBe(0);

    const all = await t.call('POST', '/api/alerts/read', { token: viewer.token, body: { all: true } });
    expect(all.status).toBe(200);
    expect((await t.call('GET', '/api/alerts', { token: viewer.token })).body.unread).toBe(0);
  });
});

describe('settings and subscriptions', () => {
  it('every condition has its defaults until set; a PATCH changes only what it names, audited, secret redacted', async () => {
    const got = await t.call('GET', '/api/alert-settings', { token: admin.token });
    expect(got.status).toBe(200);
    expect(got.body.settings.map((s: { condition: string }) => s.condition)).toEqual([...ALERT_CONDITIONS]);
    expect(got.body.settings.find((s: { condition: string }) => s.condition === 'refund-pending')).toEqual({
      condition: 'refund-pending',
      thresholdMin: 30,
      enabled: true,
      webhookUrl: null,
      hasWebhookSecret: false,
    });

    const secret = 'a-webhook-secret-of-enough-length';
    const patched = await t.call('PATCH', '/api/alert-settings/refund-pending', {
      token: admin.token,
      body: { thresholdMin: 45, webhookUrl: 'https://hooks.example.com/ev', webhookSecret: secret },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.setting).toEqual({
      condition: 'refund-pending',
      thresholdMin: 45,
      enabled: true,
      webhookUrl: 'https://hooks.example.com/ev',
      hasWebhookSecret: true,
    });
    expect(JSON.stringify(patched.body)).not.toContain(secret);
    const again = await t.call('PATCH', '/api/alert-settings/refund-pending', {
      token: admin.token,
      body: { enabled: false },
    });
    expect(again.body.setting).toMatchObject({ thresholdMin: 45, enabled: false, hasWebhookSecret: true });

    const entries = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'alert-setting'), eq(auditLog.entityId, 'refund-pending')));
    expect(entries.map((e) => [e.action, e.userId])).toEqual([
      ['update', admin.user.id],
      ['update', admin.user.id],
    ]);
    const changes = await t.database.db
      .select()
      .from(auditChanges)
      .where(
        inArray(
          auditChanges.entryId,
          entries.map((e) => e.id),
        ),
      );
    expect(JSON.stringify(changes)).not.toContain(secret);
    expect(JSON.stringify(changes)).toContain('[redacted]');

    // Back to how it was for the other tests.
    await t.call('PATCH', '/api/alert-settings/refund-pending', {
      token: admin.token,
      body: { thresholdMin: 30, enabled: true, webhookUrl: null, webhookSecret: null },
    });
  });

  it('refuses what the schema refuses, with its messages; a webhook URL needs a secret', async () => {
    const patch = (body: unknown, condition = 'charger-offline') =>
      t.call('PATCH', `/api/alert-settings/${condition}`, { token: admin.token, body });
    const cases: Array<[unknown, string]> = [
      [{ thresholdMin: -1 }, 'body.thresholdMin: Threshold (minutes) must be 0 or more.'],
      [{ thresholdMin: 1.5 }, 'body.thresholdMin: Threshold (minutes) must be a whole number.'],
      [{ thresholdMin: 'ten' }, 'body.thresholdMin: Threshold (minutes) must be a whole number.'],
      [{ thresholdMin: 100_000 }, 'body.thresholdMin: Threshold (minutes) must be at most 10080.'],
      [{ webhookUrl: 'ftp://example.com/x' }, 'body.webhookUrl: Webhook URL must be an http or https URL.'],
      [{ webhookSecret: 'short' }, 'body.webhookSecret: Webhook secret must be at least 16 characters.'],
      [{ webhookUrl: 'https://example.com/hook' }, 'Webhook secret is required with a webhook URL.'],
    ];
    for (const [body, message] of cases) {
      const answer = await patch(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toBe(message);
    }
    const unknown = await patch({ thresholdMin: 5, color: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('color');
    expect((await patch({ thresholdMin: 5 }, 'no-such-condition')).status).toBe(400);
  });

  it('settings are the admin’s only (403); subscriptions are every role’s own', async () => {
    for (const role of ['callcenter', 'marketting', 'merchant', 'landlord', 'party', 'station'] as const) {
      const { token } = await signedInUser(t, { role });
      expect((await t.call('GET', '/api/alert-settings', { token })).status).toBe(403);
      expect(
        (await t.call('PATCH', '/api/alert-settings/charger-offline', { token, body: { thresholdMin: 1 } }))
          .status,
      ).toBe(403);
      const mine = await t.call('GET', '/api/alert-subscriptions', { token });
      expect(mine.status).toBe(200);
      expect(mine.body.subscriptions).toEqual(
        ALERT_CONDITIONS.map((condition) => ({ condition, inApp: true, mail: false })),
      );
      expect((await t.call('GET', '/api/alerts', { token })).status).toBe(200);
    }
    expect((await t.call('GET', '/api/alerts')).status).toBe(401);
    expect((await t.call('GET', '/api/alert-settings')).status).toBe(401);
  });

  it('a subscription PUT is audited and refuses a condition given twice', async () => {
    const user = await signedInUser(t, { role: 'merchant', merchantId: place.merchant.id });
    const twice = await t.call('PUT', '/api/alert-subscriptions', {
      token: user.token,
      body: {
        subscriptions: [
          { condition: 'charger-offline', inApp: true, mail: true },
          { condition: 'charger-offline', inApp: false, mail: false },
        ],
      },
    });
    expect(twice.status).toBe(400);
    const put = await t.call('PUT', '/api/alert-subscriptions', {
      token: user.token,
      body: { subscriptions: [{ condition: 'payment-pending', inApp: false, mail: true }] },
    });
    expect(put.status).toBe(200);
    expect(
      put.body.subscriptions.find((s: { condition: string }) => s.condition === 'payment-pending'),
    ).toEqual({
      condition: 'payment-pending',
      inApp: false,
      mail: true,
    });
    const entries = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'alert-subscription'), eq(auditLog.entityId, String(user.user.id))));
    expect(entries).toHaveLength(1);
  });
});
