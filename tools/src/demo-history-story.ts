/**
 * The stories a demo booking can have (demo-history.ts places them): a reservation cancelled or deleted, a
 * session charged and stopped one of the ways a real one is (at the charger, from the app, by staff, force
 * stopped), the cable out, priced with priceSession from the connector's plan, then paid (some after a staff
 * override, some by staff), a few refunded, a few left unpaid; each a list of events at realistic times.
 */
import {
  type AdminOverrides,
  type BookingActor,
  type BookingEvent,
  type BookingStatus,
  type PlanSnapshot,
  type PriceBreakdown,
  priceSession,
} from '@ev/shared';
import { type DemoCar, pickerOf, type Random, sessionOf } from './demo-history-session.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

export interface HistoryConnector {
  id: number;
  chargerId: string;
  ocppConnectorId: number;
  connectorTypeId: number;
  kw: number;
  merchantId: number;
  landlordId: number;
  priceId: number;
  /** Open minutes of the local day, [from, to), per weekday (0 = Sunday); null = always open. */
  hours: Array<Array<[number, number]>> | null;
}
export interface HistoryMember {
  id: number;
  idTag: string;
  /** Locked members keep their past bookings but make no new ones. */
  active: boolean;
}
export interface HistoryInput {
  now: number;
  days: number;
  count: number;
  seed: number;
  connectors: HistoryConnector[];
  members: HistoryMember[];
  /** Staff user ids: the admin deletes and force stops, the call center handles payments and refunds. */
  staff: { admin: number; callcenter: number };
  plans: ReadonlyMap<number, PlanSnapshot>;
}
export interface HistoryEvent {
  event: BookingEvent;
  from: BookingStatus | null;
  to: BookingStatus;
  actor: BookingActor;
  /** Staff user id; member events get the booking's member when it is chosen. */
  userId: number | null;
  at: number;
  detail: Record<string, unknown> | null;
}
export interface HistoryBooking {
  connector: HistoryConnector;
  member: HistoryMember | null;
  status: BookingStatus;
  createdAt: number;
  slotStart: number | null;
  slotEnd: number | null;
  checkedInAt: number | null;
  startTime: number | null;
  stopTime: number | null;
  avaliableAt: number | null;
  fullAt: number | null;
  energyWh: number;
  soc: number | null;
  overrides: AdminOverrides;
  price: PriceBreakdown | null;
  deletedAt: number | null;
  /** The OCPP transaction, when the charger started one: its meter and how it ended. */
  session: { startedAt: number; stoppedAt: number | null; energyWh: number; reason: string | null } | null;
  payment: {
    method: string;
    /** Satang charged: the price, less the discount code and points demo-points.ts may take off it. */
    amount: number;
    at: number;
    staffId: number | null;
    refund: { at: number; amount: number; staffId: number } | null;
  } | null;
  events: HistoryEvent[];
  /** Until when the member may not book again (paid, cancelled, or never for an open booking). */
  busyUntil: number;
}

const PAY_METHODS: Array<[string, number]> = [
  ['qr', 38],
  ['credit', 27],
  ['truemoney', 14],
  ['linepay', 12],
];
/** The stories a booking can have, each a list of events at realistic times. */
export function storyTeller(input: HistoryInput, random: Random) {
  const { staff } = input;
  const between = (from: number, to: number) => from + random() * (to - from);
  const chance = (share: number) => random() < share;
  const payMethod = pickerOf(
    PAY_METHODS.map(([method]) => method),
    PAY_METHODS.map(([, weight]) => weight),
    random,
  );

  function priced(booking: HistoryBooking): PriceBreakdown {
    const plan = input.plans.get(booking.connector.priceId)!;
    return priceSession(
      plan,
      {
        startTime: booking.startTime,
        stopTime: booking.stopTime,
        avaliableAt: booking.avaliableAt,
        fullAt: booking.fullAt,
        energyWh: booking.energyWh,
        connectorTypeId: booking.connector.connectorTypeId,
      },
      { overrides: booking.overrides },
    );
  }

  function base(connector: HistoryConnector, createdAt: number, status: BookingStatus): HistoryBooking {
    return {
      connector,
      member: null,
      status,
      createdAt,
      slotStart: null,
      slotEnd: null,
      checkedInAt: null,
      startTime: null,
      stopTime: null,
      avaliableAt: null,
      fullAt: null,
      energyWh: 0,
      soc: null,
      overrides: {},
      price: null,
      deletedAt: null,
      session: null,
      payment: null,
      events: [],
      busyUntil: Number.POSITIVE_INFINITY,
    };
  }
  /** Records an event and moves the booking to its status. */
  function happen(
    booking: HistoryBooking,
    event: BookingEvent,
    to: BookingStatus | null,
    actor: BookingActor,
    at: number,
    detail: Record<string, unknown> | null = null,
    userId: number | null = null,
  ) {
    const from = booking.events.length === 0 ? null : booking.status;
    const next = to ?? booking.status;
    booking.events.push({ event, from, to: next, actor, userId, at: Math.round(at), detail });
    booking.status = next;
  }
  function reserve(booking: HistoryBooking, slotStart: number, hours: number) {
    booking.slotStart = Math.round(slotStart);
    booking.slotEnd = Math.round(slotStart + hours * HOUR);
    happen(booking, 'reserve', 'created', 'member', booking.createdAt, {
      slotStart: new Date(booking.slotStart).toISOString(),
      slotEnd: new Date(booking.slotEnd).toISOString(),
    });
  }

  /** Reserved (or walked in), charged, stopped one way or another, the cable out: Unpaid, priced. */
  function charged(connector: HistoryConnector, arrival: number, end: 'unpaid' | 'paid'): HistoryBooking {
    arrival = Math.round(arrival);
    const car: DemoCar = sessionOf(connector, random);
    const walkIn = end === 'paid' && chance(0.04);
    const start = Math.round(arrival + between(20_000, 3 * MINUTE));
    const booking = base(
      connector,
      walkIn ? start : Math.round(arrival - between(2 * MINUTE, 90 * MINUTE)),
      'created',
    );
    if (walkIn) {
      booking.startTime = start;
      happen(booking, 'walk-in', 'charging', 'charger', start, { transactionId: null });
    } else {
      reserve(booking, Math.max(booking.createdAt, arrival - between(0, 10 * MINUTE)), chance(0.6) ? 1 : 2);
      if (chance(0.8)) {
        booking.checkedInAt = Math.round(arrival);
        happen(booking, 'check-in', 'started', 'member', arrival);
        happen(booking, 'remote-start', null, 'member', arrival + between(5_000, 20_000));
      }
      booking.startTime = start;
      happen(booking, 'charger-start', 'charging', 'charger', start, { transactionId: null });
    }
    booking.energyWh = car.energyWh;
    booking.soc = car.soc;
    if (car.fullAfter !== null) {
      booking.fullAt = start + car.fullAfter;
      happen(booking, 'full', null, 'charger', booking.fullAt);
    }
    let stop = start + car.duration;
    const how = random();
    if (how < 0.012) {
      // Force stop by the call center: no overstay, the charger's own stop comes late.
      booking.stopTime = booking.avaliableAt = stop;
      happen(booking, 'force-stop', 'stopped', 'staff', stop, null, staff.callcenter);
      const late = stop + between(3_000, 40_000);
      booking.session = { startedAt: start, stoppedAt: late, energyWh: car.energyWh, reason: 'Remote' };
      happen(booking, 'late-stop', null, 'charger', late, {
        transactionId: null,
        energyWh: car.energyWh,
        reason: 'Remote',
        stoppedAt: new Date(late).toISOString(),
      });
    } else {
      const reason = how < 0.4 ? 'Remote' : how < 0.85 ? 'EVDisconnected' : 'Local';
      if (reason === 'Remote') {
        const byStaff = how < 0.035;
        happen(
          booking,
          'stop',
          null,
          byStaff ? 'staff' : 'member',
          stop - between(2_000, 8_000),
          byStaff ? { transactionId: null } : null,
          byStaff ? staff.callcenter : null,
        );
      }
      booking.stopTime = stop;
      booking.session = { startedAt: start, stoppedAt: stop, energyWh: car.energyWh, reason };
      happen(booking, 'charger-stop', 'charged', 'charger', stop, {
        transactionId: null,
        energyWh: car.energyWh,
        reason,
      });
      stop = booking.stopTime;
      const away = random();
      booking.avaliableAt = Math.round(
        stop +
          (away < 0.8
            ? between(30_000, 4 * MINUTE)
            : away < 0.95
              ? between(5, 20) * MINUTE
              : between(20, 90) * MINUTE),
      );
      if (chance(0.03))
        happen(booking, 'avaliable', 'stopped', 'staff', booking.avaliableAt, null, staff.callcenter);
      else happen(booking, 'connector-available', 'stopped', 'charger', booking.avaliableAt);
    }
    booking.price = priced(booking);
    return booking;
  }

  /** Staff overrides some, then the member (or the staff, manual) pays; a few are refunded later. */
  function pay(booking: HistoryBooking) {
    let at = booking.avaliableAt! + between(MINUTE, 8 * MINUTE);
    if (chance(0.02)) {
      const penalty = booking.price!.computed.byPenalty;
      const body: Record<string, number> =
        penalty > 0
          ? { priceByPenalty: 0 }
          : chance(0.3)
            ? { amount: 0 }
            : { amount: Math.round(booking.price!.total / 200) };
      booking.overrides = 'priceByPenalty' in body ? { priceByPenalty: 0 } : { adminAmount: body.amount! };
      at = booking.avaliableAt! + between(10 * MINUTE, 3 * HOUR);
      happen(booking, 'set-amount', null, 'staff', at, body, staff.callcenter);
      booking.price = priced(booking);
      at += between(MINUTE, 30 * MINUTE);
    }
    const amount = booking.price!.total;
    const manual = chance(0.03);
    if (manual) at += between(10 * MINUTE, 26 * HOUR);
    const method = amount === 0 ? 'zero' : manual ? 'manual' : payMethod();
    happen(booking, 'pay', 'paid', manual ? 'staff' : 'member', at, null, manual ? staff.callcenter : null);
    const refundable = method !== 'zero' && method !== 'qr';
    const refundAt = Math.round(at + between(HOUR, 5 * DAY));
    const refund =
      refundable && chance(0.02) && refundAt < input.now - MINUTE
        ? { at: refundAt, amount: chance(0.6) ? amount : Math.round(amount / 2), staffId: staff.callcenter }
        : null;
    booking.payment = {
      method,
      amount,
      at: Math.round(at),
      staffId: manual ? staff.callcenter : null,
      refund,
    };
    booking.busyUntil = Math.round(at);
    // The refund event is written once its credit-note number is known (demo-bookings.ts).
  }

  return {
    /** Charged and priced, the cable out before now, not paid: for staff to handle. */
    unpaid(connector: HistoryConnector, arrival: number): HistoryBooking | null {
      const booking = charged(connector, arrival, 'unpaid');
      return booking.avaliableAt! < input.now - 10 * MINUTE ? booking : null;
    },

    /** Today's open reservations: created for later today, or checked in now and about to start. */
    reservation(connector: HistoryConnector, status: 'created' | 'started'): HistoryBooking {
      const now = input.now;
      const booking = base(connector, Math.round(now - between(5 * MINUTE, 50 * MINUTE)), 'created');
      const slot =
        status === 'created' ? now + between(30 * MINUTE, 3 * HOUR) : now - between(5, 10) * MINUTE;
      reserve(booking, Math.max(slot, booking.createdAt), 2);
      if (status === 'started') {
        booking.checkedInAt = Math.round(now - between(MINUTE, 4 * MINUTE));
        happen(booking, 'check-in', 'started', 'member', booking.checkedInAt);
      }
      return booking;
    },

    /** Any of the finished stories, by their shares. */
    ordinary(connector: HistoryConnector, arrival: number): HistoryBooking {
      const kind = random();
      if (kind < 0.07) {
        // A reservation never used: the member cancels, or the server does when the slot ends.
        const booking = base(connector, Math.round(arrival - between(10 * MINUTE, 3 * HOUR)), 'created');
        reserve(booking, arrival, chance(0.5) ? 1 : 2);
        if (kind < 0.005) {
          happen(
            booking,
            'delete',
            null,
            'staff',
            booking.createdAt + between(MINUTE, 40 * MINUTE),
            null,
            staff.admin,
          );
          booking.deletedAt = booking.events.at(-1)!.at;
        } else if (kind < 0.04)
          happen(booking, 'cancel', 'cancelled', 'member', between(booking.createdAt + MINUTE, arrival));
        // As expireReservations does: once a minute, for slots ended 15 minutes ago.
        else
          happen(booking, 'cancel', 'cancelled', 'system', booking.slotEnd! + between(15, 16) * MINUTE, {
            reason: 'slot ended unused',
          });
        booking.busyUntil = booking.events.at(-1)!.at;
        return booking;
      }
      const booking = charged(connector, arrival, 'paid');
      if (kind < 0.072 && booking.events.every((event) => event.event !== 'force-stop')) {
        // Deleted by an admin while charging: the history stays, the charger's stop comes late.
        const share = between(0.2, 0.8);
        const at = booking.startTime! + share * (booking.stopTime! - booking.startTime!);
        booking.events = booking.events.filter((event) => event.at < at);
        booking.status = 'charging';
        if (booking.fullAt !== null && booking.fullAt >= at) booking.fullAt = null;
        booking.stopTime = booking.avaliableAt = null;
        booking.energyWh = Math.round(booking.energyWh * share);
        booking.session!.energyWh = booking.energyWh;
        booking.price = null;
        happen(booking, 'delete', null, 'staff', at, null, staff.admin);
        booking.deletedAt = Math.round(at);
        const late = at + between(3_000, 30_000);
        happen(booking, 'late-stop', null, 'charger', late, {
          transactionId: null,
          energyWh: booking.session!.energyWh,
          reason: 'Remote',
          stoppedAt: new Date(late).toISOString(),
        });
        booking.session = { ...booking.session!, stoppedAt: Math.round(late), reason: 'Remote' };
        booking.busyUntil = Math.round(late);
        return booking;
      }
      if (kind < 0.075) {
        // Staff cancel the payment: nothing is owed.
        const at = booking.avaliableAt! + between(HOUR, 20 * HOUR);
        happen(booking, 'cancel-payment', 'cancelled', 'staff', at, null, staff.callcenter);
        booking.busyUntil = Math.round(at);
        return booking;
      }
      pay(booking);
      return booking;
    },
  };
}
