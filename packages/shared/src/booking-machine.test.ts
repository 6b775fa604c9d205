import { describe, expect, it } from 'vitest';
import {
  BOOKING_EVENTS,
  BOOKING_STATUSES,
  BookingTransitionError,
  bookingStatusLabel,
  canTransition,
  isRefundable,
  nextStatus,
  staffActionsFor,
} from './booking-machine.ts';

describe('booking state machine', () => {
  it('follows a member session from reservation to payment', () => {
    let status = nextStatus(null, 'reserve', 'member');
    expect(status).toBe('created');
    status = nextStatus(status, 'check-in', 'member');
    expect(status).toBe('started');
    expect(nextStatus(status, 'remote-start', 'member')).toBe('started');
    status = nextStatus(status, 'charger-start', 'charger');
    expect(status).toBe('charging');
    expect(nextStatus(status, 'full', 'charger')).toBe('charging');
    status = nextStatus(status, 'charger-stop', 'charger');
    expect(status).toBe('charged');
    status = nextStatus(status, 'connector-available', 'charger');
    expect(status).toBe('stopped');
    status = nextStatus(status, 'pay', 'member');
    expect(status).toBe('paid');
    expect(nextStatus(status, 'refund', 'staff')).toBe('paid');
  });

  it('makes a walk-in booking charging at once', () => {
    expect(nextStatus(null, 'walk-in', 'charger')).toBe('charging');
  });

  it('moves a force stop straight to the payment stage and records a late stop without a change', () => {
    expect(nextStatus('charging', 'force-stop', 'staff')).toBe('stopped');
    expect(nextStatus('stopped', 'late-stop', 'charger')).toBe('stopped');
    expect(() => nextStatus('charging', 'late-stop', 'charger')).toThrow(BookingTransitionError);
  });

  it('refuses an event in the wrong status with a message naming the status', () => {
    expect(() => nextStatus('paid', 'force-stop', 'staff')).toThrow(
      "A booking that is Paid can't be force stopped",
    );
    expect(() => nextStatus('stopped', 'stop', 'staff')).toThrow("A booking that is Unpaid can't be stopped");
    expect(() => nextStatus(null, 'pay', 'member')).toThrow('No booking to be paid');
  });

  it('refuses an actor the event does not name', () => {
    expect(() => nextStatus('charging', 'force-stop', 'member')).toThrow(BookingTransitionError);
    expect(() => nextStatus('charging', 'charger-stop', 'staff')).toThrow(BookingTransitionError);
    expect(canTransition('stopped', 'cancel-payment', 'member')).toBe(false);
  });

  it('never leads out of a final status except by recorded, status-keeping events', () => {
    for (const final of ['paid', 'cancelled'] as const) {
      for (const event of BOOKING_EVENTS) {
        for (const actor of ['charger', 'member', 'staff', 'system'] as const) {
          if (canTransition(final, event, actor)) expect(nextStatus(final, event, actor)).toBe(final);
        }
      }
    }
  });

  it('labels every status, and anything else Unknown', () => {
    expect(BOOKING_STATUSES.map(bookingStatusLabel)).toEqual([
      'Created',
      'Started',
      'Charging',
      'Charged',
      'Unpaid',
      'Cancelled',
      'Paid',
    ]);
    expect(bookingStatusLabel('expired')).toBe('Unknown');
    expect(bookingStatusLabel(null)).toBe('Unknown');
  });
});

describe('staff actions by status and role (section 4 and 6)', () => {
  it.each([
    ['created', 'admin', ['delete']],
    ['started', 'station', ['delete']],
    ['charging', 'admin', ['stop', 'force-stop', 'delete']],
    ['charging', 'callcenter', ['stop', 'force-stop']],
    ['charging', 'station', ['stop']],
    ['charged', 'station', ['avaliable']],
    ['stopped', 'callcenter', ['set-amount', 'pay', 'cancel-payment']],
    ['paid', 'admin', []],
    ['cancelled', 'admin', []],
  ] as const)('%s for %s: %j', (status, role, actions) => {
    expect(staffActionsFor(status, role)).toEqual(actions);
  });
});

describe('refunds', () => {
  it('are refused for zero and qr, and once refunded', () => {
    expect(isRefundable('credit', null)).toBe(true);
    expect(isRefundable('manual', undefined)).toBe(true);
    expect(isRefundable('zero', null)).toBe(false);
    expect(isRefundable('qr', null)).toBe(false);
    expect(isRefundable('credit', '2026-11-23T10:00:00.000Z')).toBe(false);
  });
});
