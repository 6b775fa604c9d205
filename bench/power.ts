/**
 * `npm run bench:power` (issue 34): a site of 20 simulated connectors (AC wallboxes and DC chargers, a third of
 * the chargers on OCPP 2.0.1, one that rejects charging profiles) under a power limit, sessions arriving and
 * leaving for a few minutes, against the same fleet at a site without a limit, in one run of the real server in
 * this process (PGlite in memory, or a scratch database on DATABASE_URL's server; OCPP_UNKNOWN_TAGS=accept, so
 * any card starts a session).
 *
 *  0. warm-up: the unlimited site's fleet runs sessions for `--warmup-s`, not measured (the first calls of a
 *     fresh process are the slowest: measured first, the baseline would flatter the limited run);
 *  1. baseline: the unlimited site's fleet runs the same sessions for `--baseline-minutes`: the time from a
 *     StartTransaction (2.0.1: TransactionEvent Started) sent to its answer, clocked on the simulator's side. It
 *     must receive no profile.
 *  2. limited: the limited site's fleet (`--limit-kw`, 3 phases at 230 V) for `--minutes`, measured on the
 *     simulator's side:
 *     (a) the site's power from the chargers' meter values (each connector's last Power.Active.Import, 0 once its
 *         session stopped; a session reads every `--meter-s` from its start) against the limit: the largest
 *         overshoot, how long the reported power stayed over the limit at a stretch (the acceptance: no longer
 *         than one meter interval's reaction) and how many interval ticks saw it over; the same from the
 *         registers (ΔWh / Δt between a connector's readings), and the power the simulated chargers really drew
 *         (sampled every second);
 *     (b) from a StartTransaction sent to the last SetChargingProfile the sharing sent because of it: the last one
 *         any charger of the site received before the next arrival or departure (events are `--event-s` apart,
 *         well over the 2 s the issue allows a reallocation): p50 / p95 / p99, and as a ratio to (and the extra
 *         over) the baseline's start answer; the same from a StopTransaction.
 *     A server that sends no SetChargingProfile (one without the power manager) gets "NO PROFILES RECEIVED" and
 *     no latency figures: the power it prints is then what the site draws unmanaged.
 *
 *   npm run bench:power -- [--minutes 3] [--baseline-minutes 2] [--warmup-s 30] [--meter-s 10] [--event-s 4]
 *                          [--limit-kw 150] [--rejecting 1] [--seed 1]            DATABASE_URL: a scratch database on that server
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import {
  type AnySimulatedCharger,
  type SimulatedChargerSpec,
  type SimulatorEvent,
  simulateChargers,
} from '@ev/tools/simulator';
import { sql } from 'drizzle-orm';
import { percentile } from './common.ts';
import { startInProcessServer } from './in-process-server.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '3' },
    'baseline-minutes': { type: 'string', default: '2' },
    'warmup-s': { type: 'string', default: '30' },
    'meter-s': { type: 'string', default: '10' },
    'event-s': { type: 'string', default: '4' },
    'limit-kw': { type: 'string', default: '150' },
    rejecting: { type: 'string', default: '1' },
    seed: { type: 'string', default: '1' },
  },
});
const minutes = Number(args.minutes);
const baselineMinutes = Number(args['baseline-minutes']);
const warmupS = Number(args['warmup-s']);
const meterMs = Number(args['meter-s']) * 1000;
const eventMs = Number(args['event-s']) * 1000;
const limitKw = Number(args['limit-kw']);
const rejectingCount = Number(args.rejecting);
for (const [name, value] of Object.entries({ minutes, baselineMinutes, meterMs, eventMs, limitKw })) {
  if (!(value > 0)) {
    console.error(`${name} must be a positive number`);
    process.exit(2);
  }
}

/** A small seeded generator (mulberry32): the same sessions for the same seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(Number(args.seed));

/**
 * The fleet of a site: 15 chargers, 20 connectors. Six 22 kW AC wallboxes, three twin 22 kW AC, four 60 kW DC,
 * two DC of 120 kW CCS2 + 50 kW CHAdeMO (844 kW in all); every third charger speaks OCPP 2.0.1.
 */
const LAYOUT: ReadonlyArray<{ powerType: 'AC' | 'DC'; plugs: readonly number[] }> = [
  ...Array.from({ length: 6 }, () => ({ powerType: 'AC' as const, plugs: [22] })),
  ...Array.from({ length: 3 }, () => ({ powerType: 'AC' as const, plugs: [22, 22] })),
  ...Array.from({ length: 4 }, () => ({ powerType: 'DC' as const, plugs: [60] })),
  ...Array.from({ length: 2 }, () => ({ powerType: 'DC' as const, plugs: [120, 50] })),
];
const chargerId = (prefix: string, n: number) => `${prefix}-${String(n).padStart(2, '0')}`;
const fleetOf = (prefix: string): SimulatedChargerSpec[] =>
  LAYOUT.map((model, i) => ({
    id: chargerId(prefix, i + 1),
    connectors: model.plugs.length,
    maxPowerKw: [...model.plugs],
    powerType: model.powerType,
  }));
const isV201 = (id: string) => Number(id.slice(-2)) % 3 === 0;
/** The limited site's rejecting chargers: its first AC wallboxes. */
const rejectingIds = new Set(Array.from({ length: rejectingCount }, (_, i) => chargerId('PWR-L', i + 1)));
const connectorCount = LAYOUT.reduce((sum, model) => sum + model.plugs.length, 0);
const fleetKw = LAYOUT.reduce((sum, model) => sum + model.plugs.reduce((a, b) => a + b, 0), 0);

const server = await startInProcessServer({
  webDist: '',
  databaseUrl: process.env.DATABASE_URL,
  env: { OCPP_UNKNOWN_TAGS: 'accept' },
});
const { db } = server;
const url = server.base.replace(/^http/, 'ws');
const idOf = (result: unknown) => Number((result as { rows: Array<{ id: number }> }).rows[0]!.id);

/** The two sites, their brands, price, chargers and connectors. */
async function seed(): Promise<void> {
  const merchantId = idOf(
    await db.execute(
      sql`insert into merchants (name_en, name_th) values ('Bench Cluster', 'คลัสเตอร์') returning id`,
    ),
  );
  const brands = {
    AC: idOf(
      await db.execute(sql`insert into charger_brands (name, power_type, min_power_kw)
        values ('Bench AC', 'AC', 7.4) returning id`),
    ),
    DC: idOf(
      await db.execute(sql`insert into charger_brands (name, power_type, min_power_kw)
        values ('Bench DC', 'DC', 10) returning id`),
    ),
  };
  const priceId = idOf(
    await db.execute(sql`insert into prices (desc_en, desc_th, method, calculate_method, baht_per_kwh)
      values ('Bench price', 'ราคา', 'KW', 'BAHT_HRS', 7.5) returning id`),
  );
  let connectorId = 970_000;
  for (const [prefix, name, limit] of [
    ['PWR-L', 'Bench Limited Site', limitKw],
    ['PWR-U', 'Bench Unlimited Site', null],
  ] as const) {
    const landlordId = idOf(
      await db.execute(sql`insert into landlords
          (merchant_id, name_en, name_th, latitude, longitude, business_hours_type, max_power_kw, phases, voltage)
        values (${merchantId}, ${name}, 'สถานี', 13.7563, 100.5018, '24H', ${limit},
          ${limit === null ? null : 3}, ${limit === null ? null : 230}) returning id`),
    );
    for (const spec of fleetOf(prefix)) {
      await db.execute(sql`insert into chargers (id, name_en, name_th, merchant_id, landlord_id, charger_brand_id)
        values (${spec.id}, ${spec.id}, ${spec.id}, ${merchantId}, ${landlordId}, ${brands[spec.powerType!]})`);
      for (const [i, kw] of (spec.maxPowerKw ?? []).entries()) {
        connectorId++;
        await db.execute(sql`insert into connectors (id, charger_id, token, name_en, name_th, connector_type_id,
            max_power_kw, price_id, ocpp_connector_id)
          values (${connectorId}, ${spec.id}, ${`pwr-${connectorId}`}, ${`Connector ${i + 1}`},
            ${`หัวชาร์จ ${i + 1}`}, ${spec.powerType === 'AC' ? 2 : 4}, ${kw}, ${priceId}, ${i + 1})`);
      }
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => performance.now();

interface SessionEvent {
  kind: 'arrival' | 'departure';
  at: number;
  key: string;
  /** An arrival's start answered (the simulator's `transaction` event). */
  answeredAt?: number;
}
interface PhaseLog {
  events: SessionEvent[];
  /** SetChargingProfile / ClearChargingProfile received by a charger. */
  profiles: Array<{ at: number; chargerId: string; action: string; params: unknown }>;
  /** Meter readings sent during a transaction: the connector's power (W) and register (Wh). */
  readings: Array<{ at: number; key: string; powerW: number; meterWh: number }>;
  /** A session's register at its start (the first interval of the registers' power). */
  starts: Array<{ at: number; key: string; meterWh: number }>;
  /** Transactions whose stop was answered: their connector draws 0 from then. */
  stops: Array<{ at: number; key: string }>;
  /** What the simulated chargers drew (W), every second. */
  drawn: Array<{ at: number; w: number }>;
  bootProfiles: number;
  from: number;
  to: number;
  peakSessions: number;
  failures: string[];
}

/** One phase: a site's fleet connects, sessions arrive and leave for `phaseMinutes`, then all stop. */
async function runPhase(prefix: string, phaseMinutes: number): Promise<PhaseLog> {
  const log: PhaseLog = {
    events: [],
    profiles: [],
    readings: [],
    starts: [],
    stops: [],
    drawn: [],
    bootProfiles: 0,
    from: 0,
    to: 0,
    peakSessions: 0,
    failures: [],
  };
  const awaiting = new Map<string, SessionEvent>();
  const onEvent = (event: SimulatorEvent) => {
    const at = now();
    if (event.type === 'command' && event.action.endsWith('ChargingProfile')) {
      log.profiles.push({ at, chargerId: event.id, action: event.action, params: event.params });
    } else if (event.type === 'transaction') {
      const key = `${event.id}/${event.connectorId}`;
      if (event.event === 'stopped') log.stops.push({ at, key });
      else {
        const arrival = awaiting.get(key);
        awaiting.delete(key);
        if (arrival) arrival.answeredAt = at;
      }
    } else if (event.type === 'meter' && event.inTransaction) {
      log.readings.push({
        at,
        key: `${event.id}/${event.connectorId}`,
        powerW: event.powerW,
        meterWh: event.meterWh,
      });
    }
  };
  const specs = fleetOf(prefix);
  const simulation = await simulateChargers(specs, {
    url,
    protocol: (id) => (isV201(id) ? '2.0.1' : '1.6'),
    profiles: (id) => (rejectingIds.has(id) ? 'reject' : 'obey'),
    heartbeatIntervalS: 300,
    onEvent,
  });
  if (simulation.failed.length > 0)
    throw new Error(`chargers refused: ${simulation.failed.map((f) => `${f.id} ${f.error}`).join('; ')}`);
  // What the server sends at boot (a default profile), before any session.
  await sleep(2000);
  log.bootProfiles = log.profiles.length;

  const slots = simulation.chargers.flatMap((charger) =>
    charger.connectorStates.map((_, i) => ({
      charger,
      connector: i + 1,
      key: `${charger.spec.id}/${i + 1}`,
    })),
  );
  const meters = new Map<string, NodeJS.Timeout>();
  const read = (charger: AnySimulatedCharger, connector: number) => {
    if (charger.connectorStates[connector - 1]!.transactionId === null) return;
    charger.sendMeterValue(connector).catch((error: Error) => log.failures.push(`reading: ${error.message}`));
  };
  const drawn = setInterval(() => {
    let watts = 0;
    for (const { charger, connector } of slots) watts += charger.powerKw(connector) * 1000;
    log.drawn.push({ at: now(), w: watts });
  }, 1000);
  let tag = 0;

  const arrive = async (slot: (typeof slots)[number]) => {
    const { charger, connector, key } = slot;
    const dc = charger.spec.powerType === 'DC';
    charger.plugIn(connector, { batteryKwh: dc ? 75 : 60, soc: 15 + Math.floor(random() * 60) });
    await charger.setStatus(connector, 'Preparing');
    const arrival: SessionEvent = { kind: 'arrival', at: now(), key };
    awaiting.set(key, arrival);
    log.events.push(arrival);
    await charger.startCharging(connector, `PWR${++tag}`, { authorized: true });
    log.starts.push({ at: now(), key, meterWh: charger.connectorStates[connector - 1]!.meterWh });
    meters.set(
      key,
      setInterval(() => read(charger, connector), meterMs),
    );
  };
  const leave = async (slot: (typeof slots)[number], measured = true) => {
    const { charger, connector, key } = slot;
    clearInterval(meters.get(key));
    meters.delete(key);
    if (measured) log.events.push({ kind: 'departure', at: now(), key });
    await charger.stopCharging(connector, 'Local');
    await charger.unplug(connector);
  };

  // Between 8 and 16 sessions: below, one arrives; above, one leaves; between, either.
  const [low, high] = [Math.round(connectorCount * 0.4), Math.round(connectorCount * 0.8)];
  log.from = now();
  const end = log.from + phaseMinutes * 60_000;
  while (now() < end) {
    const running = slots.filter((s) => s.charger.connectorStates[s.connector - 1]!.transactionId !== null);
    const free = slots.filter((s) => {
      const state = s.charger.connectorStates[s.connector - 1]!;
      return state.transactionId === null && state.status === 'Available';
    });
    const arriving = free.length > 0 && (running.length < low || (running.length < high && random() < 0.5));
    try {
      if (arriving) await arrive(free[Math.floor(random() * free.length)]!);
      else if (running.length > 0) await leave(running[Math.floor(random() * running.length)]!);
    } catch (error) {
      log.failures.push((error as Error).message);
    }
    log.peakSessions = Math.max(
      log.peakSessions,
      slots.filter((s) => s.charger.connectorStates[s.connector - 1]!.transactionId !== null).length,
    );
    await sleep(eventMs * (0.75 + random() * 0.5));
  }
  log.to = now();
  clearInterval(drawn);
  for (const slot of slots) {
    if (slot.charger.connectorStates[slot.connector - 1]!.transactionId !== null)
      await leave(slot, false).catch(() => undefined);
  }
  for (const timer of meters.values()) clearInterval(timer);
  await simulation.stop();
  return log;
}

// --- figures -------------------------------------------------------------------------------------------------

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

interface Overshoot {
  peakW: number;
  /** The largest excess over the limit (W), 0 if never over. */
  maxOverW: number;
  /** How often and how long (ms) the power stayed over the limit at a stretch. */
  episodes: number;
  longestMs: number;
  /** Interval ticks (every meter interval from the phase's start) that saw it over, of all. */
  ticksOver: number;
  ticks: number;
}

/** The site's power as a step function of per-connector values (W) changing at given times, against the limit. */
function overshoot(
  changes: Array<{ at: number; key: string; w: number }>,
  limitW: number,
  from: number,
  to: number,
): Overshoot {
  const ordered = [...changes].sort((a, b) => a.at - b.at);
  const current = new Map<string, number>();
  let site = 0;
  const steps: Array<{ at: number; w: number }> = [{ at: from, w: 0 }];
  for (const change of ordered) {
    site += change.w - (current.get(change.key) ?? 0);
    current.set(change.key, change.w);
    steps.push({ at: change.at, w: site });
  }
  const result: Overshoot = { peakW: 0, maxOverW: 0, episodes: 0, longestMs: 0, ticksOver: 0, ticks: 0 };
  let overSince: number | null = null;
  for (const [i, step] of steps.entries()) {
    if (step.at > to) break;
    result.peakW = Math.max(result.peakW, step.w);
    result.maxOverW = Math.max(result.maxOverW, step.w - limitW);
    const over = step.w > limitW;
    if (over && overSince === null) {
      overSince = step.at;
      result.episodes++;
    }
    const next = steps[i + 1]?.at ?? to;
    if (!over && overSince !== null) overSince = null;
    if (overSince !== null) result.longestMs = Math.max(result.longestMs, Math.min(next, to) - overSince);
  }
  for (let tick = from + meterMs; tick <= to; tick += meterMs) {
    let w = 0;
    for (const step of steps) {
      if (step.at > tick) break;
      w = step.w;
    }
    result.ticks++;
    if (w > limitW) result.ticksOver++;
  }
  return result;
}

/** The reported power: each connector's last Power.Active.Import, 0 from its stop. */
const reportedChanges = (log: PhaseLog) => [
  ...log.readings.map((r) => ({ at: r.at, key: r.key, w: r.powerW })),
  ...log.stops.map((s) => ({ at: s.at, key: s.key, w: 0 })),
];

/** The registers' power: over each interval between a connector's readings (from its start), known at its end. */
function registerChanges(log: PhaseLog) {
  const changes: Array<{ at: number; key: string; w: number }> = [];
  const last = new Map<string, { at: number; wh: number }>();
  const marks = [
    ...log.starts.map((s) => ({ at: s.at, key: s.key, wh: s.meterWh, kind: 'start' as const })),
    ...log.readings.map((r) => ({ at: r.at, key: r.key, wh: r.meterWh, kind: 'reading' as const })),
    ...log.stops.map((s) => ({ at: s.at, key: s.key, wh: 0, kind: 'stop' as const })),
  ].sort((a, b) => a.at - b.at);
  for (const mark of marks) {
    if (mark.kind === 'stop') {
      last.delete(mark.key);
      changes.push({ at: mark.at, key: mark.key, w: 0 });
      continue;
    }
    const before = last.get(mark.key);
    if (mark.kind === 'reading' && before && mark.at > before.at)
      changes.push({
        at: mark.at,
        key: mark.key,
        w: ((mark.wh - before.wh) * 3_600_000) / (mark.at - before.at),
      });
    last.set(mark.key, { at: mark.at, wh: mark.wh });
  }
  return changes;
}

/**
 * Profiles one decision sends leave together (sent in parallel once it commits), so they arrive in a burst; the
 * burst ends at a gap longer than this. Profiles outside an event's burst come from other decisions: a tapering
 * car's reading, a refusal shared again.
 */
const BURST_GAP_MS = 250;

/**
 * From each event to the last SetChargingProfile of the burst that followed it, before the next event (null:
 * none came). Returns too the profiles that fell in no event's burst.
 */
function profileLatencies(log: PhaseLog, kind: SessionEvent['kind']) {
  const sets = log.profiles.filter((p) => p.action === 'SetChargingProfile');
  const events = [...log.events].sort((a, b) => a.at - b.at);
  const out: Array<number | null> = [];
  for (const [i, event] of events.entries()) {
    if (event.kind !== kind) continue;
    const until = events[i + 1]?.at ?? log.to;
    const after = sets.filter((p) => p.at >= event.at && p.at < until);
    let last = after[0];
    for (const p of after.slice(1)) {
      if (!last || p.at - last.at > BURST_GAP_MS) break;
      last = p;
    }
    out.push(last ? last.at - event.at : null);
  }
  return out;
}

/** SetChargingProfiles that followed no event within a burst (other decisions: tapering cars, refusals). */
function outsideBursts(log: PhaseLog): number {
  const sets = log.profiles.filter((p) => p.action === 'SetChargingProfile').sort((a, b) => a.at - b.at);
  const events = log.events.map((e) => e.at).sort((a, b) => a - b);
  let outside = 0;
  let burstEnd = Number.NEGATIVE_INFINITY;
  let e = 0;
  for (const p of sets) {
    let started = false;
    while (e < events.length && events[e]! <= p.at) {
      e++;
      started = true;
    }
    if (started || p.at - burstEnd <= BURST_GAP_MS) burstEnd = p.at;
    else outside++;
  }
  return outside;
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : `${value.toFixed(value < 10 ? 1 : 0)} ms`);
const kw = (watts: number) => `${(watts / 1000).toFixed(1)} kW`;
const spread = (values: number[]) =>
  `p50 ${ms(percentile(values, 50))} / p95 ${ms(percentile(values, 95))} / p99 ${ms(percentile(values, 99))} / ` +
  `max ${ms(values.at(-1) ?? Number.NaN)} (n ${values.length})`;

function describeOvershoot(label: string, o: Overshoot, limitW: number): string {
  const within = o.longestMs <= meterMs;
  return (
    `      ${label}: peak ${kw(o.peakW)}; ` +
    (o.episodes === 0
      ? 'never over the limit'
      : `over it ${o.episodes} times, by at most ${kw(o.maxOverW)} (${((o.maxOverW / limitW) * 100).toFixed(1)} %), ` +
        `the longest ${(o.longestMs / 1000).toFixed(1)} s (meter interval ${meterMs / 1000} s: ` +
        `${within ? 'within' : 'MORE than'} one interval's reaction)`) +
    `; ${o.ticksOver} of ${o.ticks} interval ticks over`
  );
}

// --- the run ---------------------------------------------------------------------------------------------------

await seed();
const database = server.kind === 'postgres' ? 'PostgreSQL (scratch database)' : 'PGlite (in memory)';
const v201Chargers = LAYOUT.filter((_, i) => isV201(chargerId('PWR', i + 1))).length;
console.log(
  `bench:power on ${database}, ${os.cpus().length} cores: ${connectorCount} connectors on ${LAYOUT.length} chargers ` +
    `(${fleetKw} kW in all; ${v201Chargers} chargers on OCPP 2.0.1, ${rejectingIds.size} rejecting profiles); ` +
    `limit ${limitKw} kW on 3 phases at 230 V; a reading every ${meterMs / 1000} s per session; an arrival or ` +
    `departure every ~${eventMs / 1000} s`,
);

let exitCode = 0;
try {
  if (warmupS > 0) {
    const warmup = await runPhase('PWR-U', warmupS / 60);
    console.log(`\nwarm-up (${warmupS} s, not measured): ${warmup.events.length} arrivals and departures`);
  }
  const baseline = await runPhase('PWR-U', baselineMinutes);
  const baselineAnswers = sorted(
    baseline.events.filter((e) => e.kind === 'arrival' && e.answeredAt).map((e) => e.answeredAt! - e.at),
  );
  const count = (log: PhaseLog, kind: SessionEvent['kind']) =>
    log.events.filter((e) => e.kind === kind).length;
  console.log(
    `\nbaseline, no limit (${baselineMinutes} min): ${count(baseline, 'arrival')} arrivals, ` +
      `${count(baseline, 'departure')} departures, up to ${baseline.peakSessions} sessions at once; ` +
      `${baseline.profiles.length} profiles received (expected 0)`,
  );
  console.log(`  StartTransaction → its answer: ${spread(baselineAnswers)}`);
  if (baseline.failures.length > 0) console.log(`  failures: ${baseline.failures.slice(0, 5).join('; ')}`);

  const limited = await runPhase('PWR-L', minutes);
  const limitW = limitKw * 1000;
  const sets = limited.profiles.filter((p) => p.action === 'SetChargingProfile');
  const purposes: Record<string, number> = {};
  for (const p of sets) {
    const params = p.params as {
      csChargingProfiles?: { chargingProfilePurpose: string };
      chargingProfile?: { chargingProfilePurpose: string };
    };
    const purpose =
      params.csChargingProfiles?.chargingProfilePurpose ??
      params.chargingProfile?.chargingProfilePurpose ??
      '?';
    purposes[purpose] = (purposes[purpose] ?? 0) + 1;
  }
  const answers = sorted(
    limited.events.filter((e) => e.kind === 'arrival' && e.answeredAt).map((e) => e.answeredAt! - e.at),
  );
  console.log(
    `\nlimited to ${limitKw} kW (${minutes} min): ${count(limited, 'arrival')} arrivals, ` +
      `${count(limited, 'departure')} departures, up to ${limited.peakSessions} sessions at once`,
  );
  console.log(
    `  profiles received: ${sets.length} SetChargingProfile ${JSON.stringify(purposes)} (${limited.bootProfiles} ` +
      `at boot; ${sets.filter((p) => rejectingIds.has(p.chargerId)).length} to the rejecting charger), ` +
      `${limited.profiles.length - sets.length} ClearChargingProfile`,
  );
  console.log(`  StartTransaction → its answer: ${spread(answers)}`);
  if (sets.length === 0) {
    console.log(
      "  NO PROFILES RECEIVED: the server sent no SetChargingProfile to the limited site's chargers (is the " +
        'power manager of issue 34 §2 in this build?). No latency figures; the power below is what the site draws ' +
        'unmanaged.',
    );
  }
  console.log(`  (a) the site's power against its ${limitKw} kW`);
  console.log(
    describeOvershoot(
      'from the readings (Power.Active.Import)',
      overshoot(reportedChanges(limited), limitW, limited.from, limited.to),
      limitW,
    ),
  );
  console.log(
    describeOvershoot(
      'from the registers (ΔWh / Δt)',
      overshoot(registerChanges(limited), limitW, limited.from, limited.to),
      limitW,
    ),
  );
  console.log(
    describeOvershoot(
      'drawn by the simulated chargers (every 1 s)',
      overshoot(
        limited.drawn.map((d) => ({ at: d.at, key: 'site', w: d.w })),
        limitW,
        limited.from,
        limited.to,
      ),
      limitW,
    ),
  );
  if (sets.length > 0) {
    const arrivals = profileLatencies(limited, 'arrival');
    const departures = profileLatencies(limited, 'departure');
    const latencies = sorted(arrivals.filter((v): v is number => v !== null));
    const without = arrivals.length - latencies.length;
    console.log(
      '  (b) StartTransaction sent → the last SetChargingProfile it caused (the burst of its decision), received',
    );
    console.log(`      ${spread(latencies)}${without ? `; ${without} arrivals got no profile` : ''}`);
    const ratio = (p: number) => {
      const [ours, base] = [percentile(latencies, p), percentile(baselineAnswers, p)];
      const extra = ours - base;
      return `p${p} ${(ours / base).toFixed(1)}x (${extra < 0 ? '−' : '+'}${ms(Math.abs(extra))})`;
    };
    console.log(`      against the baseline's start answer: ${ratio(50)}, ${ratio(95)}, ${ratio(99)}`);
    const leaving = sorted(departures.filter((v): v is number => v !== null));
    console.log(
      `      StopTransaction sent → the last SetChargingProfile it caused: ${spread(leaving)}` +
        `${departures.length - leaving.length ? `; ${departures.length - leaving.length} departures caused none` : ''}`,
    );
    const other = outsideBursts(limited);
    console.log(
      `      profiles from other decisions (tapering cars, refusals): ${other} ` +
        `(${(other / ((limited.to - limited.from) / 60_000)).toFixed(1)} a minute, ${limited.readings.length} readings)`,
    );
    const p99 = percentile(latencies, 99);
    console.log(`      goal (p99 within 2 s): ${p99 <= 2000 ? 'met' : 'NOT met'}`);
  }
  if (limited.failures.length > 0) {
    console.log(`  ${limited.failures.length} failures: ${limited.failures.slice(0, 5).join('; ')}`);
    exitCode = 1;
  }
} finally {
  await server.close();
}
process.exit(exitCode);
