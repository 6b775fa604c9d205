/**
 * Members using the companion app, for the demo (issue 12): every few seconds a member without an open booking
 * signs in through the member API over HTTP, reserves a free connector of a connected simulated charger,
 * checks in, plugs in a car, starts (the charger gets RemoteStartTransaction and starts with the member's id
 * tag), charges for a few minutes (the charger's meter values: the connector's power over the time, the car's
 * rising state of charge), sometimes fills up, stops, sometimes leaves the cable in for a while (the booking
 * stays Charged, its overstay growing), unplugs and pays, so the Booking Management list shows bookings move
 * from Created to Paid; some redeem a discount code of the app's homepage on the booking before paying, some
 * pay partly with their green points. A few never pay (left for staff), a few are stopped by staff. Whatever
 * staff do meanwhile (Stop, Force stop, Avaliable, Delete), the member notices at the next step, unplugs and
 * moves on.
 * An error is logged in one line and the member moves on: nothing here throws.
 */
import type { Db } from '@ev/server/db/client';
import {
  bookings,
  chargers,
  idTags,
  landlords,
  merchants,
  promotionLandlords,
  promotionRedemptions,
  promotions,
  users,
} from '@ev/server/db/schema/index';
import {
  fromSatang,
  type HomepagePromotion,
  MEMBER_PAYMENT_METHODS,
  type MemberPointResponse,
  mostPoints,
  redeemSatang,
  toSatang,
} from '@ev/shared';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { AnySimulatedCharger, SimulatedCar, Simulation, TagPool } from './simulator.ts';

export interface Credentials {
  email: string;
  pass: string;
}

export interface MemberSimulatorOptions {
  /** The server, e.g. http://127.0.0.1:3000. */
  baseUrl: string;
  simulation: Simulation<AnySimulatedCharger>;
  members: Credentials[];
  /** A staff user who may read chargers and stop and force stop (admin or call center). */
  staff: Credentials;
  /** A new member journey this often (ms). */
  everyMs?: number;
  /** Between two steps of a journey (ms). */
  stepMs?: number;
  /** At most this many journeys at once. */
  maxJourneys?: number;
  /** Meter values while charging, `meterMs` apart: from `readings[0]` to `readings[1]`. */
  readings?: [number, number];
  meterMs?: number;
  /** Shares of journeys: the battery fills up; the member stops from the app (else at the charger). */
  fillShare?: number;
  appStopShare?: number;
  /**
   * Share of journeys whose member leaves the cable in once charging stopped (the booking stays Charged, the
   * overstay grows) for `leaveInMs[0]` to `leaveInMs[1]`, at most `maxLeftIn` at once.
   */
  leaveInShare?: number;
  leaveInMs?: [number, number];
  maxLeftIn?: number;
  /** Shares: staff Stop, staff Force stop; a member who never pays (at most `maxUnpaid` left at once). */
  staffStopShare?: number;
  forceStopShare?: number;
  neverPayShare?: number;
  maxUnpaid?: number;
  /** Share of paid journeys after which the member redeems a point code of the app's homepage (issue 21). */
  redeemShare?: number;
  /** Share of payments before which the member redeems a discount code of the homepage on the booking. */
  discountShare?: number;
  /** Share of payments made partly with the member's green points (when they have some, a card in force). */
  spendShare?: number;
  random?: () => number;
  /** One line per problem (API refusals, chargers gone). */
  log?: (message: string) => void;
  /** A member away from the app now (their card charging at a charger of the fleet): no journey for them. */
  away?: (email: string) => boolean;
  /**
   * Chargers that `share` (0..1) of the journeys try first (the demo: those of its sites with a power limit, so
   * their live load shows sessions sharing it); the others, and those that find them busy, take any charger.
   */
  favoured?: { chargerIds: ReadonlySet<string>; share: number };
}

export interface MemberSimulator {
  /** Journeys started and finished so far; `leftIn`: cables left in after charging. */
  readonly stats: {
    started: number;
    paid: number;
    unpaid: number;
    failed: number;
    leftIn: number;
    redeemed: number;
    /** Payments a discount code took something off; payments partly paid with green points. */
    discounted: number;
    spent: number;
    /** Sessions started with the member's tag at a charger (walk-ins) the member then paid in the app. */
    walkInsPaid: number;
  };
  /** Whether a journey of this member is under way. */
  busy(email: string): boolean;
  /** Stops starting journeys, ends those under way at their next step, and waits for them. */
  stop(): Promise<void>;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
class Stopped extends Error {}

interface BookingView {
  id: number;
  status: string;
  /** Null for a walk-in (a session started with the member's tag at the charger). */
  slotStart?: string | null;
  /** Baht owed: the price less the booking's discount code. */
  totalAmount: number;
  landlordNameEn: string;
}
const OPEN = ['created', 'started', 'charging', 'charged', 'stopped'];
/** The cars' batteries, kWh. */
const BATTERIES_KWH = [40, 51, 60, 77, 100];
type Held = { charger: AnySimulatedCharger; connector: number };

export function startMemberSimulator(options: MemberSimulatorOptions): MemberSimulator {
  const random = options.random ?? Math.random;
  const stepMs = options.stepMs ?? 3000;
  // A reading every 20 s, 6 to 18 of them: a session charges 2 to 6 minutes.
  const meterMs = options.meterMs ?? 20_000;
  const [minReadings, maxReadings] = options.readings ?? [6, 18];
  const [minLeaveIn, maxLeaveIn] = options.leaveInMs ?? [5 * 60_000, 20 * 60_000];
  const log = options.log ?? (() => undefined);
  const stats = {
    started: 0,
    paid: 0,
    unpaid: 0,
    failed: 0,
    leftIn: 0,
    redeemed: 0,
    discounted: 0,
    spent: 0,
    walkInsPaid: 0,
  };
  const abort = new AbortController();
  const journeys = new Set<Promise<void>>();
  const inJourney = new Set<string>();
  /** Members with an open booking, until this time (then looked at again); Infinity: their sign-in fails. */
  const busyUntil = new Map<string, number>();
  /** Connectors the server refused to book (`{chargerId}/{n}`: inactive site, unknown). */
  const refused = new Set<string>();
  const leftUnpaid = new Set<string>();
  /** Members whose cable is in after charging, for now. */
  const leftIn = new Set<string>();
  let staffToken: string | null = null;
  let connectorIds: Map<string, number> | null = null;

  const sleep = (ms: number) =>
    new Promise<void>((resolve, reject) => {
      if (abort.signal.aborted) return reject(new Stopped());
      const timer = setTimeout(() => {
        abort.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(new Stopped());
      };
      abort.signal.addEventListener('abort', onAbort, { once: true });
    });

  async function call<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (token) headers['x-access-token'] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${options.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    if (!response.ok) {
      const message = (parsed as { message?: string } | null)?.message ?? text.slice(0, 120);
      throw new ApiError(response.status, `${method} ${path}: ${response.status} ${message}`);
    }
    return parsed as T;
  }

  async function staffCall<T>(method: string, path: string, body?: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      staffToken ??= (
        await call<{ accessToken: string }>('POST', '/api/auth/login', null, {
          ...options.staff,
          type: 'admin',
        })
      ).accessToken;
      try {
        return await call<T>(method, path, staffToken, body);
      } catch (error) {
        // The staff session expired: sign in again, once.
        if (!(error instanceof ApiError) || error.status !== 401 || attempt > 0) throw error;
        staffToken = null;
      }
    }
  }

  /** The database id of each simulated charger's connectors (`{chargerId}/{ocppConnectorId}`), read once. */
  async function connectorId(chargerId: string, ocppConnectorId: number): Promise<number | undefined> {
    if (!connectorIds) {
      const ids = new Map<string, number>();
      for (let page = 1; ; page++) {
        const body = await staffCall<{
          total: number;
          chargers: Array<{ id: string; connectors: Array<{ id: number; ocppConnectorId: number }> }>;
        }>('GET', `/api/charger?page=${page}&size=100&sort=id&order=asc`);
        for (const charger of body.chargers) {
          for (const c of charger.connectors) ids.set(`${charger.id}/${c.ocppConnectorId}`, c.id);
        }
        if (page * 100 >= body.total) break;
      }
      connectorIds = ids;
    }
    return connectorIds.get(`${chargerId}/${ocppConnectorId}`);
  }

  /**
   * A free connector of a connected charger (a favoured one first, for a share of the journeys), held on the
   * charger so its random activity leaves it alone.
   */
  function holdConnector(): Held | null {
    const connected = options.simulation.chargers.filter((charger) => charger.connected);
    const favoured = options.favoured;
    if (favoured && random() < favoured.share) {
      const held = holdOneOf(connected.filter((charger) => favoured.chargerIds.has(charger.spec.id)));
      if (held) return held;
    }
    return holdOneOf(connected);
  }

  function holdOneOf(chargers: readonly AnySimulatedCharger[]): Held | null {
    for (let attempt = 0; attempt < 20 && chargers.length > 0; attempt++) {
      const charger = chargers[Math.floor(random() * chargers.length)]!;
      const connector = 1 + Math.floor(random() * charger.spec.connectors);
      if (refused.has(`${charger.spec.id}/${connector}`)) continue;
      if (charger.reserve(connector)) return { charger, connector };
    }
    return null;
  }

  /** Reads until `done` says so (or 10 s): the server applies charger events just after answering them. */
  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    let value = await read();
    for (let waited = 0; !done(value) && waited < 10_000; waited += 100) {
      await sleep(100);
      value = await read();
    }
    return value;
  }

  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const chance = (share: number | undefined) => random() < (share ?? 0);

  async function journey(member: Credentials): Promise<void> {
    let token = '';
    let booking: BookingView | null = null;
    let held: Held | null = null;
    const bookingOf = async () => {
      try {
        return (await call<{ booking: BookingView }>('GET', `/api/member/booking/${booking!.id}`, token))
          .booking;
      } catch (error) {
        // Deleted by staff: the booking is gone for the member.
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    };
    const step = async (path: string) => {
      booking = (
        await call<{ booking: BookingView }>('POST', `/api/member/booking/${booking!.id}/${path}`, token)
      ).booking;
    };
    try {
      try {
        const signedIn = await call<{ accessToken: string }>('POST', '/api/member/login', null, {
          email: member.email,
          pass: member.pass,
        });
        token = signedIn.accessToken;
      } catch (error) {
        // Refused (wrong password, locked): this member can't play. Throttled: later.
        const status = error instanceof ApiError ? error.status : 0;
        if (status >= 400 && status < 500) {
          busyUntil.set(member.email, status === 429 ? Date.now() + 60_000 : Number.POSITIVE_INFINITY);
        }
        throw error;
      }
      let mine = await call<{ bookings: BookingView[] }>('GET', '/api/member/booking', token);
      // A session started at a charger with the member's tag (the fleet's walk-ins) is paid in the app first.
      const walkIns = mine.bookings.filter((b) => b.status === 'stopped' && !b.slotStart);
      for (const walkIn of walkIns) {
        await call('POST', `/api/member/booking/${walkIn.id}/pay`, token, {
          method: pick(MEMBER_PAYMENT_METHODS),
          amount: walkIn.totalAmount,
        });
        stats.walkInsPaid++;
      }
      if (walkIns.length > 0) mine = await call('GET', '/api/member/booking', token);
      if (mine.bookings.some((b) => OPEN.includes(b.status))) {
        // Still open (unpaid, or reserved elsewhere): look again in a few minutes.
        busyUntil.set(member.email, Date.now() + 60 * stepMs);
        return;
      }
      leftUnpaid.delete(member.email);
      held = holdConnector();
      if (!held) return;
      const id = await connectorId(held.charger.spec.id, held.connector);
      if (id === undefined) {
        refused.add(`${held.charger.spec.id}/${held.connector}`);
        return;
      }
      const now = Date.now();
      stats.started++;
      try {
        booking = (
          await call<{ booking: BookingView }>('POST', '/api/member/booking', token, {
            connectorId: id,
            slotStart: new Date(now).toISOString(),
            slotEnd: new Date(now + 3_600_000).toISOString(),
          })
        ).booking;
      } catch (error) {
        if (error instanceof ApiError && error.status === 409 && /not open/.test(error.message)) {
          refused.add(`${held.charger.spec.id}/${held.connector}`);
        }
        // A private station (its cluster Internal Used) takes its site's members only: not a journey here.
        if (error instanceof ApiError && error.status === 403) {
          refused.add(`${held.charger.spec.id}/${held.connector}`);
          stats.started--;
          return;
        }
        throw error;
      }
      await sleep(stepMs);
      await step('check-in');
      const fills = chance(options.fillShare ?? 0.3);
      const readings = minReadings + Math.floor(random() * (maxReadings - minReadings + 1));
      held.charger.plugIn(held.connector, carFor(held, fills, readings));
      await sleep(stepMs);
      await step('start');
      await charge(held, token, booking.id, bookingOf, fills, readings);
      await leaveIn(member, held, bookingOf);
      await unplug(held);
      // The cable out makes it Unpaid, priced (unless staff did it first, or deleted it).
      booking = await until(bookingOf, (b) => !b || !['charging', 'charged'].includes(b.status));
      if (booking?.status !== 'stopped') return;
      await sleep(stepMs);
      booking = await bookingOf();
      if (booking?.status !== 'stopped') return;
      if (chance(options.neverPayShare ?? 0.05) && leftUnpaid.size < (options.maxUnpaid ?? 3)) {
        leftUnpaid.add(member.email);
        stats.unpaid++;
        return;
      }
      if (chance(options.discountShare ?? 0.1) && (await redeemDiscount(token, booking))) {
        // The discount comes off what is owed: read it again.
        booking = await bookingOf();
        if (booking?.status !== 'stopped') return;
      }
      const owed = toSatang(booking.totalAmount);
      const spend = chance(options.spendShare ?? 0.2) ? await pointsToSpend(token, owed) : null;
      const paid = await call<{ discount: number; pointUsed: number }>(
        'POST',
        `/api/member/booking/${booking.id}/pay`,
        token,
        {
          method: pick(MEMBER_PAYMENT_METHODS),
          amount: Number(fromSatang(owed - (spend?.worth ?? 0))),
          ...(spend ? { point: spend.points } : {}),
        },
      );
      stats.paid++;
      if (paid.discount > 0) stats.discounted++;
      if (paid.pointUsed > 0) stats.spent++;
      if (chance(options.redeemShare ?? 0.1)) await redeemHomepagePoints(token);
    } catch (error) {
      if (!(error instanceof Stopped || abort.signal.aborted)) {
        stats.failed++;
        log(`member simulator: ${member.email}: ${(error as Error).message}`);
      }
      // Stopped too: no reservation left behind, no session left running.
      await cleanUp(token, booking, held).catch(() => undefined);
    } finally {
      held?.charger.release(held.connector);
    }
  }

  /**
   * Now and then a member redeems a point code the app's homepage shows (a one-code promotion). A code they
   * used before, or one used up meanwhile, is refused (409): that is the app's answer, not a problem.
   */
  async function redeemHomepagePoints(token: string): Promise<void> {
    const { promotions } = await call<{ promotions: Array<{ type: string; code: string | null }> }>(
      'GET',
      '/api/member/promotion',
      token,
    );
    const codes = promotions.filter((p) => p.type === 'point' && p.code).map((p) => p.code!);
    if (codes.length === 0) return;
    try {
      await call('POST', '/api/member/promotion/redeem', token, { code: pick(codes) });
      stats.redeemed++;
    } catch (error) {
      if (!(error instanceof ApiError && (error.status === 409 || error.status === 404))) throw error;
    }
  }

  /**
   * Now and then a member redeems a discount code the homepage shows (a one-code promotion; a private one only
   * at its sites) on the booking before paying. A code they used before, or one used up meanwhile, is refused
   * (409): the app's answer, not a problem. True when the code was taken.
   */
  async function redeemDiscount(token: string, booking: BookingView): Promise<boolean> {
    const { promotions } = await call<{ promotions: HomepagePromotion[] }>(
      'GET',
      '/api/member/promotion',
      token,
    );
    const codes = promotions
      .filter(
        (p) =>
          p.type === 'discount' &&
          p.code &&
          (!p.internal || p.landlordNameEns.includes(booking.landlordNameEn)),
      )
      .map((p) => p.code!);
    if (codes.length === 0) return false;
    try {
      await call('POST', '/api/member/promotion/redeem', token, { code: pick(codes), bookingId: booking.id });
      return true;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 409 || error.status === 404)) return false;
      throw error;
    }
  }

  /**
   * Some of the member's green points for a payment of `owedSatang`: whole points, at most the balance, worth
   * at most what is owed at the card in force (all that fits, or fewer). Null when there are none to spend,
   * no card is in force, or what fits is worth nothing.
   */
  async function pointsToSpend(
    token: string,
    owedSatang: number,
  ): Promise<{ points: number; worth: number } | null> {
    const { point: balance, card } = await call<MemberPointResponse>('GET', '/api/member/point', token);
    if (!card || balance <= 0 || owedSatang <= 0) return null;
    const most = mostPoints(balance, owedSatang, card);
    if (most < 1) return null;
    const points = chance(0.5) ? most : 1 + Math.floor(random() * most);
    const worth = redeemSatang(points, card);
    return worth > 0 ? { points, worth } : null;
  }

  /**
   * The member's car. One that will fill up starts near full: what a fifth of the connector's power (the taper
   * near full) gives over the planned readings; the others start between 15 and 55 %.
   */
  function carFor(held: Held, fills: boolean, readings: number): SimulatedCar {
    const batteryKwh = pick(BATTERIES_KWH);
    if (!fills) return { batteryKwh, soc: 15 + Math.floor(random() * 40) };
    const wh = (held.charger.maxPowerKw(held.connector) * 0.2 * readings * meterMs) / 3600;
    return { batteryKwh, soc: Math.min(97, Math.max(20, 100 - (wh / (batteryKwh * 1000)) * 100)) };
  }

  /**
   * Charging: waits for the charger's transaction, then a meter reading every `meterMs` (the energy the charger
   * delivered meanwhile) until the member stops (from the app or at the charger); a car that is to fill up
   * charges until full (up to three times the readings). Staff may stop it meanwhile: the booking's status,
   * read at each reading, says so.
   */
  async function charge(
    held: Held,
    token: string,
    bookingId: number,
    bookingOf: () => Promise<BookingView | null>,
    fills: boolean,
    readings: number,
  ): Promise<void> {
    const { charger, connector } = held;
    const state = () => charger.connectorStates[connector - 1]!;
    // The charger's StartTransaction makes it charging (staff may even have stopped it already).
    const started = await until(bookingOf, (b) => !b || !['created', 'started'].includes(b.status));
    if (started && ['created', 'started'].includes(started.status)) {
      throw new Error(`${charger.spec.id}/${connector} did not start`);
    }
    const staffAt = chance(options.staffStopShare ?? 0.04)
      ? 'stop'
      : chance(options.forceStopShare ?? 0.02)
        ? 'force-stop'
        : null;
    const staffReading = Math.floor(random() * readings);
    for (let reading = 0; reading < (fills ? 3 * readings : readings); reading++) {
      await sleep(meterMs);
      const current = await bookingOf();
      if (current?.status !== 'charging' || state().transactionId === null) return;
      await charger.sendMeterValue(connector);
      if (staffAt && reading === staffReading) {
        await staffCall('POST', `/api/booking/${bookingId}/${staffAt}`);
        continue;
      }
      if ((state().car?.soc ?? 0) >= 100) {
        await charger.fill(connector);
        break;
      }
    }
    await sleep(stepMs);
    const current = await bookingOf();
    if (current?.status !== 'charging' || state().transactionId === null) return;
    if (chance(options.appStopShare ?? 0.5)) {
      await call('POST', `/api/member/booking/${bookingId}/stop`, token);
    } else await charger.stopCharging(connector, 'EVDisconnected');
    // The charger's StopTransaction makes it charged.
    for (let waited = 0; state().transactionId !== null && waited < 10_000; waited += 100) await sleep(100);
  }

  /**
   * Some members leave the cable in once charging stopped: the booking stays Charged, its overstay growing,
   * until they come back, or at once when staff act (Avaliable makes it Unpaid; Delete). At most `maxLeftIn`.
   */
  async function leaveIn(member: Credentials, held: Held, bookingOf: () => Promise<BookingView | null>) {
    if (!chance(options.leaveInShare ?? 0.15) || leftIn.size >= (options.maxLeftIn ?? 3)) return;
    if (held.charger.connectorStates[held.connector - 1]!.transactionId !== null) return;
    // Counted at once: two members deciding together can't pass the bound.
    leftIn.add(member.email);
    try {
      const charged = await until(bookingOf, (b) => b?.status !== 'charging');
      if (charged?.status !== 'charged') return;
      stats.leftIn++;
      const back = Date.now() + minLeaveIn + random() * (maxLeaveIn - minLeaveIn);
      while (Date.now() < back) {
        await sleep(Math.min(stepMs, back - Date.now()));
        if ((await bookingOf())?.status !== 'charged') return;
      }
    } finally {
      leftIn.delete(member.email);
    }
  }

  /** The cable out: the charger's transaction ended (as a late stop after a force stop), then Available. */
  async function unplug(held: Held): Promise<void> {
    const { charger, connector } = held;
    await sleep(stepMs);
    if (charger.connectorStates[connector - 1]!.transactionId !== null) {
      await charger.stopCharging(connector, 'Local');
      await sleep(Math.min(stepMs, 1000));
    }
    if (charger.connectorStates[connector - 1]!.status !== 'Available') await charger.unplug(connector);
  }

  /** After an error: the reservation cancelled, the charger's session ended and the cable out. */
  async function cleanUp(token: string, booking: BookingView | null, held: Held | null): Promise<void> {
    const state = held?.charger.connectorStates[held.connector - 1];
    if (booking && state?.transactionId == null) {
      const current = await call<{ booking: BookingView }>('GET', `/api/member/booking/${booking.id}`, token)
        .then((answer) => answer.booking)
        .catch(() => null);
      if (current && ['created', 'started'].includes(current.status)) {
        await call('POST', `/api/member/booking/${booking.id}/cancel`, token).catch(() => undefined);
      }
    }
    if (!held || !state) return;
    if (state.transactionId !== null) await held.charger.stopCharging(held.connector, 'Local');
    if (state.status !== 'Available') await held.charger.unplug(held.connector);
  }

  function next(): void {
    if (abort.signal.aborted || journeys.size >= (options.maxJourneys ?? 8)) return;
    const now = Date.now();
    const free = options.members.filter(
      (m) => !inJourney.has(m.email) && (busyUntil.get(m.email) ?? 0) <= now && !options.away?.(m.email),
    );
    if (free.length === 0) return;
    const member = pick(free);
    inJourney.add(member.email);
    const running: Promise<void> = journey(member)
      .catch(() => undefined)
      .finally(() => {
        journeys.delete(running);
        inJourney.delete(member.email);
      });
    journeys.add(running);
  }

  const timer = setInterval(next, options.everyMs ?? 5000);
  next();
  return {
    stats,
    busy: (email) => inJourney.has(email),
    async stop() {
      clearInterval(timer);
      abort.abort();
      await Promise.all([...journeys]);
    },
  };
}

/** Members' id tags lent to the fleet's random sessions (simulator.ts TagPool), and to whom each is lent. */
export interface MemberTagPool extends TagPool {
  /** Whether the member's tag is on loan (their card charging somewhere): no app journey for them meanwhile. */
  lent(email: string): boolean;
  /** Members who must not be lent (a journey of theirs is under way). */
  skip(busy: (email: string) => boolean): void;
}

/** How long a tag refused at Authorize or StartTransaction is not lent again. */
export const REFUSED_TAG_REST_MS = 10 * 60_000;

/** A member whose tag may be lent: `sites`, the private stations' sites they belong to. */
export interface PoolMember {
  email: string;
  idTag: string;
  sites?: ReadonlySet<number>;
}

/** Which chargers take which tags: a private station's charger only its site's members (null: anyone). */
export interface PoolRules {
  privateSiteOf(chargerId: string): number | null;
}

export function memberTagPool(
  initial: ReadonlyArray<PoolMember>,
  random: () => number = Math.random,
  now: () => number = Date.now,
  rules: PoolRules = { privateSiteOf: () => null },
): MemberTagPool & { replace(members: ReadonlyArray<PoolMember>, rules?: PoolRules): void } {
  let members = initial;
  let where = rules;
  const lentTo = new Map<string, string>();
  const restUntil = new Map<string, number>();
  let busy: (email: string) => boolean = () => false;
  return {
    take(chargerId) {
      const site = chargerId === undefined ? null : where.privateSiteOf(chargerId);
      const free = members.filter(
        (m) =>
          !lentTo.has(m.idTag) &&
          !busy(m.email) &&
          (restUntil.get(m.idTag) ?? 0) <= now() &&
          (site === null || m.sites?.has(site) === true),
      );
      const member = free[Math.floor(random() * free.length)];
      if (member) lentTo.set(member.idTag, member.email);
      return member?.idTag;
    },
    give(idTag, refused = false) {
      lentTo.delete(idTag);
      if (refused) restUntil.set(idTag, now() + REFUSED_TAG_REST_MS);
    },
    lent: (email) => [...lentTo.values()].includes(email),
    skip(check) {
      busy = check;
    },
    replace(next, nextRules) {
      members = next;
      if (nextRules) where = nextRules;
    },
  };
}

/** The active demo members (not locked), by e-mail. */
async function demoMemberEmails(): Promise<string[]> {
  const { DEMO_MEMBERS } = await import('./demo-people.ts');
  return DEMO_MEMBERS.filter(([, , , , flags]) => !flags.includes('L')).map(([, , email]) => email);
}

/** How often the demo's pool reads again who may charge (a member who paid, a new private station member). */
const DEMO_POOL_REFRESH_MS = 30_000;

/**
 * The tags a charger would accept today, as the server decides (modules/booking/charger-start.ts): the active
 * demo members' app tags as the database holds them (a demo database made by an older version has other tags
 * than today's loader gives), without members who owe a payment (Blocked) and, at a private station (its
 * cluster Internal Used), its site's members only (Invalid for the others).
 */
async function demoPoolMembers(
  db: Db,
  emails: string[],
): Promise<{ members: PoolMember[]; rules: PoolRules }> {
  const rows = await db
    .select({ id: users.id, email: users.email, idTag: idTags.idTag })
    .from(idTags)
    .innerJoin(users, eq(users.id, idTags.userId))
    .where(and(eq(idTags.kind, 'app'), eq(users.active, true), inArray(users.email, emails)));
  const owing = new Set(
    (
      await db
        .selectDistinct({ userId: bookings.userId })
        .from(bookings)
        .where(and(eq(bookings.status, 'stopped'), isNull(bookings.deletedAt)))
    ).map((row) => row.userId),
  );
  const memberships = await db
    .select({ userId: promotionRedemptions.userId, landlordId: promotionLandlords.landlordId })
    .from(promotionRedemptions)
    .innerJoin(promotions, eq(promotions.id, promotionRedemptions.promotionId))
    .innerJoin(promotionLandlords, eq(promotionLandlords.promotionId, promotions.id))
    .where(and(eq(promotions.type, 'landlord'), eq(promotions.active, true)));
  const sitesOf = new Map<number, Set<number>>();
  for (const { userId, landlordId } of memberships) {
    if (!sitesOf.has(userId)) sitesOf.set(userId, new Set());
    sitesOf.get(userId)?.add(landlordId);
  }
  const privateChargers = new Map(
    (
      await db
        .select({ id: chargers.id, landlordId: chargers.landlordId })
        .from(chargers)
        .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
        .innerJoin(merchants, eq(merchants.id, landlords.merchantId))
        .where(eq(merchants.internal, true))
    ).map((row) => [row.id, row.landlordId]),
  );
  return {
    members: rows
      .filter((row) => !owing.has(row.id))
      .map((row) => ({ email: row.email, idTag: row.idTag, sites: sitesOf.get(row.id) ?? new Set() })),
    rules: { privateSiteOf: (chargerId) => privateChargers.get(chargerId) ?? null },
  };
}

/**
 * The demo fleet's id tags (`npm start`): tags the charger would accept (demoPoolMembers), read again every
 * 30 s, so the chargers' own sessions are members' walk-ins (each then paid in the app by the member
 * simulator), not refusals filling the message log.
 */
export async function demoTagPool(db: Db): Promise<MemberTagPool & { stop(): void }> {
  const emails = await demoMemberEmails();
  const first = await demoPoolMembers(db, emails);
  const pool = memberTagPool(first.members, Math.random, Date.now, first.rules);
  const timer = setInterval(() => {
    demoPoolMembers(db, emails).then(
      (next) => pool.replace(next.members, next.rules),
      () => undefined /* the server stopping: the pool keeps what it had */,
    );
  }, DEMO_POOL_REFRESH_MS);
  timer.unref();
  return { ...pool, stop: () => clearInterval(timer) };
}

/** The share of the demo's journeys that try the chargers of its power-limited sites first. */
const DEMO_FAVOURED_SHARE = 0.3;

/**
 * The demo's members (`npm start`): the active demo members with the demo password, and the demo call-center
 * user for the staff's Stop and Force stop. With the fleet's `tags`, a member whose tag is charging at a charger
 * makes no journey, and a member in a journey is not lent to the fleet. With `favoured` (the chargers of the sites
 * with a power limit) 30 % of the journeys try those first.
 */
export async function startDemoMemberSimulator(
  baseUrl: string,
  simulation: Simulation<AnySimulatedCharger>,
  log: (message: string) => void,
  tags?: MemberTagPool,
  favoured?: ReadonlySet<string>,
): Promise<MemberSimulator> {
  const { DEMO_PASSWORD, DEMO_USERS } = await import('./demo-users.ts');
  const callcenter = DEMO_USERS.find((user) => user.role === 'callcenter')!;
  const members = await startMemberSimulator({
    baseUrl,
    simulation,
    members: (await demoMemberEmails()).map((email) => ({ email, pass: DEMO_PASSWORD })),
    staff: { email: callcenter.email, pass: DEMO_PASSWORD },
    log,
    ...(tags ? { away: tags.lent } : {}),
    ...(favoured && favoured.size > 0
      ? { favoured: { chargerIds: favoured, share: DEMO_FAVOURED_SHARE } }
      : {}),
  });
  tags?.skip(members.busy);
  return members;
}
