import { type BookingStatus, REDEEM_MESSAGES, type RedeemBody, type Redemption } from '@ev/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  bookings,
  landlords,
  pointLedger,
  promotionCodes,
  promotionLandlords,
  promotionRedemptions,
  promotions,
  users,
} from '../../db/schema/index.ts';
import { Conflict, Invalid, NotFound } from '../../lib/errors.ts';
import { lockBooking, refuseWhilePaying } from '../booking/lifecycle.ts';

/** A discount is taken off at payment: any booking not yet paid nor cancelled may get one. */
const OPEN_FOR_DISCOUNT: readonly BookingStatus[] = ['created', 'started', 'charging', 'charged', 'stopped'];

export const NOT_ENOUGH_POINTS = 'Not enough green points';

/**
 * Moves a member's green points: one ledger entry and the balance, in the caller's transaction. The entry's
 * `source` is unique: the same source again (a replay) changes nothing and answers null. The balance moves by
 * a conditional update that never takes it below 0 (409 otherwise, and the entry goes with the transaction).
 */
export async function movePoints(
  tx: Tx,
  entry: {
    userId: number;
    kind: 'earn' | 'redeem' | 'code' | 'reversal' | 'expiry';
    points: number;
    source: string;
    paymentId?: number | null;
    redemptionId?: number | null;
  },
): Promise<number | null> {
  if (!Number.isSafeInteger(entry.points) || entry.points === 0)
    throw new RangeError('Points must be a whole number other than 0');
  const [written] = await tx
    .insert(pointLedger)
    .values({
      userId: entry.userId,
      kind: entry.kind,
      points: entry.points,
      source: entry.source,
      paymentId: entry.paymentId ?? null,
      redemptionId: entry.redemptionId ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: pointLedger.id });
  if (!written) return null;
  const [balance] = await tx
    .update(users)
    .set({ point: sql`${users.point} + ${entry.points}` })
    .where(and(eq(users.id, entry.userId), sql`${users.point} + ${entry.points} >= 0`))
    .returning({ point: users.point });
  if (!balance) throw new Conflict(NOT_ENOUGH_POINTS);
  return balance.point;
}

/** The sites of a promotion, by name. */
async function sitesOf(tx: Tx, promotionId: number) {
  return tx
    .select({ id: landlords.id, nameEn: landlords.nameEn })
    .from(promotionLandlords)
    .innerJoin(landlords, eq(landlords.id, promotionLandlords.landlordId))
    .where(eq(promotionLandlords.promotionId, promotionId))
    .orderBy(asc(landlords.nameEn), asc(landlords.id));
}

/**
 * A member redeems a code, all in one transaction: the code found whatever its case; its promotion active and
 * valid now; a discount for one of the member's bookings not yet paid (its site among the promotion's when
 * for selected landlords, and no other discount on it); the member's one redemption of this code written;
 * then a use taken by one conditional update (`used < total`), so two members can never take the last use
 * both. A point code credits its points through the ledger; a private station code makes the member one of
 * its sites' members, with their license plate. Any refusal rolls everything back.
 */
export async function redeemCode(
  db: Db,
  userId: number,
  body: RedeemBody,
): Promise<{ redemption: Redemption; point: number }> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({
        codeId: promotionCodes.id,
        code: promotionCodes.code,
        promotionId: promotions.id,
        type: promotions.type,
        nameEn: promotions.nameEn,
        nameTh: promotions.nameTh,
        internal: promotions.internal,
        active: promotions.active,
        validFrom: promotions.validFrom,
        validTo: promotions.validTo,
        point: promotions.point,
        now: sql<Date>`now()`.mapWith((value) => new Date(value)),
      })
      .from(promotionCodes)
      .innerJoin(promotions, eq(promotions.id, promotionCodes.promotionId))
      .where(sql`lower(${promotionCodes.code}) = lower(${body.code})`);
    if (!found) throw new NotFound(REDEEM_MESSAGES.notFound);
    if (!found.active) throw new Conflict(REDEEM_MESSAGES.inactive);
    if (found.now < found.validFrom) throw new Conflict(REDEEM_MESSAGES.notStarted);
    if (found.now > found.validTo) throw new Conflict(REDEEM_MESSAGES.expired);

    let bookingId: number | null = null;
    if (found.type === 'discount') {
      if (body.bookingId === undefined) throw new Invalid(`body.bookingId: ${REDEEM_MESSAGES.bookingNeeded}`);
      // Locked: a payment of the booking waits for this redemption, or this one for it.
      const booking = await lockBooking(tx, body.bookingId, { where: eq(bookings.userId, userId) });
      if (!OPEN_FOR_DISCOUNT.includes(booking.status)) throw new Conflict(REDEEM_MESSAGES.bookingNotOpen);
      await refuseWhilePaying(tx, booking.id);
      if (found.internal) {
        const sites = await sitesOf(tx, found.promotionId);
        if (!sites.some((site) => site.id === booking.landlordId)) throw new Conflict(REDEEM_MESSAGES.site);
      }
      const [other] = await tx
        .select({ id: promotionRedemptions.id })
        .from(promotionRedemptions)
        .where(eq(promotionRedemptions.bookingId, booking.id));
      if (other) throw new Conflict(REDEEM_MESSAGES.bookingHasDiscount);
      bookingId = booking.id;
    } else if (body.bookingId !== undefined) {
      throw new Invalid(`body.bookingId: ${REDEEM_MESSAGES.bookingOnlyDiscount}`);
    }
    if (found.type === 'landlord' && body.licensePlate === undefined)
      throw new Invalid(`body.licensePlate: ${REDEEM_MESSAGES.licensePlate}`);
    if (found.type !== 'landlord' && body.licensePlate !== undefined)
      throw new Invalid(`body.licensePlate: ${REDEEM_MESSAGES.licensePlateOnlyLandlord}`);

    const point = found.type === 'point' ? (found.point ?? 0) : null;
    const [written] = await tx
      .insert(promotionRedemptions)
      .values({
        userId,
        codeId: found.codeId,
        promotionId: found.promotionId,
        bookingId,
        point,
        licensePlate: body.licensePlate ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: promotionRedemptions.id, createdAt: promotionRedemptions.createdAt });
    if (!written) throw new Conflict(REDEEM_MESSAGES.already);
    const [use] = await tx
      .update(promotionCodes)
      .set({ used: sql`${promotionCodes.used} + 1` })
      .where(
        and(
          eq(promotionCodes.id, found.codeId),
          sql`(${promotionCodes.total} is null or ${promotionCodes.used} < ${promotionCodes.total})`,
        ),
      )
      .returning({ used: promotionCodes.used });
    if (!use) throw new Conflict(REDEEM_MESSAGES.usedUp);

    let balance: number | null = null;
    if (point)
      balance = await movePoints(tx, {
        userId,
        kind: 'code',
        points: point,
        source: `redemption:${written.id}`,
        redemptionId: written.id,
      });
    if (balance === null) {
      const [member] = await tx.select({ point: users.point }).from(users).where(eq(users.id, userId));
      balance = member?.point ?? 0;
    }
    const sites = found.type === 'landlord' ? await sitesOf(tx, found.promotionId) : [];
    return {
      redemption: {
        id: written.id,
        type: found.type,
        code: found.code,
        nameEn: found.nameEn,
        nameTh: found.nameTh,
        bookingId,
        point,
        landlordNameEns: sites.map((site) => site.nameEn),
        licensePlate: body.licensePlate ?? null,
        createdAt: written.createdAt.toISOString(),
      },
      point: balance,
    };
  });
}
