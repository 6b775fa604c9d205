import {
  BOOKING_STATUS_COLORS,
  BOOKING_TRANSITIONS,
  type BookingAmountBody,
  type BookingItem,
} from '@ev/shared';
import { bahtText, pointsText } from '../../lib/format.ts';

const KWH = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Energy in kWh, 2 decimals ("12.35"). */
export const kwhText = (kwh: number) => KWH.format(kwh);

const two = (value: number) => String(value).padStart(2, '0');

/** hh:mm:ss of a span (hours past 99 keep their digits); zero when negative (section 2). */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
}

type Times = Pick<BookingItem, 'startTime' | 'stopTime'>;

/** The charging time: from the start to the stop, or to now while it has not stopped; 0 before a start. */
export function durationMs(booking: Times, now: number): number {
  if (!booking.startTime) return 0;
  const end = booking.stopTime ? Date.parse(booking.stopTime) : now;
  return end - Date.parse(booking.startTime);
}

/** The duration grows by itself: started and not stopped. */
export const isTicking = (booking: Times) => booking.startTime !== null && booking.stopTime === null;

/** The status tag's colour; 'Unknown' (any other value) is grey. */
export const statusColor = (status: string) =>
  (BOOKING_STATUS_COLORS as Record<string, string>)[status] ?? 'default';

/**
 * What Pay charges: the total the server owes it at (the admin amount if set, else the parts, less the
 * booking's discount code).
 */
export const amountDue = (booking: Pick<BookingItem, 'totalAmount'>) => booking.totalAmount;

export interface BreakdownLine {
  label: string;
  amount: string;
  /** What it counted, or what it replaced: a line each. */
  details: string[];
  /** Set by the staff (Set amount), not computed. */
  override?: boolean;
}

const minutes = (count: number) => `${count} min`;

/** The total's tooltip: the three parts with what they counted, overrides marked, the admin amount, the total. */
export function breakdown(booking: BookingItem): BreakdownLine[] {
  const { computed, overrides } = booking;
  const part = (
    label: string,
    key: 'priceByPower' | 'priceByDuration' | 'priceByPenalty',
    counted: string[],
  ): BreakdownLine => {
    const override = overrides[key];
    return override === null
      ? { label, amount: bahtText(booking[key]), details: counted }
      : {
          label,
          amount: bahtText(override),
          details: [`set by staff, computed ${bahtText(computed[key])}`],
          override: true,
        };
  };
  const billed =
    computed.billedHours !== null
      ? [`${computed.billedHours} h billed`]
      : computed.billedMinutes !== null
        ? [`${minutes(computed.billedMinutes)} billed`]
        : [];
  const penalty = [
    `overstay ${minutes(computed.overstayMinutes)} (${bahtText(computed.overstay)})`,
    `DC full ${minutes(computed.dcFullMinutes)} (${bahtText(computed.dcFull)})`,
  ];
  const lines = [
    part('By power', 'priceByPower', [`${kwhText(booking.totalEnergyKwh)} kWh`]),
    part('By duration', 'priceByDuration', billed),
    part('By penalty', 'priceByPenalty', penalty),
  ];
  if (booking.adminAmount !== null) {
    lines.push({
      label: 'Admin amount',
      amount: bahtText(booking.adminAmount),
      details: ['replaces the total of the parts'],
      override: true,
    });
  }
  const paid = booking.invoiceNo !== null;
  if (booking.discountCode !== null && booking.status !== 'cancelled') {
    lines.push({
      label: 'Discount',
      amount: `-${bahtText(booking.discount)}`,
      details: [`code ${booking.discountCode}`, ...(paid ? [] : ['taken off at payment'])],
    });
  }
  if (booking.pointUsed > 0) {
    lines.push({
      label: 'Green Point',
      amount: `-${bahtText(booking.point)}`,
      details: [`${pointsText(booking.pointUsed)} redeemed`],
    });
  }
  lines.push({
    label: 'Total',
    amount: bahtText(booking.totalAmount),
    details: booking.live
      ? ['estimate while charging']
      : booking.status === 'cancelled'
        ? ['cancelled: nothing is owed (the parts above were waived)']
        : [],
  });
  return lines;
}

/** The history's words for an event: the transition's verb ('Force stopped'), or the event itself. */
export function eventLabel(event: string): string {
  const verb = (BOOKING_TRANSITIONS as Record<string, { verb: string }>)[event]?.verb;
  const text = verb ?? event;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Who made a transition: the staff user or member by name, the charger by id, or the server. */
export function actorLabel(entry: { actor: string; actorName: string | null }): string {
  switch (entry.actor) {
    case 'charger':
      return `Charger ${entry.actorName ?? ''}`.trim();
    case 'member':
      return `Member ${entry.actorName ?? ''}`.trim();
    case 'staff':
      return `${entry.actorName ?? 'Staff'} (staff)`;
    case 'system':
      return 'System';
    default:
      return entry.actorName ?? entry.actor;
  }
}

export type AmountKey = 'priceByPower' | 'priceByDuration' | 'priceByPenalty';
export const AMOUNT_PARTS: readonly AmountKey[] = ['priceByPower', 'priceByDuration', 'priceByPenalty'];

/** The Set amount form: the total (empty = the sum of the parts) and the three parts. */
export interface AmountValues {
  amount: number | null;
  priceByPower: number | null;
  priceByDuration: number | null;
  priceByPenalty: number | null;
}

/** The form's first values: the staff's amount if any, each part as it stands (its override or computed). */
export function amountValues(booking: BookingItem): AmountValues {
  return {
    amount: booking.adminAmount,
    priceByPower: booking.overrides.priceByPower ?? booking.computed.priceByPower,
    priceByDuration: booking.overrides.priceByDuration ?? booking.computed.priceByDuration,
    priceByPenalty: booking.overrides.priceByPenalty ?? booking.computed.priceByPenalty,
  };
}

/** The Total the form would make: the amount when given, else the sum of the parts (in satang, exact). */
export function previewTotal(values: Partial<AmountValues>): number {
  if (typeof values.amount === 'number') return values.amount;
  const satang = AMOUNT_PARTS.reduce((sum, key) => {
    const value = values[key];
    return sum + (typeof value === 'number' ? Math.round(value * 100) : 0);
  }, 0);
  return satang / 100;
}

/**
 * PATCH body of Set amount: only what changes. A part equal to its computed value needs no override (one
 * that was set is cleared with null), an empty amount clears the staff's total if there was one; so the
 * tooltip marks, and the history records, only what the staff really changed. Empty when nothing changes.
 */
export function amountBody(booking: BookingItem, values: AmountValues): BookingAmountBody {
  const body: BookingAmountBody = {};
  if (values.amount !== booking.adminAmount) body.amount = values.amount;
  for (const key of AMOUNT_PARTS) {
    const value = values[key];
    const wanted = value === null || value === booking.computed[key] ? null : value;
    if (wanted !== booking.overrides[key]) body[key] = wanted;
  }
  return body;
}
