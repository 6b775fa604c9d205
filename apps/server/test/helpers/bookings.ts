import { type BookingStatus, bangkokDayStart, type PlanSnapshot } from '@ev/shared';
import { eq } from 'drizzle-orm';
import { bookingEvents, bookings, chargers, connectors, users } from '../../src/db/schema/index.ts';
import type { TestApp } from './test-app.ts';

/** A by-energy plan (KW): 7.50 baht per kWh and 2 baht per overstay minute, easy to check by hand. */
export const TEST_PLAN: PlanSnapshot = {
  method: 'KW',
  calculateMethod: 'BAHT_HRS',
  bahtPerKwh: 7.5,
  bahtPerHour: 0,
  penaltyBahtPerMin: 2,
  penaltyDCFullBahtPerMin: 0,
  penaltyDCFullDelayMin: 0,
  overrideWeekdays: [],
  overrides: [],
};

let memberSequence = 0;

/** A member (mobile user) with a name, email and telephone the list can search. */
export async function createMember(t: TestApp, name = `Member${++memberSequence}`) {
  const [member] = await t.database.db
    .insert(users)
    .values({
      type: 'mobile',
      email: `${name.toLowerCase()}-${Date.now().toString(36)}@example.com`,
      firstName: name,
      lastName: 'Driver',
      tel: `08${String(10_000_000 + memberSequence).slice(-8)}`,
    })
    .returning();
  return member!;
}

const MINUTE = 60_000;

/**
 * A booking in the given status, with the times and price a real one would have there (a 40-minute session of
 * 12 kWh on TEST_PLAN, stopped 10 minutes before the cable came out). Written straight to the database: the
 * transitions that lead there are tested on their own (booking-session.test.ts).
 */
export async function createBooking(
  t: TestApp,
  connectorId: number,
  status: BookingStatus,
  overrides: Partial<typeof bookings.$inferInsert> = {},
) {
  const [place] = await t.database.db
    .select({
      chargerId: connectors.chargerId,
      connectorTypeId: connectors.connectorTypeId,
      merchantId: chargers.merchantId,
      landlordId: chargers.landlordId,
    })
    .from(connectors)
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .where(eq(connectors.id, connectorId));
  const member = overrides.userId ? null : await createMember(t);
  const now = Date.now();
  // Created today in Bangkok, where the list looks by default: an hour before now, or at midnight when the
  // day is younger than that (between 00:00 and 01:00 Bangkok time the hour before is yesterday).
  const createdAt = new Date(Math.max(now - 60 * MINUTE, bangkokDayStart(now)));
  const started = !['created', 'started', 'cancelled'].includes(status);
  const stopped = ['charged', 'stopped', 'paid'].includes(status);
  const priced = ['stopped', 'paid'].includes(status);
  const [row] = await t.database.db
    .insert(bookings)
    .values({
      ...place!,
      userId: member?.id,
      connectorId,
      status,
      slotStart: new Date(now - 60 * MINUTE),
      slotEnd: new Date(now + 60 * MINUTE),
      createdAt,
      startTime: started ? new Date(now - 50 * MINUTE) : null,
      stopTime: stopped ? new Date(now - 10 * MINUTE) : null,
      avaliableAt: priced ? new Date(now) : null,
      energyWh: started ? 12_000 : 0,
      priceSnapshot: started ? TEST_PLAN : null,
      // 12 kWh × 7.50 = 90.00; no time part (KW); 10 min − 5 allowance → 5 × 2 = 10.00.
      priceByPower: priced ? '90.00' : null,
      priceByDuration: priced ? '0.00' : null,
      priceByPenalty: priced ? '10.00' : null,
      totalAmount: priced ? '100.00' : null,
      paymentMethod: status === 'paid' ? 'credit' : null,
      ...overrides,
    })
    .returning();
  await t.database.db
    .insert(bookingEvents)
    .values({ bookingId: row!.id, event: 'reserve', toStatus: status, actor: 'system' });
  return row!;
}
