import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { alertWebhookBody } from '@ev/shared';
import type { Simulation } from '@ev/tools/simulator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKOFF_MS, MAX_ATTEMPTS, WEBHOOK_TIMEOUT_MS } from '../../src/modules/alerts/deliveries.ts';
import {
  deliveriesOf,
  incidentsOf,
  insertChargers,
  type Received,
  waitStatus,
  webhookReceiver,
} from '../helpers/alerts.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, simulate } from '../helpers/ocpp.ts';
import { mailsSince, outboxFiles } from '../helpers/outbox.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 36 §2, deliveries: the alerts' mail (the outbox) and webhooks (a local HTTP server of the test's):
 * signed with the condition's secret, retried with backoff (the job called with a later `now`), delivered
 * once. And the database's own alert, which cannot live in the database (PostgreSQL only: the test takes the
 * database away from the server and gives it back).
 */
const MIN = 60_000;
const SECRET = 'alerts-webhook-secret-0123456789';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedInUser>>;
let place: Awaited<ReturnType<typeof chargerPlace>>;
const simulations: Simulation[] = [];
const receivers: Array<{ close: () => Promise<void> }> = [];

beforeAll(async () => {
  t = await startTestApp({ ALERTS_EVERY_MS: '3600000' });
  admin = await signedInUser(t, { role: 'admin' });
  place = await chargerPlace(t);
  const put = await t.call('PUT', '/api/alert-subscriptions', {
    token: admin.token,
    body: {
      subscriptions: ['charger-faulted', 'connector-unavailable', 'database-unreachable'].map(
        (condition) => ({
          condition,
          inApp: true,
          mail: true,
        }),
      ),
    },
  });
  expect(put.status).toBe(200);
});
afterAll(async () => {
  for (const simulation of simulations) await simulation.stop();
  for (const receiver of receivers) await receiver.close();
  await t.close();
});

const evaluate = (at: number) => t.app.jobs.evaluateAlerts(at);
const deliver = (at: number) => t.app.jobs.deliverAlerts(at);

async function receiver(answers: number[]) {
  const made = await webhookReceiver(answers);
  receivers.push(made);
  return made;
}

async function setWebhook(condition: string, url: string | null) {
  const answer = await t.call('PATCH', `/api/alert-settings/${condition}`, {
    token: admin.token,
    body: url ? { webhookUrl: url, webhookSecret: SECRET } : { webhookUrl: null },
  });
  expect(answer.status).toBe(200);
}

async function connect(id: string) {
  await insertChargers(t.database.db, place, [id]);
  const simulation = await simulate(t, [{ id, connectors: 2 }]);
  simulations.push(simulation);
  return simulation.chargers[0]!;
}

/** The request's body, checked against the contract, and its signature checked with the secret. */
function verified(request: Received) {
  const expected = `sha256=${createHmac('sha256', SECRET).update(request.body).digest('hex')}`;
  expect(request.headers['x-ev-signature']).toBe(expected);
  expect(request.headers['content-type']).toBe('application/json');
  const body = JSON.parse(request.body);
  expect(alertWebhookBody.strict().parse(body)).toBeTruthy();
  expect(body.alert).not.toHaveProperty('read');
  return body as {
    event: string;
    alert: { id: number; subjectId: string; resolvedAt: string | null };
    sentAt: string;
  };
}

describe('webhooks', () => {
  it('are signed, a 500 is retried after its backoff, delivered once, and the resolve follows', async () => {
    const hook = await receiver([500, 200]);
    await setWebhook('charger-faulted', hook.url);
    const charger = await connect('WH-1');
    const before = outboxFiles(t);
    await charger.setStatus(1, 'Faulted', 'PowerSwitchFailure');
    await waitStatus(t.database.db, 'WH-1', 1, 'FAULTED');
    const T = Date.now();

    const fired = T + 10 * MIN;
    await evaluate(fired);
    const [incident] = await incidentsOf(t.database.db, 'charger-faulted', 'WH-1');
    expect(incident).toBeTruthy();
    expect(hook.received).toHaveLength(1);
    const webhookRow = () =>
      deliveriesOf(t.database.db, incident!.id).then((rows) => rows.filter((d) => d.channel === 'webhook'));
    expect((await webhookRow())[0]).toMatchObject({
      event: 'fired',
      target: hook.url,
      status: 'pending',
      attempts: 1,
      lastError: 'HTTP 500',
    });
    expect((await webhookRow())[0]!.nextAttemptAt.getTime()).toBe(fired + BACKOFF_MS[0]!);

    // Not before its time; then delivered.
    await deliver(fired + BACKOFF_MS[0]! - 1000);
    expect(hook.received).toHaveLength(1);
    await deliver(fired + BACKOFF_MS[0]!);
    expect(hook.received).toHaveLength(2);
    expect((await webhookRow())[0]).toMatchObject({ status: 'sent', attempts: 2, lastError: null });

    const [first, second] = hook.received.map(verified);
    expect(second).toMatchObject({
      event: 'fired',
      alert: { id: incident!.id, condition: 'charger-faulted', subjectId: 'WH-1', link: '/charger/WH-1' },
    });
    expect(first!.alert).toEqual(second!.alert);
    const deliveryId = String((await webhookRow())[0]!.id);
    expect(hook.received.map((r) => r.headers['x-ev-delivery'])).toEqual([deliveryId, deliveryId]);
    expect(hook.received.map((r) => r.headers['x-ev-event'])).toEqual(['fired', 'fired']);

    // Never again once delivered, whatever runs.
    await deliver(fired + 60 * MIN);
    await evaluate(fired + 30_000);
    expect(hook.received).toHaveLength(2);

    await charger.setStatus(1, 'Available');
    await waitStatus(t.database.db, 'WH-1', 1, 'AVAILABLE');
    await evaluate(T + 11 * MIN);
    await evaluate(T + 13 * MIN);
    expect(hook.received).toHaveLength(3);
    const resolved = verified(hook.received[2]!);
    expect(resolved).toMatchObject({
      event: 'resolved',
      alert: { id: incident!.id, resolvedAt: new Date(T + 13 * MIN).toISOString() },
    });
    expect(hook.received[2]!.headers['x-ev-delivery']).not.toBe(deliveryId);

    // The mail went out once each way.
    expect(
      mailsSince(t, before)
        .filter((mail) => mail.subject.includes('Charger WH-1 faulted'))
        .map((mail) => [mail.to, mail.subject]),
    ).toEqual([
      [admin.user.email, '[EV Alert] Charger WH-1 faulted'],
      [admin.user.email, '[Resolved] Charger WH-1 faulted'],
    ]);
    // The secret is in no log line and no answer.
    expect(t.logs()).not.toContain(SECRET);
    const settings = await t.call('GET', '/api/alert-settings', { token: admin.token });
    expect(JSON.stringify(settings.body)).not.toContain(SECRET);
    await setWebhook('charger-faulted', null);
  });

  it('a receiver that keeps failing is tried MAX_ATTEMPTS times, waits doubling, then failed for good', async () => {
    const hook = await receiver([503]);
    await setWebhook('connector-unavailable', hook.url);
    const charger = await connect('WF-1');
    await charger.setStatus(2, 'Unavailable');
    await waitStatus(t.database.db, 'WF-1', 2, 'UNAVAILABLE');
    let now = Date.now() + 11 * MIN;
    await evaluate(now);
    const [incident] = await incidentsOf(t.database.db, 'connector-unavailable', 'WF-1/2');
    const row = async () =>
      (await deliveriesOf(t.database.db, incident!.id)).find((d) => d.channel === 'webhook')!;
    const waits: number[] = [];
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      const due = (await row()).nextAttemptAt.getTime();
      waits.push(due - now);
      await deliver(due - 1);
      expect(hook.received).toHaveLength(attempt - 1);
      now = due;
      await deliver(now);
      expect(hook.received).toHaveLength(attempt);
    }
    expect(waits).toEqual(BACKOFF_MS);
    expect(await row()).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastError: 'HTTP 503' });
    await deliver(now + 24 * 60 * MIN);
    expect(hook.received).toHaveLength(MAX_ATTEMPTS);
    await setWebhook('connector-unavailable', null);
  });

  it(`a receiver that does not answer within ${WEBHOOK_TIMEOUT_MS / 1000} s is a failure, retried later`, async () => {
    // A server that takes every request and never answers.
    const hold = http.createServer(() => undefined);
    await new Promise<void>((resolve) => hold.listen(0, '127.0.0.1', resolve));
    receivers.push({
      close: () =>
        new Promise<void>((resolve) => {
          hold.closeAllConnections();
          hold.close(() => resolve());
        }),
    });
    await setWebhook(
      'connector-unavailable',
      `http://127.0.0.1:${(hold.address() as AddressInfo).port}/hook`,
    );
    const charger = await connect('WT-1');
    await charger.setStatus(1, 'Unavailable');
    await waitStatus(t.database.db, 'WT-1', 1, 'UNAVAILABLE');
    const now = Date.now() + 11 * MIN;
    await evaluate(now);
    const [incident] = await incidentsOf(t.database.db, 'connector-unavailable', 'WT-1/1');
    const webhook = (await deliveriesOf(t.database.db, incident!.id)).find((d) => d.channel === 'webhook')!;
    expect(webhook).toMatchObject({ status: 'pending', attempts: 1, lastError: 'no answer in time' });
    expect(webhook.nextAttemptAt.getTime()).toBe(now + BACKOFF_MS[0]!);
    await setWebhook('connector-unavailable', null);
  }, 20_000);
});

// Only a PostgreSQL server can be taken away from the server process and given back.
describe.runIf(Boolean(process.env.DATABASE_URL))('the database unreachable', () => {
  it('alerts from memory past its threshold, once; recorded resolved (with its times) once it answers', async () => {
    const hook = await receiver([200]);
    await setWebhook('database-unreachable', hook.url);
    // A pass while the database answers: what the watch will need is read then.
    await evaluate(Date.now());
    const [{ name }] = (
      (await t.database.db.execute(sql`select current_database() as name`)) as unknown as {
        rows: Array<{ name: string }>;
      }
    ).rows as [{ name: string }];
    const superuser = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await superuser.connect();
    const before = outboxFiles(t);
    const T = Date.now();
    try {
      await superuser.query(`alter database "${name}" allow_connections false`);
      await superuser.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      expect((await evaluate(T)).databaseUp).toBe(false);
      await evaluate(T + 30_000);
      expect(mailsSince(t, before).filter((m) => m.subject.includes('Database unreachable'))).toEqual([]);
      expect(hook.received).toHaveLength(0);

      await evaluate(T + 61_000);
      await evaluate(T + 90_000);
      const fired = mailsSince(t, before).filter((m) => m.subject.includes('Database unreachable'));
      expect(fired.map((m) => [m.to, m.subject])).toEqual([
        [admin.user.email, '[EV Alert] Database unreachable'],
      ]);
      expect(fired[0]!.text).toMatch(/The database unreachable from server process \S+ since \d\d:\d\d/);
      expect(hook.received).toHaveLength(1);
      expect(verified(hook.received[0]!)).toMatchObject({
        event: 'fired',
        alert: { id: 0, condition: 'database-unreachable', subjectType: 'system', resolvedAt: null },
      });
    } finally {
      await superuser.query(`alter database "${name}" allow_connections true`);
      await superuser.end();
    }

    const back = await evaluate(T + 3 * MIN);
    expect(back.databaseUp).toBe(true);
    const subjectId = verified(hook.received[0]!).alert.subjectId;
    const [incident, ...more] = await incidentsOf(t.database.db, 'database-unreachable', subjectId);
    expect(more).toEqual([]);
    expect(incident).toMatchObject({ subjectType: 'system', landlordId: null, merchantId: null });
    expect(incident!.startedAt.getTime()).toBe(T);
    expect(incident!.firedAt.getTime()).toBe(T + 61_000);
    expect(incident!.resolvedAt?.getTime()).toBe(T + 3 * MIN);
    expect(
      (await deliveriesOf(t.database.db, incident!.id)).map((d) => [d.event, d.channel, d.status]),
    ).toEqual([
      ['fired', 'mail', 'sent'],
      ['resolved', 'mail', 'sent'],
      ['fired', 'webhook', 'sent'],
      ['resolved', 'webhook', 'sent'],
    ]);
    expect(hook.received).toHaveLength(2);
    expect(verified(hook.received[1]!)).toMatchObject({
      event: 'resolved',
      alert: { id: incident!.id, subjectId, resolvedAt: new Date(T + 3 * MIN).toISOString() },
    });
    expect(
      mailsSince(t, before)
        .filter((m) => m.subject.includes('Database unreachable'))
        .map((m) => m.subject),
    ).toEqual(['[EV Alert] Database unreachable', '[Resolved] Database unreachable']);
    // The bell shows it to those who see everything.
    const list = await t.call('GET', '/api/alerts?condition=database-unreachable', { token: admin.token });
    expect(list.body.alerts.map((a: { id: number }) => a.id)).toEqual([incident!.id]);
    await setWebhook('database-unreachable', null);
  });
});
