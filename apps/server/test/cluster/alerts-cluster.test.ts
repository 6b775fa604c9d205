import path from 'node:path';
import { ALERT_STREAM_EVENT } from '@ev/shared';
import { createScratchDatabase, type ScratchDatabase } from '@ev/tools/scratch-database';
import type { Simulation } from '@ev/tools/simulator';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeBus, connectBus } from '../../src/cluster/bus.ts';
import { openDatabase } from '../../src/db/client.ts';
import { evaluatePass } from '../../src/modules/alerts/evaluate.ts';
import {
  deliveriesOf,
  incidentsOf,
  insertChargers,
  waitOnline,
  waitStatus,
  webhookReceiver,
} from '../helpers/alerts.ts';
import { type NatsServer, startNats } from '../helpers/cluster.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, eventually, readEvents, simulate } from '../helpers/ocpp.ts';
import { mailsSince, outboxFiles } from '../helpers/outbox.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 36 §2 across processes: two servers (A and B, each a whole app with its own database pool and NATS
 * connection) on one PostgreSQL database, joined by a NATS server of the test's own. Both evaluate the same
 * conditions at the same moments: one incident, one mail, one webhook per incident, not one per process; an
 * incident opened by A reaches the bell streams held by B; NATS itself out of reach is one alert for the cluster.
 */
const MIN = 60_000;
const SECRET = 'cluster-webhook-secret-0123456789';
let nats: NatsServer;
let scratch: ScratchDatabase;
const buses: NatsConnection[] = [];
let A: TestApp;
let B: TestApp;
let admin: Awaited<ReturnType<typeof signedInUser>>;
let place: Awaited<ReturnType<typeof chargerPlace>>;
let hook: Awaited<ReturnType<typeof webhookReceiver>>;
const simulations: Simulation[] = [];

async function server(name: string): Promise<TestApp> {
  const nc = await connectBus(nats.url, `alerts-cluster ${name}`);
  buses.push(nc);
  return startTestApp(
    { ALERTS_EVERY_MS: '3600000' },
    { database: await openDatabase({ databaseUrl: scratch.url }), nats: nc },
  );
}

beforeAll(async () => {
  nats = await startNats();
  scratch = await createScratchDatabase(
    process.env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres',
    'ev_alerts_cluster',
  );
  A = await server('A');
  B = await server('B');
  admin = await signedInUser(A, { role: 'admin' });
  place = await chargerPlace(A);
  hook = await webhookReceiver([200]);
  for (const [condition, webhook] of [
    ['charger-faulted', true],
    ['nats-unreachable', false],
  ] as const) {
    const patched = await A.call('PATCH', `/api/alert-settings/${condition}`, {
      token: admin.token,
      body: webhook ? { webhookUrl: hook.url, webhookSecret: SECRET } : { thresholdMin: 1 },
    });
    expect(patched.status).toBe(200);
  }
  const put = await B.call('PUT', '/api/alert-subscriptions', {
    token: admin.token,
    body: {
      subscriptions: [
        { condition: 'charger-faulted', inApp: true, mail: true },
        { condition: 'nats-unreachable', inApp: true, mail: true },
      ],
    },
  });
  expect(put.status).toBe(200);
}, 120_000);

afterAll(async () => {
  for (const simulation of simulations) await simulation.stop();
  for (const app of [A, B]) await app?.close();
  for (const nc of buses) await closeBus(nc, A.app.log);
  await hook?.close();
  await nats?.stop();
  await scratch?.drop();
});

/** A charger held by A, one of its connectors Faulted now. */
async function faultedOnA(id: string) {
  await insertChargers(A.database.db, place, [id]);
  const simulation = await simulate(A, [{ id, connectors: 2 }]);
  simulations.push(simulation);
  await waitOnline(A.database.db, id, true);
  await simulation.chargers[0]!.setStatus(1, 'Faulted', 'GroundFailure');
  await waitStatus(A.database.db, id, 1, 'FAULTED');
  return simulation.chargers[0]!;
}

/** The mails both processes wrote since `before` (each has its own outbox) about `subject`. */
const mailsOf = (before: Map<TestApp, string[]>, subject: string) =>
  [A, B]
    .flatMap((app) => mailsSince(app, before.get(app)!))
    .filter((mail) => mail.subject.includes(subject))
    // In the order written (the outbox's file names begin with the time), whichever process wrote each.
    .sort((a, b) => path.basename(a.file).localeCompare(path.basename(b.file)));
const outboxes = () => new Map([A, B].map((app) => [app, outboxFiles(app)]));

it('an incident A opens reaches the bell stream held by B (through NATS)', async () => {
  const stream = await fetch(`${B.url}/api/alerts/stream?accessToken=${admin.token}`);
  expect(stream.status).toBe(200);
  const heard = readEvents(stream, (events) =>
    events.some((e) => (e.data as { subjectId?: string }).subjectId === 'CLS-1'),
  );
  await faultedOnA('CLS-1');
  const result = await A.app.jobs.evaluateAlerts(Date.now() + 10 * MIN);
  const [incident] = await incidentsOf(A.database.db, 'charger-faulted', 'CLS-1');
  expect(result.fired).toContain(incident!.id);
  const events = await heard;
  const event = events.find((e) => (e.data as { subjectId?: string }).subjectId === 'CLS-1')!;
  expect(event.event).toBe(ALERT_STREAM_EVENT);
  expect(event.data).toMatchObject({ id: incident!.id, condition: 'charger-faulted', read: false });
});

it('both processes evaluating at once: one incident, one mail, one webhook', async () => {
  const before = outboxes();
  const sent = hook.received.length;
  await faultedOnA('CLB-1');
  const T = Date.now() + 10 * MIN;
  for (const at of [T, T + 30_000, T + MIN, T + 5 * MIN]) {
    await Promise.all([A.app.jobs.evaluateAlerts(at), B.app.jobs.evaluateAlerts(at)]);
  }
  const incidents = await incidentsOf(A.database.db, 'charger-faulted', 'CLB-1');
  expect(incidents).toHaveLength(1);
  expect(mailsOf(before, 'Charger CLB-1 faulted').map((mail) => [mail.to, mail.subject])).toEqual([
    [admin.user.email, '[EV Alert] Charger CLB-1 faulted'],
  ]);
  const hooks = hook.received.slice(sent).filter((r) => r.body.includes('"CLB-1"'));
  expect(hooks).toHaveLength(1);
  expect(
    (await deliveriesOf(A.database.db, incidents[0]!.id)).map((d) => [d.event, d.channel, d.status]),
  ).toEqual([
    ['fired', 'mail', 'sent'],
    ['fired', 'webhook', 'sent'],
  ]);
});

it('without the advisory lock, the unique indexes alone keep it one incident with one delivery of each', async () => {
  const before = outboxes();
  const sent = hook.received.length;
  await faultedOnA('CLI-1');
  const T = Date.now() + 10 * MIN;
  const ctx = (at: number) => ({ now: new Date(at), watchingSince: new Date(0) });
  for (const at of [T, T + 1000, T + 2000]) {
    await Promise.all([A, B, A, B].map((app) => evaluatePass(app.database.db, ctx(at), { lock: false })));
  }
  const incidents = await incidentsOf(A.database.db, 'charger-faulted', 'CLI-1');
  expect(incidents).toHaveLength(1);
  expect((await deliveriesOf(A.database.db, incidents[0]!.id)).map((d) => d.channel)).toEqual([
    'mail',
    'webhook',
  ]);
  // Both send what is due at once: each row goes out once.
  await Promise.all([A.app.jobs.deliverAlerts(T), B.app.jobs.deliverAlerts(T), A.app.jobs.deliverAlerts(T)]);
  expect(mailsOf(before, 'Charger CLI-1 faulted')).toHaveLength(1);
  expect(hook.received.slice(sent).filter((r) => r.body.includes('"CLI-1"'))).toHaveLength(1);
});

it('NATS out of reach is one alert for the cluster, resolved once every process reaches it again', async () => {
  const before = outboxes();
  // Each pass of both processes moves the job's clock on by 20 s (each process notices the loss, and the
  // return, by itself: the passes go on until both have).
  let clock = Date.now() + MIN;
  const pass = async () => {
    clock += 20_000;
    await Promise.all([A.app.jobs.evaluateAlerts(clock), B.app.jobs.evaluateAlerts(clock)]);
    return incidentsOf(A.database.db, 'nats-unreachable', 'nats');
  };
  await nats.stop();
  try {
    await eventually(async () => (await pass()).length > 0, 20_000);
    for (let i = 0; i < 6; i++) await pass();
    const [incident, ...more] = await incidentsOf(A.database.db, 'nats-unreachable', 'nats');
    expect(more).toEqual([]);
    expect(incident).toMatchObject({ subjectType: 'system', landlordId: null, resolvedAt: null });
  } finally {
    await nats.start();
  }
  // Back: clear once both reach it again, resolved a minute (its threshold) later.
  await eventually(async () => (await pass())[0]!.resolvedAt !== null, 20_000);
  for (let i = 0; i < 6; i++) await pass();
  expect(await incidentsOf(A.database.db, 'nats-unreachable', 'nats')).toHaveLength(1);
  expect(mailsOf(before, 'NATS unreachable').map((mail) => mail.subject)).toEqual([
    '[EV Alert] NATS unreachable',
    '[Resolved] NATS unreachable',
  ]);
}, 60_000);
