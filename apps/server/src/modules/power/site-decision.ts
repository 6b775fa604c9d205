/**
 * Deciding a site's allowances (docs/decisions.md, "Power within a site's limit"): one transaction that locks
 * the site's row, reads its limit and active sessions, shares the limit (sharePower) and writes
 * power_allowances; it returns what must be sent, which the caller sends once it has committed (never call a
 * charger inside a transaction). The lock makes two processes of a cluster decide one after the other, each
 * reading what the other wrote.
 */
import { type PowerSession, type PowerUnit, profileLimit, sharePower, usableFromDraw } from '@ev/shared';
import { and, desc, eq, gt, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  chargerBrands,
  chargers,
  chargingSessions,
  connectors,
  landlords,
  powerAllowances,
  powerSamples,
} from '../../db/schema/index.ts';
import { isRefusal, minimumW, unitFor, wattsOf } from './power-profiles.ts';

/** A TxProfile to send once the decision has committed. */
export interface ProfileToSend {
  landlordId: number;
  chargerId: string;
  connectorId: number;
  ocppConnectorId: number;
  sessionId: number;
  allowanceW: number;
  unit: PowerUnit;
  /** The decision it carries: its answer is recorded only while the row still holds this decision. */
  decidedAt: Date;
}

/** One of our TxProfiles to take back (the site's limit was removed). */
export interface ProfileToClear {
  chargerId: string;
  ocppConnectorId: number;
}

export interface SiteDecision {
  send: ProfileToSend[];
  clear: ProfileToClear[];
}

type Allowance = typeof powerAllowances.$inferSelect;
type Session = Awaited<ReturnType<typeof activeSessions>>[number];

/** Whether a row already holds what is to be written (it is then left alone). */
function same(row: Allowance | undefined, write: typeof powerAllowances.$inferInsert): boolean {
  return (
    row !== undefined &&
    row.landlordId === write.landlordId &&
    row.chargingSessionId === write.chargingSessionId &&
    row.allowanceW === write.allowanceW &&
    row.waiting === write.waiting &&
    row.profileStatus === write.profileStatus &&
    row.decidedAt.getTime() === write.decidedAt?.getTime() &&
    row.usableW === (write.usableW ?? null) &&
    (row.answeredAt?.getTime() ?? null) === (write.answeredAt?.getTime() ?? null)
  );
}

const keyOf = (session: Session, landlordId: number) => ({
  connectorId: session.connectorId,
  landlordId,
  chargingSessionId: session.sessionId,
});

/** The site's active sessions as the sharing needs them: the newest per connector, with its charger. */
function activeSessions(tx: Tx, landlordId: number) {
  return tx
    .selectDistinctOn([chargingSessions.connectorId], {
      sessionId: chargingSessions.id,
      connectorId: connectors.id,
      chargerId: chargers.id,
      ocppConnectorId: connectors.ocppConnectorId,
      startedAt: chargingSessions.startedAt,
      chargingState: chargingSessions.chargingState,
      connectorMaxKw: connectors.maxPowerKw,
      chargerMaxKw: chargers.maxPowerKw,
      powerType: chargerBrands.powerType,
      brandMinKw: chargerBrands.minPowerKw,
      online: sql<boolean>`${chargers.connectedNode} is not null`.mapWith(Boolean),
    })
    .from(chargingSessions)
    .innerJoin(connectors, eq(connectors.id, chargingSessions.connectorId))
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .innerJoin(chargerBrands, eq(chargerBrands.id, chargers.chargerBrandId))
    .where(
      and(
        eq(chargers.landlordId, landlordId),
        eq(chargingSessions.status, 'ACTIVE'),
        // A refused tag's session is being stopped, a 2.0.1 one waiting for its token is not charging.
        eq(chargingSessions.idTagStatus, 'Accepted'),
        isNotNull(chargingSessions.connectorId),
      ),
    )
    .orderBy(chargingSessions.connectorId, desc(chargingSessions.startedAt), desc(chargingSessions.id));
}

/** How recent a connector's reading must be to say how much its car draws now (meter values come every 10–60 s). */
export const DRAW_EVIDENCE_MS = 3 * 60_000;

/** What each connector of the site drew last, when it said so within DRAW_EVIDENCE_MS (power_samples). */
async function latestDraws(tx: Tx, landlordId: number, now: Date) {
  const rows = await tx
    .selectDistinctOn([powerSamples.connectorId], {
      connectorId: powerSamples.connectorId,
      powerW: powerSamples.powerW,
      at: powerSamples.at,
    })
    .from(powerSamples)
    .where(
      and(
        eq(powerSamples.landlordId, landlordId),
        gt(powerSamples.at, new Date(now.getTime() - DRAW_EVIDENCE_MS)),
      ),
    )
    .orderBy(powerSamples.connectorId, desc(powerSamples.at), desc(powerSamples.id));
  return new Map(rows.map((row) => [row.connectorId, row]));
}

/**
 * What a charging session's car can use now (a tapering car gives the rest to the others). Judged only from a
 * reading taken after its charger took the allowance it has (one taken before says what an older allowance
 * let it draw); without one, what the last judgement said stands. A session waiting at 0, or whose car
 * suspended charging, is not judged (SuspendedEV is handled on its own).
 */
function usableOf(
  row: Allowance | undefined,
  session: Session,
  draw: { powerW: number; at: Date } | undefined,
): number | undefined {
  if (!row || row.waiting || session.chargingState === 'SuspendedEV') return undefined;
  const fresh =
    draw !== undefined &&
    row.profileStatus === 'Accepted' &&
    row.answeredAt !== null &&
    draw.at.getTime() > row.answeredAt.getTime() &&
    draw.at.getTime() >= session.startedAt.getTime();
  if (!fresh) return row.usableW ?? undefined;
  return usableFromDraw(draw.powerW, row.allowanceW);
}

/** Decides the site's allowances now and writes them; what to send is returned, to send after the commit. */
export async function decideSite(
  db: Db,
  landlordId: number,
  {
    lostAfterMs,
    now = new Date(),
  }: {
    /** A profile sent this long ago and still unanswered was lost (its sender stopped): it is sent again. */
    lostAfterMs: number;
    now?: Date;
  },
): Promise<SiteDecision> {
  return db.transaction(async (tx) => {
    const [site] = await tx
      .select({ maxPowerKw: landlords.maxPowerKw, phases: landlords.phases, voltage: landlords.voltage })
      .from(landlords)
      .where(eq(landlords.id, landlordId))
      .for('update');
    // Locked too: an answer recorded meanwhile (power-manager.ts) waits, and is never written over.
    const rows = await tx
      .select()
      .from(powerAllowances)
      .where(eq(powerAllowances.landlordId, landlordId))
      .for('update');
    const limitW = site ? wattsOf(site.maxPowerKw) : null;
    if (!site || limitW === null) return { send: [], clear: await dropAll(tx, landlordId, rows) };

    const sessions = await activeSessions(tx, landlordId);
    const draws = await latestDraws(tx, landlordId, now);
    const previous = new Map(rows.map((row) => [row.connectorId, row]));
    let fixedW = 0;
    const steered: Array<{
      session: Session;
      power: PowerSession;
      unit: PowerUnit;
      row?: Allowance;
      usableW?: number;
    }> = [];
    const writes: Array<typeof powerAllowances.$inferInsert> = [];
    const send: ProfileToSend[] = [];

    for (const session of sessions) {
      const connectorW = wattsOf(session.connectorMaxKw) ?? 0;
      const maxW = Math.min(connectorW, wattsOf(session.chargerMaxKw) ?? connectorW);
      const found = previous.get(session.connectorId);
      // The row of an earlier session on the connector says nothing of this one.
      const row = found?.chargingSessionId === session.sessionId ? found : undefined;
      // What we cannot steer counts at full power: a charger offline, or one that refused this session's
      // profile (until the session ends or the charger connects again: an offline row is sent again).
      const fixed = !session.online
        ? 'Offline'
        : row && isRefusal(row.profileStatus)
          ? row.profileStatus
          : null;
      if (fixed !== null) {
        fixedW += maxW;
        writes.push({
          ...keyOf(session, landlordId),
          allowanceW: maxW,
          waiting: false,
          profileStatus: fixed,
          decidedAt: row && row.allowanceW === maxW ? row.decidedAt : now,
          answeredAt: row?.answeredAt ?? null,
          usableW: null,
        });
        continue;
      }
      const usableW = usableOf(row, session, draws.get(session.connectorId));
      steered.push({
        session,
        row,
        unit: unitFor(session.powerType, site),
        usableW,
        power: {
          id: String(session.connectorId),
          startedAt: session.startedAt.getTime(),
          maxW,
          minW: minimumW(session.powerType, session.brandMinKw, site),
          // A car that suspended charging can use nothing now; it keeps its minimum, to resume. A tapering car
          // can use what it draws and a little more (usableFromDraw).
          ...(session.chargingState === 'SuspendedEV'
            ? { usableW: 0 }
            : usableW === undefined
              ? {}
              : { usableW }),
        },
      });
    }

    const shares = sharePower(
      limitW,
      steered.map((one) => one.power),
      fixedW,
    );
    for (const [i, share] of shares.entries()) {
      const { session, row, unit, usableW } = steered[i]!;
      // Sent again only when the charger would get another limit (watts that round to the same amperes
      // are not), when it never answered, or when it was offline since.
      const unchanged =
        row !== undefined &&
        row.waiting === share.waiting &&
        profileLimit(row.allowanceW, unit) === profileLimit(share.allowanceW, unit) &&
        row.profileStatus !== 'Offline' &&
        !(row.profileStatus === 'Pending' && now.getTime() - row.decidedAt.getTime() > lostAfterMs);
      writes.push({
        ...keyOf(session, landlordId),
        allowanceW: share.allowanceW,
        waiting: share.waiting,
        profileStatus: unchanged ? row.profileStatus : 'Pending',
        decidedAt: unchanged ? row.decidedAt : now,
        answeredAt: unchanged ? row.answeredAt : null,
        usableW: usableW ?? null,
      });
      if (unchanged) continue;
      send.push({
        landlordId,
        chargerId: session.chargerId,
        connectorId: session.connectorId,
        ocppConnectorId: session.ocppConnectorId,
        sessionId: session.sessionId,
        allowanceW: share.allowanceW,
        unit,
        decidedAt: now,
      });
    }

    // Sessions that ended leave the table; so do connectors whose charger moved to another site.
    const kept = sessions.map((s) => s.connectorId);
    await tx
      .delete(powerAllowances)
      .where(
        and(
          eq(powerAllowances.landlordId, landlordId),
          kept.length > 0 ? notInArray(powerAllowances.connectorId, kept) : undefined,
        ),
      );
    const changed = writes.filter((write) => !same(previous.get(write.connectorId), write));
    if (changed.length > 0) {
      await tx
        .insert(powerAllowances)
        .values(changed)
        .onConflictDoUpdate({
          target: powerAllowances.connectorId,
          set: {
            landlordId: sql`excluded.landlord_id`,
            chargingSessionId: sql`excluded.charging_session_id`,
            allowanceW: sql`excluded.allowance_w`,
            waiting: sql`excluded.waiting`,
            profileStatus: sql`excluded.profile_status`,
            decidedAt: sql`excluded.decided_at`,
            answeredAt: sql`excluded.answered_at`,
            usableW: sql`excluded.usable_w`,
          },
        });
    }
    return { send, clear: [] };
  });
}

/** The site has no limit (any more): its allowances go, and the profiles they stood for are taken back. */
async function dropAll(tx: Tx, landlordId: number, rows: Allowance[]): Promise<ProfileToClear[]> {
  if (rows.length === 0) return [];
  const where = inArray(
    connectors.id,
    rows.map((row) => row.connectorId),
  );
  const clear = await tx
    .select({ chargerId: connectors.chargerId, ocppConnectorId: connectors.ocppConnectorId })
    .from(connectors)
    .where(where);
  await tx.delete(powerAllowances).where(eq(powerAllowances.landlordId, landlordId));
  return clear;
}
