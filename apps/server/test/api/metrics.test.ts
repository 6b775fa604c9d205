import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { BOOKING_STATUSES } from '@ev/shared';
import { count, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { bookings } from '../../src/db/schema/index.ts';
import { Lifecycle } from '../../src/lib/lifecycle.ts';
import { createBooking } from '../helpers/bookings.ts';
import { signedInUser } from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually, rpcClient } from '../helpers/ocpp.ts';
import { type Exposition, parseExposition } from '../helpers/prometheus.ts';
import { rawGet as rawHttpGet } from '../helpers/raw-http.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };

async function scrape(t: TestApp): Promise<Exposition> {
  const response = await fetch(`${t.url}/metrics`, { headers: bearer });
  expect(response.status).toBe(200);
  return parseExposition(await response.text());
}

/** GET with this Accept-Encoding, read raw (fetch would decode it): status, headers, body bytes. */
const rawGet = (t: TestApp, path: string, headers: Record<string, string>) =>
  rawHttpGet(`${t.url}${path}`, headers);

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is a 404, with or without a token', async () => {
    const none = await t.call('GET', '/metrics');
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ message: 'Not found' });
    expect((await t.call('GET', '/metrics', { headers: bearer })).status).toBe(404);
  });

  it('is not in the OpenAPI document', async () => {
    const doc = await t.call('GET', '/api/docs/json');
    expect(Object.keys(doc.body.paths)).not.toContain('/metrics');
    expect(Object.keys(doc.body.paths)).toContain('/api/ready');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let admin: string;
  let place: Awaited<ReturnType<typeof chargerPlace>>;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: TOKEN, OCPP_COMMAND_TIMEOUT_MS: '2000' });
    admin = (await signedInUser(t, { role: 'admin' })).token;
    place = await chargerPlace(t);
  });
  afterAll(() => t.close());

  it('refuses a missing or wrong bearer token (401)', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong-token-0123456789012345' },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const response = await t.call('GET', '/metrics', { headers });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.body).toEqual({ message: 'Unauthorized' });
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    expect(t.logs()).not.toContain(TOKEN);
  });

  it('answers the text format, uncached, with HELP and TYPE for every family', async () => {
    const response = await fetch(`${t.url}/metrics`, { headers: bearer });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const metrics = parseExposition(await response.text());
    const ours = [...metrics.types.keys()].filter((name) => name.startsWith('ev_'));
    expect(ours.sort()).toEqual([
      'ev_bookings',
      'ev_http_request_duration_seconds',
      'ev_http_requests_total',
      'ev_ocpp_chargers_connected',
      'ev_ocpp_command_duration_seconds',
      'ev_ocpp_commands_total',
      'ev_ocpp_last_message_age_seconds',
      'ev_ocpp_message_log_dropped_total',
      'ev_ocpp_messages_received_total',
      'ev_payments_amount_baht_total',
      'ev_payments_total',
      'ev_refunds_amount_baht_total',
      'ev_refunds_total',
    ]);
    for (const name of ours) expect(metrics.help.get(name), name).toBeTruthy();
    // The process's own: memory, event loop, heap.
    expect(metrics.find('process_resident_memory_bytes')[0]!.value).toBeGreaterThan(10_000_000);
    expect(metrics.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(metrics.find('nodejs_heap_size_used_bytes')).toHaveLength(1);
  });

  it('compresses as asked, and the compressed text reads the same', async () => {
    const plain = await rawGet(t, '/metrics', { ...bearer, 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const decode = { gzip: promisify(zlib.gunzip), br: promisify(zlib.brotliDecompress) };
    for (const encoding of ['gzip', 'br'] as const) {
      const packed = await rawGet(t, '/metrics', { ...bearer, 'accept-encoding': encoding });
      expect(packed.status).toBe(200);
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(packed.headers['cache-control']).toBe('no-store');
      const text = (await decode[encoding](packed.body)).toString();
      const names = (body: string) => [...parseExposition(body).types.keys()].sort();
      expect(names(text)).toEqual(names(plain.body.toString()));
    }
  });

  it('counts HTTP requests by route pattern and status, never by raw URL', async () => {
    const before = await scrape(t);
    const labels = { method: 'GET', route: '/api/merchant/:id', status_code: '200' };
    expect((await t.call('GET', `/api/merchant/${place.merchant.id}`, { token: admin })).status).toBe(200);
    expect((await t.call('GET', '/api/merchant/987654', { token: admin })).status).toBe(404);
    expect((await t.call('GET', '/api/merchant/987654')).status).toBe(401);
    expect((await t.call('GET', '/no/such/path/4242')).status).toBe(404);
    const after = await scrape(t);
    const moved = (labels: Record<string, string>) =>
      after.sum('ev_http_requests_total', labels) - before.sum('ev_http_requests_total', labels);
    expect(moved(labels)).toBe(1);
    expect(moved({ ...labels, status_code: '404' })).toBe(1);
    expect(moved({ ...labels, status_code: '401' })).toBe(1);
    expect(moved({ route: 'unmatched', status_code: '404' })).toBe(1);
    expect(after.sum('ev_http_request_duration_seconds_count', labels)).toBe(
      after.sum('ev_http_requests_total', labels),
    );
    expect(after.find('ev_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })[0]?.value).toBe(
      after.sum('ev_http_requests_total', labels),
    );
    const routes = new Set(after.find('ev_http_requests_total').map((sample) => sample.labels.route));
    expect([...routes].filter((route) => /\d{3}|4242/.test(route ?? ''))).toEqual([]);
  });

  it('counts a charger connected, its calls by action and outcome, and a command with its round trip', async () => {
    const [created] = await createChargers(t, admin, place, ['MET-01'], { judjodId: 77 });
    const before = await scrape(t);
    expect(before.sum('ev_ocpp_chargers_connected')).toBe(0);

    const client = rpcClient(t, 'MET-01');
    client.handle('DataTransfer', async () => ({ status: 'Accepted' }));
    await client.connect();
    const boot = (await client.call('BootNotification', {
      chargePointVendor: 'Metrics',
      chargePointModel: 'M1',
    })) as { status: string };
    expect(boot.status).toBe('Accepted');
    // The central knows no vendor extension: answered, with a refusal.
    const transfer = (await client.call('DataTransfer', { vendorId: 'Nobody' })) as { status: string };
    expect(transfer.status).toBe('UnknownVendorId');
    // A frame that is not JSON, a call its schema refuses, an action OCPP 1.6 does not have.
    const refusals: unknown[] = [];
    client.on('message', ({ outbound }: { outbound: boolean }) => outbound || refusals.push(1));
    client.sendRaw('not json');
    client.sendRaw(JSON.stringify([2, 'bad-1', 'BootNotification', { chargePointVendor: 42 }]));
    client.sendRaw(JSON.stringify([2, 'bad-2', 'NoSuchAction', {}]));
    await eventually(async () => refusals.length >= 3);

    const opened = await t.call('POST', `/api/connector/${created!.connectorIds[0]}/open-blocker`, {
      token: admin,
    });
    expect(opened.status).toBe(200);

    const during = await scrape(t);
    const moved = (name: string, labels: Record<string, string>) =>
      during.sum(name, labels) - before.sum(name, labels);
    expect(during.sum('ev_ocpp_chargers_connected')).toBe(1);
    expect(during.sum('ev_ocpp_last_message_age_seconds')).toBeLessThan(5);
    const received = 'ev_ocpp_messages_received_total';
    expect(moved(received, { action: 'BootNotification', outcome: 'accepted' })).toBe(1);
    expect(moved(received, { action: 'BootNotification', outcome: 'invalid' })).toBe(1);
    expect(moved(received, { action: 'DataTransfer', outcome: 'rejected' })).toBe(1);
    expect(moved(received, { action: 'other', outcome: 'invalid' })).toBe(1);
    expect(moved(received, { action: 'malformed', outcome: 'invalid' })).toBe(1);
    expect(during.find(received).every((sample) => sample.labels.action !== 'NoSuchAction')).toBe(true);
    expect(moved('ev_ocpp_commands_total', { action: 'DataTransfer', outcome: 'accepted' })).toBe(1);
    const rtt = { action: 'DataTransfer' };
    expect(moved('ev_ocpp_command_duration_seconds_count', rtt)).toBe(1);
    const seconds = moved('ev_ocpp_command_duration_seconds_sum', rtt);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(2);

    await client.close();
    const after = await eventually(async () => {
      const metrics = await scrape(t);
      return metrics.sum('ev_ocpp_chargers_connected') === 0 ? metrics : null;
    });
    // Offline: counted, nothing sent, no round trip.
    expect(
      (await t.call('POST', `/api/connector/${created!.connectorIds[0]}/open-blocker`, { token: admin }))
        .status,
    ).toBe(409);
    const offline = await scrape(t);
    expect(
      offline.sum('ev_ocpp_commands_total', { action: 'DataTransfer', outcome: 'offline' }) -
        after.sum('ev_ocpp_commands_total', { action: 'DataTransfer', outcome: 'offline' }),
    ).toBe(1);
    expect(offline.sum('ev_ocpp_command_duration_seconds_count', rtt)).toBe(
      after.sum('ev_ocpp_command_duration_seconds_count', rtt),
    );
  });

  it('counts a payment and a refund once each, with their baht', async () => {
    const [created] = await createChargers(t, admin, place, ['MET-PAY']);
    const booking = await createBooking(t, created!.connectorIds[0]!, 'stopped', {
      adminAmount: '123.45',
      totalAmount: '123.45',
    });
    const before = await scrape(t);
    const paid = await t.call('POST', `/api/booking/${booking.id}/pay`, { token: admin });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    // A second click pays nothing more.
    expect((await t.call('POST', `/api/booking/${booking.id}/pay`, { token: admin })).status).toBe(409);
    const payments = await t.call('GET', `/api/payment?bookingId=${booking.id}`, { token: admin });
    const payment = payments.body.payments[0];
    const refunded = await t.call('POST', `/api/payment/${payment.id}/refund`, {
      token: admin,
      body: { amount: 23.45 },
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const after = await scrape(t);
    const moved = (name: string, labels: Record<string, string> = {}) =>
      Math.round((after.sum(name, labels) - before.sum(name, labels)) * 100) / 100;
    expect(moved('ev_payments_total')).toBe(1);
    expect(moved('ev_payments_total', { method: 'manual', outcome: 'manual' })).toBe(1);
    expect(moved('ev_payments_amount_baht_total', { method: 'manual' })).toBe(123.45);
    expect(moved('ev_refunds_total', { method: 'manual', outcome: 'manual' })).toBe(1);
    expect(moved('ev_refunds_amount_baht_total')).toBe(23.45);
  });

  it('is ready (GET /api/ready), uncached', async () => {
    const response = await t.call('GET', '/api/ready');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready' });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('is 503 once stopping, while /api/health (liveness) stays 200', async () => {
    t.app.lifecycle.markStopping();
    const stopping = await t.call('GET', '/api/ready');
    expect(stopping.status).toBe(503);
    expect(stopping.body).toEqual({ message: 'Shutting down' });
    expect((await t.call('GET', '/api/health')).status).toBe(200);
  });
});

describe('bookings by status', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: TOKEN });
    const admin = (await signedInUser(t, { role: 'admin' })).token;
    const [created] = await createChargers(t, admin, await chargerPlace(t), ['MET-BOOK']);
    const connectorId = created!.connectorIds[0]!;
    for (const status of ['paid', 'paid', 'stopped', 'cancelled', 'created'] as const) {
      await createBooking(t, connectorId, status);
    }
    // Deleted: out of every list, and out of the counts.
    await createBooking(t, connectorId, 'paid', { deletedAt: new Date() });
  });
  afterAll(() => t.close());

  it('add up to the bookings, every status present; counted again only after the cache time', async () => {
    const metrics = await scrape(t);
    const rows = await t.database.db
      .select({ status: bookings.status, n: count() })
      .from(bookings)
      .where(isNull(bookings.deletedAt))
      .groupBy(bookings.status);
    const [{ total }] = (await t.database.db
      .select({ total: count() })
      .from(bookings)
      .where(isNull(bookings.deletedAt))) as [{ total: number }];
    expect(total).toBe(5);
    expect(metrics.sum('ev_bookings')).toBe(total);
    expect(
      metrics
        .find('ev_bookings')
        .map((sample) => sample.labels.status)
        .sort(),
    ).toEqual([...BOOKING_STATUSES].sort());
    for (const row of rows)
      expect(metrics.sum('ev_bookings', { status: row.status }), row.status).toBe(row.n);
    expect(metrics.sum('ev_bookings', { status: 'charging' })).toBe(0);

    await t.database.db.execute(sql`update bookings set status = 'paid' where status = 'stopped'`);
    expect((await scrape(t)).sum('ev_bookings', { status: 'stopped' })).toBe(1);
  });
});

describe('GET /api/ready', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is 503 while the server is not listening yet', async () => {
    const lifecycle = new Lifecycle();
    const app = await buildApp({
      db: t.database.db,
      databaseKind: t.database.kind,
      config: t.config,
      lifecycle,
      logStream: new Writable({ write: (_chunk, _encoding, done) => done() }),
    });
    try {
      expect(app.lifecycle).toBe(lifecycle);
      const response = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ message: 'Starting: the server is not listening yet' });
      expect(lifecycle.state).toBe('starting');
    } finally {
      await app.close();
    }
    expect(lifecycle.state).toBe('stopping');
  });

  it('is 503 until the latest migration is applied, then 200 (checked until true once)', async () => {
    const db = t.database.db;
    const latest = () =>
      db.execute(sql`delete from drizzle.__drizzle_migrations
        where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning hash, created_at`);
    const restore = (row: { hash: string; created_at: string | number }) =>
      db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at)
        values (${row.hash}, ${row.created_at})`);
    type Row = { rows: Array<{ hash: string; created_at: string | number }> };
    const removed = ((await latest()) as unknown as Row).rows[0]!;
    const missing = await t.call('GET', '/api/ready');
    expect(missing.status).toBe(503);
    expect(missing.body.message).toMatch(/^Database migrations are not applied \(latest: \d{4}_\w+\)$/);
    await restore(removed);
    expect((await t.call('GET', '/api/ready')).status).toBe(200);
    // Known applied: not asked again (a round trip is all a probe costs from now on).
    const again = ((await latest()) as unknown as Row).rows[0]!;
    expect((await t.call('GET', '/api/ready')).status).toBe(200);
    await restore(again);
  });

  it('is 200 when up, 503 once the database is gone', async () => {
    expect(t.app.lifecycle.state).toBe('ready');
    const probes = await Promise.all([1, 2, 3].map(() => t.call('GET', '/api/ready')));
    expect(probes.map((probe) => probe.status)).toEqual([200, 200, 200]);

    await t.database.close();
    // Closed here: the helper's close must not close it twice.
    t.database.close = async () => {};
    const unreachable = await t.call('GET', '/api/ready');
    expect(unreachable.status).toBe(503);
    expect(unreachable.body).toEqual({ message: 'Database unreachable' });
    expect(unreachable.headers.get('cache-control')).toBe('no-store');
    expect(t.logs()).toContain('readiness: the database does not answer');
  });
});
