import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/modules/auth/auth.service.ts';
import {
  createCharger,
  createChargerBrand,
  createGuide,
  createLandlord,
  createLegalPage,
  createMerchant,
  createParty,
  createPrice,
  createUser,
  signedInUser,
} from '../helpers/factories.ts';
import { type FuzzCase, fixedCases, randomCases, refusesUnknownKeys } from '../helpers/fuzz-cases.ts';
import { Findings, rootCause } from '../helpers/fuzz-report.ts';
import type { FuzzContext } from '../helpers/fuzz-schema.ts';
import { enc, truncate } from '../helpers/fuzz-values.ts';
import { listOperations, type Operation } from '../helpers/openapi.ts';
import { CRLF, rawCases, rawHttp, rawVerdict } from '../helpers/raw-http.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Fuzzes every operation of our OpenAPI document through real HTTP: fixed hostile values for each path,
 * query and body field (at most FUZZ_FIXED per operation, taken field by field in turn), then FUZZ_RUNS
 * random valid-looking requests per operation with one thing broken (fast-check, seed FUZZ_SEED). No answer
 * may be a 5xx, every 4xx is `{ message }` JSON, a write refuses unknown keys, and the server keeps
 * answering. Every finding is collected and reported in one assertion.
 * FUZZ_BUDGET_S is a safety net for very slow machines: past it, each operation left sends only its first
 * 20 cases; cut cases are counted and printed, never silently.
 * Deeper: FUZZ_RUNS=500 FUZZ_FIXED=all FUZZ_BUDGET_S=1800 (see README).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const FIXED = process.env.FUZZ_FIXED === 'all' ? Infinity : Number(process.env.FUZZ_FIXED ?? 80);
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_610);
// Far above a normal run (about 20 s on PGlite, 2 cores), so the cases sent are the same on a busy machine:
// a finding must not come and go with the load.
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_S ?? 120) * 1000;
/** Cases per operation still sent once the budget is spent. */
const AFTER_DEADLINE = 20;
const REQUEST_TIMEOUT_MS = 10_000;
/** FUZZ_VERBOSE=1 prints every answer's status. */
const VERBOSE = process.env.FUZZ_VERBOSE === '1';
const BATCH_TOKEN = 'fuzz-batch-command-token';

let t: TestApp;
let admin: string;
let adminId: number;
let ctx: FuzzContext;
// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is arbitrary JSON
let doc: any;

beforeAll(async () => {
  // Metrics on: every hostile request also passes the HTTP metrics hook.
  t = await startTestApp({
    BATCH_COMMAND_TOKEN: BATCH_TOKEN,
    METRICS_TOKEN: 'fuzz-metrics-token-0123456789',
  });
  const signedIn = await signedInUser(t, { role: 'admin' });
  admin = signedIn.token;
  adminId = signedIn.user.id;
  const merchant = await createMerchant(t);
  const landlord = await createLandlord(t, merchant.id);
  const party = await createParty(t, [landlord.id]);
  const brand = await createChargerBrand(t);
  const price = await createPrice(t);
  const { charger, connector } = await createCharger(t, {
    landlordId: landlord.id,
    chargerBrandId: brand.id,
    priceId: price.id,
  });
  const user = await createUser(t, { role: 'landlord', landlordId: landlord.id });
  const terms = await createLegalPage(t, 'terms');
  const privacy = await createLegalPage(t, 'privacy');
  const tutorial = await createGuide(t);
  // A promotion of three codes, for its paths and its codes' CSV.
  const promotion = await t.call('POST', '/api/promotion', {
    token: admin,
    body: {
      type: 'point',
      code: 'FUZZPOINT',
      nameEn: 'Fuzz points',
      nameTh: 'แต้มทดสอบ',
      internal: false,
      expose: false,
      validFrom: '2026-01-01T00:00:00.000+07:00',
      validTo: '2027-01-01T00:00:00.000+07:00',
      point: 10,
      count: 3,
    },
  });
  expect(promotion.status, JSON.stringify(promotion.body)).toBe(200);
  // A pending green-point rate card (a year ahead: only pending cards may change or go).
  const yearAhead = (hours: number) => new Date(Date.now() + (365 * 24 + hours) * 3_600_000).toISOString();
  const point = await t.call('POST', '/api/point', {
    token: admin,
    body: { fromBaht: 10, toPoint: 1, fromPoint: 100, toBaht: 10, validFrom: yearAhead(0) },
  });
  expect(point.status, JSON.stringify(point.body)).toBe(200);
  // One batch job (the charger is offline, so the stream ends at once) for the job CSV path.
  const batch = await t.call('GET', `/api/charger/batch/hard-reset?token=${BATCH_TOKEN}`, { token: admin });
  expect(batch.status).toBe(200);
  const jobs = await t.call('GET', '/api/charger/batch/jobs', { token: admin });
  const jobId: number = jobs.body.jobs[0].id;
  // A firmware file for the firmware paths and bodies (issue 32).
  const firmwareForm = new FormData();
  firmwareForm.append('file', new Blob([new Uint8Array(2048).fill(7)]), 'fuzz-1.0.bin');
  const firmware = await fetch(`${t.url}/api/charger-file?version=1.0&chargerBrandId=${brand.id}`, {
    method: 'POST',
    headers: { 'x-access-token': admin },
    body: firmwareForm,
  });
  expect(firmware.status).toBe(201);
  const firmwareId: number = ((await firmware.json()) as { file: { id: number } }).file.id;

  const response = await t.call('GET', '/api/docs/json');
  expect(response.status).toBe(200);
  doc = response.body;
  let n = 0;
  const unique = () => `${Date.now().toString(36)}${(n++).toString(36)}`;
  ctx = {
    document: doc,
    bodyValues: {
      merchantId: () => merchant.id,
      landlordId: () => landlord.id,
      landlordIds: (s) => (s.type === 'array' ? [landlord.id] : landlord.id),
      partyId: () => party.id,
      priceId: () => price.id,
      chargerBrandId: () => brand.id,
      connectorTypeId: () => connector.connectorTypeId,
      provinceId: () => 1,
      termsId: () => terms.id,
      privacyId: () => privacy.id,
      email: (s) => `f${unique()}@e.co`.slice(-(s.maxLength ?? 255)),
      phone: () => '021-234-5678',
      id: (s) => (s.type === 'string' ? `FZ-${unique()}` : 700_000_000 + n++),
      token: () => `fz-${unique()}`,
      fileId: () => firmwareId,
      retrieveDate: () => new Date().toISOString(),
    },
    queryValues: {
      token: () => BATCH_TOKEN,
      configurations: () => '[{"key":"HeartbeatInterval","value":"60"}]',
    },
    bodyOverrides: {
      // A charger keeps its id and every connector it has.
      'PATCH /api/charger/{id}': {
        id: charger.id,
        connectors: [
          {
            id: connector.id,
            token: connector.token,
            nameEn: connector.nameEn,
            nameTh: connector.nameTh,
            connectorTypeId: connector.connectorTypeId,
            maxPowerKw: Number(connector.maxPowerKw),
            priceId: connector.priceId,
          },
        ],
      },
      // A rate card starts in the future, each at an instant of its own (the example dates are wall times).
      'POST /api/point': { validFrom: yearAhead(1) },
      'PATCH /api/point/{id}': { validFrom: yearAhead(2) },
    },
    sparedPathIds: { '/api/user/{id}': [String(adminId)] },
    pathIds: {
      '/api/merchant/{id}': String(merchant.id),
      '/api/landlord/{id}': String(landlord.id),
      '/api/party/{id}': String(party.id),
      '/api/user/{id}': String(user.id),
      '/api/price/{id}': String(price.id),
      '/api/charger-brand/{id}': String(brand.id),
      '/api/charger/{id}': enc(charger.id),
      '/api/connector/{id}/open-blocker': String(connector.id),
      '/api/connector/{id}/close-blocker': String(connector.id),
      '/api/charger/batch/jobs/{id}/csv': String(jobId),
      '/api/charger/{id}/firmware': enc(charger.id),
      '/api/charger/{id}/diagnostics': enc(charger.id),
      '/api/charger/{id}/file': enc(charger.id),
      '/api/charger-file/{id}': String(firmwareId),
      '/api/charger-file/{id}/download': String(firmwareId),
      '/api/charger-brand/{id}/firmware': String(brand.id),
      '/api/page/{id}': String(tutorial.id),
      '/api/promotion/{id}': String(promotion.body.id),
      '/api/promotion/{id}/code': String(promotion.body.id),
      '/api/point/{id}': String(point.body.id),
      '/api/alert-settings/{condition}': 'refund-pending',
    },
  };
});
afterAll(() => t?.close());

interface Answer {
  status: number;
  type: string;
  text: string;
  error?: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const urlOf = (op: Operation, c: FuzzCase) =>
  op.path.replace(/\{(\w+)\}/g, (_all, name: string) => c.path[name] ?? '') +
  (c.query.length ? `?${c.query.map(([key, value]) => `${key}=${value}`).join('&')}` : '');

async function tokenFor(op: Operation, c: FuzzCase): Promise<string | undefined> {
  if (c.auth === 'none') return undefined;
  if (c.auth === 'bogus') return 'not-a-session-token';
  // Logout ends the session it is sent with: give it one of its own.
  if (op.key === 'POST /api/auth/logout') return createSession(t.database.db, adminId, 60_000);
  return admin;
}

/** Sends one case; an event stream is read for at most a second, a file only for its status. */
async function send(op: Operation, c: FuzzCase): Promise<Answer> {
  const headers: Record<string, string> = {};
  const token = await tokenFor(op, c);
  if (token) headers['x-access-token'] = token;
  const hasBody = c.body !== undefined && op.method !== 'GET' && op.method !== 'HEAD';
  if (hasBody) headers['content-type'] = c.body!.type;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('no answer in time')), REQUEST_TIMEOUT_MS);
  try {
    const response = await fetch(t.url + urlOf(op, c), {
      method: op.method,
      headers,
      body: hasBody ? c.body!.text : undefined,
      signal: controller.signal,
    });
    const type = response.headers.get('content-type') ?? '';
    let text: string;
    if (type.includes('text/event-stream')) {
      const reader = response.body!.getReader();
      const first = await Promise.race([reader.read(), sleep(1000).then(() => null)]);
      text = first?.value ? new TextDecoder().decode(first.value) : '';
      await reader.cancel().catch(() => {});
    } else if (!/json|text\/plain|text\/html/.test(type) && response.ok) {
      await response.arrayBuffer();
      text = `(${type || 'no content type'})`;
    } else text = await response.text();
    return { status: response.status, type, text };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { status: 0, type: '', text: '', error: cause ?? (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/** The status of each operation's valid-looking request (per body branch): `POST /api/x#0` -> 200. */
const baseStatus = new Map<string, number>();

/** What is wrong with an answer, if anything. */
function verdict(op: Operation, c: FuzzCase, a: Answer): string | null {
  if (a.error) return `no answer (${a.error})`;
  if (a.status >= 500) return `${a.status}`;
  if (a.status >= 400) {
    if (!a.type.includes('application/json')) return `${a.status} without JSON (${a.type || 'no type'})`;
    let message: unknown;
    try {
      message = JSON.parse(a.text)?.message;
    } catch {
      return `${a.status} with invalid JSON`;
    }
    if (typeof message !== 'string') return `${a.status} without a string message`;
  }
  if (c.unknownKey && refusesUnknownKeys(op) && a.status >= 200 && a.status < 300)
    return `${a.status}: unknown key accepted${c.unknownKey.includes('.') ? ' (nested)' : ''}`;
  // The same body without the key was accepted: the refusal must name the key.
  const key = c.unknownKey?.split('.').at(-1);
  const base = baseStatus.get(`${op.key}#${c.branch}`);
  const baseAccepted = base !== undefined && base >= 200 && base < 300;
  if (key && c.branch !== undefined && baseAccepted && a.status === 400 && !a.text.includes(key))
    return '400: unknown key refused without naming it';
  return null;
}

const findings = new Findings();
/** How much of the server's log was read: a 500's cause is in what follows. */
let logOffset = 0;
const unreadLogs = () => {
  const logs = t.logs();
  const text = logs.slice(logOffset);
  logOffset = logs.length;
  return text;
};

function record(op: Operation, c: FuzzCase, a: Answer, kind: string) {
  const { cause, where } = kind.startsWith('5') ? rootCause(unreadLogs()) : { cause: '', where: '' };
  const body = c.body ? ` body=${truncate(c.body.text, 160)}` : '';
  const answer = a.error ? a.error : `${a.status} ${truncate(a.text, 160)}`;
  const example =
    `${op.method} ${truncate(urlOf(op, c), 160)} [${c.auth}]${body} -> ${answer}   (${c.label})` +
    (where ? `   at ${where}` : '');
  findings.add(kind, cause, op.key, example);
}

/** Admin-only state a case may have broken: the session (a stray logout) and the server itself. */
async function stillServing(op: Operation) {
  const health = await fetch(`${t.url}/api/health`, {
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  }).catch((error: Error) => ({ status: 0, error }));
  if (health.status !== 200)
    findings.add(
      'server stopped answering',
      '',
      op.key,
      `GET /api/health after ${op.key} -> ${health.status}`,
    );
  const self = await t.call('GET', '/api/user/self', { token: admin });
  if (self.status !== 200) {
    console.warn(`fuzz: the admin session stopped working after ${op.key}; a new admin takes over`);
    adminId = (await createUser(t, { role: 'admin' })).id;
    admin = await createSession(t.database.db, adminId, 3_600_000);
  }
}

/** A stable seed per operation, so adding one operation does not change the others' cases. */
const seedOf = (key: string) => [...key].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) | 0, SEED);

describe('fuzzing every OpenAPI operation', () => {
  it(
    'answers no 5xx, only {message} 4xx, refuses unknown keys, and keeps serving',
    async () => {
      const operations = listOperations(doc);
      const documented = Object.values(doc.paths as Record<string, object>).reduce<number>(
        (sum, item) => sum + Object.keys(item).filter((m) => m !== 'parameters').length,
        0,
      );
      // The sign-in calls (deliberately slow password hashing) go late, so a budget cut falls on them
      // first; deletes go last: they may remove the records the other operations use.
      const rank = (op: Operation) => (op.method === 'DELETE' ? 2 : op.path.startsWith('/api/auth/') ? 1 : 0);
      const ordered = [...operations].sort((a, b) => rank(a) - rank(b));
      const planned = ordered.map((op) => [
        ...fixedCases(ctx, op).slice(0, FIXED),
        ...randomCases(ctx, op, RUNS, seedOf(op.key)),
      ]);
      const started = Date.now();
      const deadline = started + BUDGET_MS;
      let walked = 0;
      let sent = 0;
      let cut = 0;
      unreadLogs();
      for (const [index, op] of ordered.entries()) {
        const cases = planned[index]!;
        let done = 0;
        for (const c of cases) {
          // Past the deadline, each operation left still sends its first cases (they take the fields in
          // turn), and the rest is counted as cut.
          if (Date.now() > deadline && done >= AFTER_DEADLINE) break;
          const answer = await send(op, c);
          if (c.base !== undefined) baseStatus.set(`${op.key}#${c.base}`, answer.status);
          const kind = verdict(op, c, answer);
          if (VERBOSE)
            console.info(
              `${op.key} [${c.auth}] ${c.label} -> ${answer.status || answer.error} ${truncate(answer.text, 150)}`,
            );
          if (kind) record(op, c, answer, kind);
          else unreadLogs();
          done++;
        }
        sent += done;
        cut += cases.length - done;
        if (done < cases.length)
          console.warn(
            `fuzz: ${op.key}: budget spent, ${cases.length - done} of ${cases.length} cases not sent`,
          );
        await stillServing(op);
        walked++;
      }
      const refused = [...baseStatus].filter(([, status]) => status >= 300);
      console.info(
        `fuzz: valid-looking requests refused (their cases test validation, not deeper): ${refused.map(([key, status]) => `${key} ${status}`).join(', ')}`,
      );
      console.info(
        `fuzz: ${walked} operations, ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, ` +
          `${cut} cut by the budget, ${findings.size} distinct findings`,
      );
      expect(walked).toBe(documented);
      expect(sent).toBeGreaterThan(walked * 20);
      expect(findings.size, findings.report()).toBe(0);
    },
    BUDGET_MS + 120_000,
  );
});

describe('malformed HTTP at the edge', () => {
  it('never answers a 5xx and keeps serving after each', async () => {
    const port = Number(new URL(t.url).port);
    const problems: string[] = [];
    for (const c of rawCases(admin)) {
      const answer = await rawHttp(port, c.chunks(), { end: c.end });
      const problem = rawVerdict(c, answer);
      if (VERBOSE)
        console.info(`raw: ${c.label}: ${answer.status || answer.error} ${truncate(answer.body, 120)}`);
      if (problem)
        problems.push(
          `${c.label}: ${problem} -> ${truncate(`${answer.headers.split(CRLF)[0]} ${answer.body}`, 200)}`,
        );
      const health = await fetch(`${t.url}/api/health`, {
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      }).catch(() => null);
      if (health?.status !== 200)
        problems.push(`${c.label}: /api/health answered ${health?.status ?? 'nothing'} after it`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  }, 120_000);
});
