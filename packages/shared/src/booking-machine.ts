/**
 * Bookings: their statuses, payment methods, and the one transition table every status change goes through
 * (document 3, section 4). The server applies it to charger events, member calls and staff actions; the web
 * app reads it to offer only the actions a status allows. Wire values are the contract: never rename them.
 */
import type { AdminRole } from './enums.ts';
import { FIELD_RULES } from './permissions.ts';

export const BOOKING_STATUSES = [
  'created',
  'started',
  'charging',
  'charged',
  'stopped',
  'cancelled',
  'paid',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  created: 'Created',
  started: 'Started',
  charging: 'Charging',
  charged: 'Charged',
  stopped: 'Unpaid',
  cancelled: 'Cancelled',
  paid: 'Paid',
};

/** The spec's colours as Ant Design tag colours: grey, blue, amber, red, green. */
export const BOOKING_STATUS_COLORS: Record<BookingStatus, string> = {
  created: 'default',
  started: 'default',
  charging: 'blue',
  charged: 'blue',
  stopped: 'gold',
  cancelled: 'red',
  paid: 'green',
};

export const bookingStatusLabel = (status: string | null | undefined): string =>
  (BOOKING_STATUS_LABELS as Record<string, string>)[status ?? ''] ?? 'Unknown';

export const PAYMENT_METHODS = ['qr', 'credit', 'truemoney', 'linepay', 'zero', 'manual'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  qr: 'QR Promptpay',
  credit: 'Credit / Debit Card',
  truemoney: 'True Money Wallet',
  linepay: 'Line Pay',
  zero: 'Zero',
  manual: 'Manual',
};
export const paymentMethodLabel = (method: string | null | undefined): string =>
  method ? ((PAYMENT_METHOD_LABELS as Record<string, string>)[method] ?? method) : '';

/**
 * No refund for `zero` (nothing was paid) or `qr` (a PromptPay transfer has no card to credit back: the money
 * is returned by a bank transfer outside the system).
 */
export const NON_REFUNDABLE_METHODS: readonly PaymentMethod[] = ['zero', 'qr'];
export const isRefundable = (method: string, refundedAt: string | null | undefined) =>
  !refundedAt && !(NON_REFUNDABLE_METHODS as readonly string[]).includes(method);

/** Who made a transition: the charger over OCPP, the member's app, a staff user, or the server itself. */
export const BOOKING_ACTORS = ['charger', 'member', 'staff', 'system'] as const;
export type BookingActor = (typeof BOOKING_ACTORS)[number];

interface Transition {
  /** The statuses it may start from; null = no booking yet (it creates one). */
  from: readonly (BookingStatus | null)[];
  /** The status it leads to; null = the status stays (the event is still recorded). */
  to: BookingStatus | null;
  actors: readonly BookingActor[];
  /** Past tense for the history and for the 409 message ('can't be stopped'). */
  verb: string;
}

/** Every event a booking can go through. Meter values are not events: they update energy and SoC only. */
export const BOOKING_TRANSITIONS = {
  reserve: { from: [null], to: 'created', actors: ['member'], verb: 'reserved' },
  'check-in': { from: ['created'], to: 'started', actors: ['member'], verb: 'checked in' },
  /** The member asks to start: the server sends RemoteStartTransaction; the charger's StartTransaction follows. */
  'remote-start': { from: ['started'], to: null, actors: ['member'], verb: 'started remotely' },
  /** StartTransaction with the member's id tag on the reserved connector (checked in or not). */
  'charger-start': {
    from: ['created', 'started'],
    to: 'charging',
    actors: ['charger'],
    verb: 'started charging',
  },
  /** A member's id tag started a session with no booking: a walk-in booking. */
  'walk-in': { from: [null], to: 'charging', actors: ['charger'], verb: 'started as a walk-in' },
  /** SoC 100, or an EV's pause (SuspendedEV) that lasted to the stop on a charger without SoC: fullAt is set. */
  full: { from: ['charging'], to: null, actors: ['charger'], verb: 'reported full' },
  /**
   * The connector reported Available (cable out) before the charger's StopTransaction arrived: kept, and
   * applied (cable removed at that time) when the stop comes.
   */
  'cable-out': {
    from: ['charging'],
    to: null,
    actors: ['charger'],
    verb: 'reported the cable removed before its stop',
  },
  /** Stop asks the charger (RemoteStopTransaction); its StopTransaction then makes the booking charged. */
  stop: { from: ['charging'], to: null, actors: ['staff', 'member'], verb: 'stopped' },
  'charger-stop': { from: ['charging'], to: 'charged', actors: ['charger'], verb: 'stopped charging' },
  /** A StopTransaction after a force stop (or a delete): recorded, the booking keeps its status and price. */
  'late-stop': {
    from: ['stopped', 'paid', 'cancelled'],
    to: null,
    actors: ['charger'],
    verb: 'reported a late stop',
  },
  /** Cable removed: the connector is Available again. The booking is priced. */
  'connector-available': {
    from: ['charged'],
    to: 'stopped',
    actors: ['charger'],
    verb: 'reported the cable removed',
  },
  'force-stop': { from: ['charging'], to: 'stopped', actors: ['staff'], verb: 'force stopped' },
  avaliable: { from: ['charged'], to: 'stopped', actors: ['staff'], verb: 'marked available' },
  'set-amount': { from: ['stopped'], to: null, actors: ['staff'], verb: 'given an amount' },
  /** The payment provider said yes (the server completes a charge left pending by a crash: 'system'). */
  pay: { from: ['stopped'], to: 'paid', actors: ['staff', 'member', 'system'], verb: 'paid' },
  /** The payment provider refused a charge: the booking stays Unpaid. Recorded only. */
  'pay-failed': {
    from: ['stopped'],
    to: null,
    actors: ['staff', 'member', 'system'],
    verb: 'refused by the payment provider',
  },
  'cancel-payment': { from: ['stopped'], to: 'cancelled', actors: ['staff'], verb: 'cancelled' },
  /** The member cancels a reservation, or the server cancels one whose slot ended unused. */
  cancel: { from: ['created', 'started'], to: 'cancelled', actors: ['member', 'system'], verb: 'cancelled' },
  /**
   * A reservation for now was sent to the charger (ReserveNow, issue 32 §4): recorded with the charger's
   * answer (Accepted, Occupied, Rejected, …, NotSupported, offline); whatever it said, the booking stands.
   */
  'charger-reserve': {
    from: ['created', 'started', 'cancelled', 'charging'],
    to: null,
    actors: ['system'],
    verb: 'sent ReserveNow to the charger',
  },
  /** The reservation was cancelled or expired: CancelReservation to the charger that had accepted it. */
  'charger-cancel-reservation': {
    from: ['created', 'started', 'cancelled'],
    to: null,
    actors: ['system'],
    verb: 'sent CancelReservation to the charger',
  },
  /** Soft delete (the row and its history stay for audit); 'charging' only with booking.delete-charging. */
  delete: { from: ['created', 'started', 'charging'], to: null, actors: ['staff'], verb: 'deleted' },
  refund: { from: ['paid'], to: null, actors: ['staff', 'system'], verb: 'refunded' },
  /** The payment provider refused a refund: nothing was paid back. Recorded only. */
  'refund-failed': {
    from: ['paid'],
    to: null,
    actors: ['staff', 'system'],
    verb: 'refund refused by the payment provider',
  },
} as const satisfies Record<string, Transition>;

export type BookingEvent = keyof typeof BOOKING_TRANSITIONS;
export const BOOKING_EVENTS = Object.keys(BOOKING_TRANSITIONS) as BookingEvent[];

/** A refused transition; the server answers it with 409 and this message. */
export class BookingTransitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BookingTransitionError';
  }
}

/** The statuses an event may start from. */
export const fromStatuses = (event: BookingEvent): readonly (BookingStatus | null)[] =>
  BOOKING_TRANSITIONS[event].from;

/** True when the event may happen to a booking in that status (null = none yet), made by that actor. */
export function canTransition(
  status: BookingStatus | null,
  event: BookingEvent,
  actor: BookingActor,
): boolean {
  const transition: Transition = BOOKING_TRANSITIONS[event];
  return transition.from.includes(status) && transition.actors.includes(actor);
}

/**
 * The status after the event, or a BookingTransitionError saying why not. `status` is the booking's
 * (null = no booking yet).
 */
export function nextStatus(
  status: BookingStatus | null,
  event: BookingEvent,
  actor: BookingActor,
): BookingStatus {
  const transition: Transition = BOOKING_TRANSITIONS[event];
  if (!transition.actors.includes(actor)) {
    throw new BookingTransitionError(`A ${actor} can't make the '${event}' transition`);
  }
  if (!transition.from.includes(status)) {
    throw new BookingTransitionError(
      status === null
        ? `No booking to be ${transition.verb}`
        : `A booking that is ${bookingStatusLabel(status)} can't be ${transition.verb}`,
    );
  }
  const next = transition.to ?? status;
  if (next === null) throw new BookingTransitionError(`No booking to be ${transition.verb}`);
  return next;
}

/** The staff's actions on the booking list (section 4), by status. */
export const STAFF_BOOKING_ACTIONS = [
  'stop',
  'force-stop',
  'avaliable',
  'set-amount',
  'pay',
  'cancel-payment',
  'delete',
] as const satisfies readonly BookingEvent[];
export type StaffBookingAction = (typeof STAFF_BOOKING_ACTIONS)[number];

const hasRule = (role: AdminRole, rule: 'bookingForceStop' | 'bookingDeleteCharging') =>
  (FIELD_RULES[rule] as readonly string[]).includes(role);

/**
 * The actions a staff role may take on a booking in this status: the transition table narrowed by the role
 * rules of section 6 (Force stop: admin and callcenter; Delete while charging: admin only).
 */
export function staffActionsFor(status: BookingStatus, role: AdminRole): StaffBookingAction[] {
  return STAFF_BOOKING_ACTIONS.filter((action) => {
    if (!canTransition(status, action, 'staff')) return false;
    if (action === 'force-stop') return hasRule(role, 'bookingForceStop');
    if (action === 'delete' && status === 'charging') return hasRule(role, 'bookingDeleteCharging');
    return true;
  });
}
