/**
 * The demo booking history (issue 12), generated without a database: given the network (connectors with their
 * plan, power and site hours), the members and `now`, about 90 days of bookings as a real network would have
 * them, every status, every payment method, with the events that led there (demo-history-story.ts). Here:
 * how many a day, at what hours, on which connectors (open, and free then), and for which member (one open
 * booking each at a time). Seeded: the same input gives the same history. demo-bookings.ts writes it.
 */
import { BANGKOK_OFFSET_MS } from '@ev/shared';
import { pickerOf, type Random, seeded } from './demo-history-session.ts';
import {
  type HistoryBooking,
  type HistoryConnector,
  type HistoryInput,
  type HistoryMember,
  storyTeller,
} from './demo-history-story.ts';

export type {
  HistoryBooking,
  HistoryConnector,
  HistoryEvent,
  HistoryInput,
  HistoryMember,
} from './demo-history-story.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const BANGKOK = BANGKOK_OFFSET_MS;

/** Bookings by the local hour they start: a little at night, a midday bump, the evening peak. */
const HOUR_WEIGHTS = [
  0.6, 0.4, 0.3, 0.2, 0.2, 0.4, 1, 2, 3, 3.5, 3.8, 4.2, 4.6, 4.4, 4, 4, 4.6, 5.8, 7, 7.4, 6.6, 5, 3.2, 1.6,
];
const mod = (value: number, by: number) => ((value % by) + by) % by;
const dayStartOf = (at: number) => at - mod(at + BANGKOK, DAY);
const weekdayOf = (at: number) => mod(Math.floor((at + BANGKOK) / DAY) + 4, 7);
const minuteOfDay = (at: number) => Math.floor(mod(at + BANGKOK, DAY) / MINUTE);

/** True when the site is open for the whole of [from, to] (same local day for a period site). */
function openFor(connector: HistoryConnector, from: number, to: number): boolean {
  if (!connector.hours) return true;
  if (dayStartOf(from) !== dayStartOf(to)) return false;
  const [a, b] = [minuteOfDay(from), minuteOfDay(to)];
  return connector.hours[weekdayOf(from)]!.some(([open, close]) => a >= open && b < close);
}

/** Generates the history, oldest first (by createdAt). */
export function generateHistory(input: HistoryInput): HistoryBooking[] {
  const random = seeded(input.seed);
  const busy = new Map<number, Array<[number, number]>>();
  const free = (connector: HistoryConnector, from: number, to: number) =>
    !(busy.get(connector.id) ?? []).some(([a, b]) => a < to && b > from);
  const occupy = (connector: HistoryConnector, from: number, to: number) => {
    const list = busy.get(connector.id) ?? [];
    list.push([from, to]);
    busy.set(connector.id, list);
  };
  const weights = input.connectors.map((c) => 1 + Math.min(c.kw, 180) / 90);
  const pickConnector = pickerOf(input.connectors, weights, random);
  const story = storyTeller(input, random);
  const bookings: HistoryBooking[] = [];

  // The open bookings first: a few unpaid of the last days and a few reservations of today, so the ordinary
  // history is laid around them.
  const open: HistoryBooking[] = [];
  /** A booking at a time `when` draws, on a connector open and free then (a cheap check before making it). */
  const place = (
    when: () => number,
    make: (connector: HistoryConnector, at: number) => HistoryBooking | null,
    alwaysOpen = false,
  ) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      const at = when();
      const connector = pickConnector();
      if (alwaysOpen && connector.hours) continue;
      if (!openFor(connector, at, at + 15 * MINUTE) || !free(connector, at - 10 * MINUTE, at + 20 * MINUTE))
        continue;
      const booking = make(connector, at);
      if (!booking) continue;
      const [from, to] = spanOf(booking, input.now);
      if (!openFor(connector, from, Math.min(to, from + 4 * HOUR)) || !free(connector, from, to)) continue;
      occupy(connector, from, to);
      return booking;
    }
    return null;
  };
  for (let n = 0; n < 6; n++) {
    const booking = place(() => input.now - HOUR * (6 + random() * 66), story.unpaid);
    if (booking) open.push(booking);
  }
  for (const status of ['created', 'created', 'started', 'started'] as const) {
    const booking = place(
      () => input.now,
      (connector) => story.reservation(connector, status),
      true,
    );
    if (booking) open.push(booking);
  }

  for (const { start, end, count } of dayPlan(input, random)) {
    for (let n = 0; n < count; n++) {
      const booking = place(
        () => start + sampleTime(random, end - start),
        (connector, at) => {
          const made = story.ordinary(connector, at);
          // Everything about it happened before now.
          return made.busyUntil < input.now - MINUTE ? made : null;
        },
      );
      if (booking) bookings.push(booking);
    }
  }
  bookings.push(...open);
  bookings.sort((a, b) => a.createdAt - b.createdAt);
  assignMembers(bookings, input.members, open, random);
  return bookings;
}

/** When the booking holds its connector: from its slot (or the car's arrival) to the cable's removal. */
function spanOf(booking: HistoryBooking, now: number): [number, number] {
  const from = Math.min(booking.slotStart ?? booking.createdAt, booking.startTime ?? booking.createdAt);
  const to = booking.avaliableAt ?? booking.session?.stoppedAt ?? booking.slotEnd ?? now + DAY;
  return [from - 10 * MINUTE, to + 5 * MINUTE];
}

/** The bookings of each local day: more on Friday to Sunday, a network growing over the period. */
function dayPlan(input: HistoryInput, random: Random) {
  const today = dayStartOf(input.now);
  // Today's bookings start early enough to be paid by now.
  const todayEnd = input.now - 4 * HOUR;
  const shareBefore = (end: number) => {
    let share = 0;
    for (let hour = 0; hour < 24; hour++) {
      const from = today + hour * HOUR;
      share += HOUR_WEIGHTS[hour]! * Math.min(1, Math.max(0, (end - from) / HOUR));
    }
    return share / HOUR_WEIGHTS.reduce((a, b) => a + b, 0);
  };
  const days = Array.from({ length: input.days }, (_, index) => {
    const start = today - (input.days - 1 - index) * DAY;
    const weekday = weekdayOf(start);
    const busyDay = weekday === 0 || weekday >= 5 ? 1.15 : 0.95;
    const growth = 0.85 + (0.25 * index) / Math.max(1, input.days - 1);
    const share = start === today ? shareBefore(todayEnd) : 1;
    return {
      start,
      end: start === today ? Math.max(start, todayEnd) : start + DAY,
      weight: busyDay * growth * share * (0.9 + random() * 0.2),
    };
  });
  const total = days.reduce((sum, day) => sum + day.weight, 0);
  return days.map((day) => ({ ...day, count: Math.round((input.count * day.weight) / total) }));
}

/** An offset into a local day, below `span`, by the hour weights. */
function sampleTime(random: Random, span: number): number {
  const weights = HOUR_WEIGHTS.slice(0, Math.max(1, Math.ceil(span / HOUR)));
  const sum = weights.reduce((a, b) => a + b, 0);
  for (;;) {
    let pick = random() * sum;
    let hour = 0;
    while (hour < weights.length - 1 && pick >= weights[hour]!) pick -= weights[hour++]!;
    const offset = hour * HOUR + Math.floor(random() * HOUR);
    if (offset < Math.max(span, 1)) return offset;
  }
}

/**
 * Members in time order, one open booking each at a time (as reserve enforces): each booking goes to a member
 * free since an earlier one ended, the open bookings to distinct active members who book nothing after.
 */
function assignMembers(
  bookings: HistoryBooking[],
  members: HistoryMember[],
  open: HistoryBooking[],
  random: Random,
) {
  const freeAt = new Map(members.map((member) => [member.id, 0]));
  // From when a member holds an open booking: nothing of theirs may be open then.
  const openFrom = new Map(members.map((member) => [member.id, Number.POSITIVE_INFINITY]));
  const active = members.filter((member) => member.active);
  // Distinct active members for the open bookings: a shuffle, then the first few.
  for (let i = active.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [active[i], active[j]] = [active[j]!, active[i]!];
  }
  const openSet = new Set(open);
  open.forEach((booking, index) => {
    booking.member = active[index % active.length]!;
    openFrom.set(booking.member.id, booking.createdAt);
  });
  const weights = members.map((_, index) => 1 + ((index * 7) % 5));
  const pick = pickerOf(members, weights, random);
  for (const booking of bookings) {
    if (openSet.has(booking)) continue;
    const fits = (member: HistoryMember) =>
      booking.busyUntil <= openFrom.get(member.id)! && freeAt.get(member.id)! <= booking.createdAt;
    let member = pick();
    for (let attempt = 0; attempt < 5 && !fits(member); attempt++) member = pick();
    if (!fits(member)) {
      const free = members.filter(fits);
      // Nobody free (the evening peak of 40 members): the one free the soonest books twice.
      member =
        free.length > 0
          ? free[Math.floor(random() * free.length)]!
          : members
              .filter((m) => booking.busyUntil <= openFrom.get(m.id)!)
              .reduce((best, m) => (freeAt.get(m.id)! < freeAt.get(best.id)! ? m : best));
    }
    booking.member = member;
    freeAt.set(member.id, Math.max(freeAt.get(member.id)!, booking.busyUntil));
  }
  for (const booking of bookings) {
    for (const event of booking.events) if (event.actor === 'member') event.userId = booking.member!.id;
  }
}
