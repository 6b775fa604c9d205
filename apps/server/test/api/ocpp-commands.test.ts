import http from 'node:http';
import { Readable } from 'node:stream';
import { BATCH_MESSAGES } from '@ev/shared';
import type { SimulatorEvent } from '@ev/tools/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLandlord, createMerchant, signedInUser } from '../helpers/factories.ts';
import {
  chargerPlace,
  createChargers,
  eventually,
  readEvents,
  type StreamEvent,
  simulate,
} from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const BATCH_TOKEN = 'batch-token-for-tests-0123456789';
let t: TestApp;
let admin: string;
let place: Awaited<ReturnType<typeof chargerPlace>>;
const seen: SimulatorEvent[] = [];
let behaviours = new Map<string, 'silent' | 'reject' | 'not-supported'>();
const options = {
  onEvent: (event: SimulatorEvent) => seen.push(event),
  behaviour: (id: string) => behaviours.get(id) ?? 'normal',
};

beforeAll(async () => {
  t = await startTestApp({
    OCPP_COMMAND_TIMEOUT_MS: '1000',
    BATCH_COMMAND_TOKEN: BATCH_TOKEN,
    BATCH_CONCURRENCY: '8',
  });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  place = await chargerPlace(t);
});
afterAll(() => t.close());

describe('blockers', () => {
  let connectorId: number;
  let simulation: Awaited<ReturnType<typeof simulate>>;
  const blocker = (action: string, id = connectorId, token = admin) =>
    t.call('POST', `/api/connector/${id}/${action}-blocker`, { token });

  beforeAll(async () => {
    const [created] = await createChargers(t, admin, place, ['BLOCK-01'], { judjodId: 512 });
    connectorId = created!.connectorIds[0]!;
  });
  afterAll(() => simulation?.stop());

  it('is offline until the charger connects (409, saying so)', async () => {
    const response = await blocker('open');
    expect(response.status).toBe(409);
    expect(response.body.message).toBe('Charger BLOCK-01 is offline.');
  });

  it('sends DataTransfer OpenBlocker / CloseBlocker with the judjodId to the charger', async () => {
    simulation = await simulate(t, [{ id: 'BLOCK-01', connectors: 2 }], options);
    const opened = await blocker('open');
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({ message: 'Send open blocker successfully!' });
    const closed = await blocker('close');
    expect(closed.body).toEqual({ message: 'Send close blocker successfully!' });
    const transfers = seen.filter(
      (e) => e.type === 'command' && e.id === 'BLOCK-01' && e.action === 'DataTransfer',
    );
    expect(transfers.map((e) => (e as { params: unknown }).params)).toEqual([
      { vendorId: 'JudJod', messageId: 'OpenBlocker', data: JSON.stringify({ judjodId: 512, connectorId }) },
      { vendorId: 'JudJod', messageId: 'CloseBlocker', data: JSON.stringify({ judjodId: 512, connectorId }) },
    ]);
  });

  it('says when the charger rejected the command (502) or did not answer (504)', async () => {
    behaviours.set('BLOCK-01', 'reject');
    const rejected = await blocker('open');
    expect(rejected.status).toBe(502);
    expect(rejected.body.message).toBe('Charger BLOCK-01 rejected the open blocker command (Rejected).');
    behaviours.set('BLOCK-01', 'silent');
    const silent = await blocker('close');
    expect(silent.status).toBe(504);
    expect(silent.body.message).toBe('Charger BLOCK-01 did not answer the close blocker command within 1 s.');
    behaviours = new Map();
  });

  it('refuses a connector without a blocker (400) and one outside the scope (404)', async () => {
    const [plain] = await createChargers(t, admin, place, ['PLAIN-01']);
    const none = await blocker('open', plain!.connectorIds[0]!);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('This connector has no blocker (Judjod Id).');
    const other = await createMerchant(t);
    const otherSite = await createLandlord(t, other.id);
    const outsider = (
      await signedInUser(t, { role: 'landlord', merchantId: other.id, landlordId: otherSite.id })
    ).token;
    expect((await blocker('open', connectorId, outsider)).status).toBe(404);
    expect((await blocker('open', 999_999_999)).status).toBe(404);
  });
});

const batch = (path: string, query: Record<string, string>, token = admin) =>
  fetch(`${t.url}/api/charger/batch/${path}?${new URLSearchParams(query)}`, {
    headers: { 'x-access-token': token },
  });
/** A GET carrying a request body (fetch refuses one), answered as a fetch Response. */
const getWithBody = (path: string, body: string, type = 'application/json') =>
  new Promise<Response>((resolve, reject) => {
    const request = http.request(
      `${t.url}${path}`,
      {
        method: 'GET',
        headers: { 'x-access-token': admin, 'content-type': type, 'content-length': Buffer.byteLength(body) },
      },
      (answer) =>
        resolve(
          new Response(Readable.toWeb(answer) as ReadableStream, {
            status: answer.statusCode,
            headers: answer.headers as Record<string, string>,
          }),
        ),
    );
    request.on('error', reject);
    request.end(body);
  });
const eventData = (events: StreamEvent[], name: string) => {
  const found = events.find((e) => e.event === name);
  if (!found) throw new Error(`no ${name} event`);
  return found.data;
};
const updates = (events: StreamEvent[]) =>
  events.filter((e) => e.event === 'update').map((e) => e.data as { id: string; result: string });

describe('batch commands', () => {
  let fleet: string[];
  let simulation: Awaited<ReturnType<typeof simulate>>;

  beforeAll(async () => {
    fleet = Array.from({ length: 50 }, (_, i) => `FLEET-${String(i + 1).padStart(2, '0')}`);
    await createChargers(t, admin, place, fleet, { connectors: 1 });
  });
  afterAll(() => simulation?.stop());

  it('refuses a bad or missing batch token, and roles other than admin', async () => {
    const before = (await t.call('GET', '/api/charger/batch/jobs', { token: admin })).body.total;
    const bad = await batch('hard-reset', { token: 'not-the-token' });
    expect(bad.status).toBe(403);
    expect(await bad.json()).toEqual({ message: 'The batch token is not valid.' });
    expect((await batch('hard-reset', {})).status).toBe(400);
    const callcenter = (await signedInUser(t, { role: 'callcenter' })).token;
    expect((await batch('hard-reset', { token: BATCH_TOKEN }, callcenter)).status).toBe(403);
    expect((await t.call('GET', '/api/charger/batch/jobs', { token: admin })).body.total).toBe(before);
  });

  it('hard-resets 50 chargers: 5 offline, 5 silent; each reported once, offline at once, and the stream ends', async () => {
    const offline = fleet.slice(0, 5);
    const silent = fleet.slice(5, 10);
    for (const id of silent) behaviours.set(id, 'silent');
    simulation = await simulate(
      t,
      fleet.slice(5).map((id) => ({ id, connectors: 1 })),
      options,
    );
    expect(simulation.failed).toEqual([]);
    const bootsBefore = seen.filter((e) => e.type === 'booted').length;

    // The session travels in the query here, as the spec's browser sends it.
    const response = await fetch(
      `${t.url}/api/charger/batch/hard-reset?${new URLSearchParams({ accessToken: admin, token: BATCH_TOKEN })}`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readEvents(response);
    const total = events.find((e) => e.event === 'size')?.data as number;
    expect(total).toBeGreaterThanOrEqual(50);
    const results = updates(events);
    expect(results).toHaveLength(total);
    expect(new Set(results.map((r) => r.id)).size).toBe(total);
    const resultOf = new Map(results.map((r) => [r.id, r.result]));
    for (const id of offline) expect(resultOf.get(id)).toBe('Offline');
    for (const id of silent) expect(resultOf.get(id)).toBe('Timeout');
    for (const id of fleet.slice(10)) expect(resultOf.get(id)).toBe('Accepted');
    // Offline chargers come first: nobody waits on them.
    const firstAnswered = results.findIndex((r) => r.result !== 'Offline');
    expect(results.slice(firstAnswered).some((r) => r.result === 'Offline')).toBe(false);
    expect(events.some((e) => e.event === 'error')).toBe(false);

    // The job is kept, with its results; the reset chargers came back.
    const jobId = (eventData(events, 'job') as { id: number }).id;
    const jobs = (await t.call('GET', '/api/charger/batch/jobs', { token: admin })).body.jobs;
    expect(jobs[0]).toMatchObject({ id: jobId, kind: 'hard-reset', status: 'finished', total, done: total });
    expect(jobs[0].counts).toMatchObject({ Offline: total - 45, Timeout: 5, Accepted: 40 });
    const csv = await t.call('GET', `/api/charger/batch/jobs/${jobId}/csv`, { token: admin });
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="Hard-Reset_\d+\.csv"/);
    const lines = (csv.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('Charger Id,Result,Detail,Time');
    expect(lines).toHaveLength(total + 1);
    expect(lines.find((line) => line.startsWith('FLEET-06,'))).toMatch(/^FLEET-06,Timeout,/);
    await eventually(async () => seen.filter((e) => e.type === 'booted').length >= bootsBefore + 40);
    // Neither token reaches the logs.
    expect(t.logs()).not.toContain(BATCH_TOKEN);
    expect(t.logs()).not.toContain(admin);
    behaviours = new Map();
  });

  it('finishes the job when the browser closes the stream half-way', async () => {
    for (const id of fleet.slice(10, 20)) behaviours.set(id, 'silent');
    const bootsBefore = seen.filter((e) => e.type === 'booted').length;
    const response = await batch('hard-reset', { token: BATCH_TOKEN });
    const events = await readEvents(response, (so) => so.some((e) => e.event === 'job'));
    const jobId = (eventData(events, 'job') as { id: number }).id;
    const total = events.find((e) => e.event === 'size')?.data as number;
    const job = await eventually(async () => {
      const jobs = (await t.call('GET', '/api/charger/batch/jobs', { token: admin })).body.jobs;
      const found = jobs.find((j: { id: number }) => j.id === jobId);
      return found?.status === 'finished' ? found : null;
    });
    expect(job.done).toBe(total);
    expect(job.counts.Timeout).toBe(10);
    // The chargers that took the reset are back before the next test talks to them (a reset one still away
    // would be Offline to it).
    await eventually(
      async () => seen.filter((e) => e.type === 'booted').length >= bootsBefore + job.counts.Accepted,
    );
    behaviours = new Map();
  });

  it('Config All sends each key to each charger and reports the worst answer', async () => {
    const accepted = await batch('config', {
      token: BATCH_TOKEN,
      configurations: JSON.stringify([
        { key: 'HeartbeatInterval', value: '120' },
        { key: 'MeterValueSampleInterval', value: '30' },
      ]),
    });
    const results = updates(await readEvents(accepted));
    expect(results.filter((r) => r.result === 'Accepted').length).toBe(45);
    const sim = simulation.chargers.find((c) => c.spec.id === 'FLEET-30')!;
    await eventually(async () => sim.configuration.get('MeterValueSampleInterval') === '30');
    expect(sim.configuration.get('HeartbeatInterval')).toBe('120');

    const unknownKey = await batch('config', {
      token: BATCH_TOKEN,
      configurations: JSON.stringify([{ key: 'VendorSpecificThing', value: '1' }]),
    });
    const mixed = updates(await readEvents(unknownKey));
    expect(mixed.find((r) => r.id === 'FLEET-30')?.result).toBe('NotSupported');
  });

  it('refuses malformed configurations with the form messages', async () => {
    const empty = await batch('config', { token: BATCH_TOKEN, configurations: '[]' });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { message: string }).message).toContain(
      'Add at least one configuration.',
    );
    const notJson = await batch('config', { token: BATCH_TOKEN, configurations: '{oops' });
    expect(notJson.status).toBe(400);
    const duplicate = await batch('config', {
      token: BATCH_TOKEN,
      configurations: JSON.stringify([
        { key: 'HeartbeatInterval', value: '1' },
        { key: 'HeartbeatInterval', value: '2' },
      ]),
    });
    expect(((await duplicate.json()) as { message: string }).message).toContain('Each key may appear once.');
    const nul = await batch('config', {
      token: BATCH_TOKEN,
      configurations: JSON.stringify([{ key: 'HeartbeatInterval', value: '1\u0000' }]),
    });
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { message: string }).message).toBe(
      `querystring.configurations.0.value: ${BATCH_MESSAGES.nul}`,
    );
  });

  it('Config All takes the list as the spec names it too: a `body` parameter or a JSON body on the GET', async () => {
    const jobOf = async (response: Response) => {
      expect(response.status).toBe(200);
      const events = await readEvents(response);
      expect(updates(events).filter((r) => r.result === 'Accepted').length).toBe(45);
      const jobId = (eventData(events, 'job') as { id: number }).id;
      const jobs = (await t.call('GET', '/api/charger/batch/jobs', { token: admin })).body.jobs;
      return jobs.find((job: { id: number }) => job.id === jobId);
    };
    const sim = simulation.chargers.find((c) => c.spec.id === 'FLEET-30')!;

    const asParameter = [{ key: 'HeartbeatInterval', value: '90' }];
    const viaParameter = await batch('config', {
      token: BATCH_TOKEN,
      body: JSON.stringify({ configurations: asParameter }),
    });
    expect(await jobOf(viaParameter)).toMatchObject({ kind: 'config', configurations: asParameter });
    await eventually(async () => sim.configuration.get('HeartbeatInterval') === '90');

    const asBody = [
      { key: 'MeterValueSampleInterval', value: '45' },
      { key: 'ConnectionTimeOut', value: '60' },
    ];
    const viaBody = await getWithBody(
      `/api/charger/batch/config?token=${BATCH_TOKEN}`,
      JSON.stringify({ configurations: asBody }),
    );
    expect(await jobOf(viaBody)).toMatchObject({ kind: 'config', configurations: asBody });
    await eventually(async () => sim.configuration.get('MeterValueSampleInterval') === '45');
  });

  it('Config All refuses two forms at once, none, malformed JSON and unknown keys (400), other types (415)', async () => {
    const before = (await t.call('GET', '/api/charger/batch/jobs', { token: admin })).body.total;
    const pairs = [{ key: 'HeartbeatInterval', value: '60' }];
    const refusals: Array<[Promise<Response>, number, string]> = [
      [
        batch('config', {
          token: BATCH_TOKEN,
          configurations: JSON.stringify(pairs),
          body: JSON.stringify({ configurations: pairs }),
        }),
        400,
        BATCH_MESSAGES.once,
      ],
      [
        getWithBody(
          `/api/charger/batch/config?${new URLSearchParams({ token: BATCH_TOKEN, configurations: JSON.stringify(pairs) })}`,
          JSON.stringify({ configurations: pairs }),
        ),
        400,
        BATCH_MESSAGES.once,
      ],
      [
        batch('config', { token: BATCH_TOKEN }),
        400,
        `querystring.configurations: ${BATCH_MESSAGES.configurations}`,
      ],
      [
        batch('config', { token: BATCH_TOKEN, body: '{oops' }),
        400,
        `querystring.body: ${BATCH_MESSAGES.bodyJson}`,
      ],
      [
        batch('config', { token: BATCH_TOKEN, body: JSON.stringify(pairs) }),
        400,
        `querystring.body: ${BATCH_MESSAGES.bodyJson}`,
      ],
      [
        getWithBody(`/api/charger/batch/config?token=${BATCH_TOKEN}`, '{oops'),
        400,
        `body: ${BATCH_MESSAGES.bodyJson}`,
      ],
      [
        getWithBody(`/api/charger/batch/config?token=${BATCH_TOKEN}`, JSON.stringify({ configurations: [] })),
        400,
        `body.configurations: ${BATCH_MESSAGES.configurations}`,
      ],
      [
        getWithBody(
          `/api/charger/batch/config?token=${BATCH_TOKEN}`,
          JSON.stringify({ configurations: pairs, foo: 1 }),
        ),
        400,
        'body: Unrecognized key: "foo"',
      ],
      [
        getWithBody(
          `/api/charger/batch/config?token=${BATCH_TOKEN}`,
          JSON.stringify({ configurations: pairs }),
          'text/plain',
        ),
        415,
        'Unsupported Media Type: text/plain (send application/json)',
      ],
    ];
    for (const [pending, status, message] of refusals) {
      const response = await pending;
      expect(response.status, message).toBe(status);
      expect(await response.json(), message).toEqual({ message });
    }
    expect((await t.call('GET', '/api/charger/batch/jobs', { token: admin })).body.total).toBe(before);
  });
});
