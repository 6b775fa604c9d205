/**
 * A simulated charger's local authorization list and reservations (OCPP 1.6 LocalAuthListManagement and
 * Reservation profiles; 2.0.1's LocalAuthorizationListManagement and Reservation blocks), answered as a real
 * charger does:
 * - SendLocalList: Full replaces the list, Differential changes it (an entry without IdTagInfo is removed) and
 *   needs a version above the one held (else VersionMismatch); more entries than SendLocalListMaxLength in one
 *   message, or than LocalAuthListMaxLength in the list, Failed. GetLocalListVersion: the version held (0: none).
 * - ReserveNow: Accepted on an idle connector, which reports Reserved until the reservation is used (a
 *   start with its tag carries its id), cancelled or past its expiry; Occupied while a session or a
 *   car is on it, Unavailable when inoperative, Rejected for connector 0 (ReserveConnectorZeroSupported false).
 *   The same reservation id again replaces the reservation. CancelReservation: Accepted (Available again), or
 *   Rejected for an id it does not hold.
 * The rules are protocol-neutral functions (`applyLocalList`, `reserveNow`, `cancelReservation`); the 1.6 wire
 * is `handleAuthorization` below, the 2.0.1 wire simulator-201.ts.
 * A test makes any of them answer another word with `forcedAnswers`, and NotSupported or silence with the
 * charger's `behaviour`.
 */
import { NO_REPLY, type RPCClient } from '@ev/server/ocpp/rpc';
import type { ChargerCore } from './simulator-core.ts';

export interface Reservation {
  id: number;
  idTag: string;
  parentIdTag?: string;
  /** The charger clock's ms at which it lapses. */
  expiresAt: number;
}

export interface LocalListEntry {
  idTag: string;
  idTagInfo?: { status: string; expiryDate?: string; parentIdTag?: string };
}

type Answer = Record<string, unknown>;
export interface Kit {
  seen(action: string, params: unknown): void;
  /** The answer, or what the charger's behaviour makes of it (silence, Rejected, a NotImplemented CALLERROR). */
  answerOr(answer: Answer): Answer;
}
type Client = InstanceType<typeof RPCClient>;
type Charger = ChargerCore<number> | ChargerCore<string>;

/** The longest a timer may wait (Node's limit is 2^31 - 1 ms); a later expiry is checked again then. */
const MAX_TIMER_MS = 2_147_483_647;

const forced = (charger: Charger, kit: Kit, action: string, status: string): Answer =>
  kit.answerOr({ status: charger.forcedAnswers.get(action) ?? status });
const accepted = (answer: Answer) => answer !== NO_REPLY && answer.status === 'Accepted';

/** SendLocalList: Full or Differential, in 1.6's shape of entries. */
export function applyLocalList(
  charger: Charger,
  kit: Kit,
  request: { version: number; full: boolean; entries: LocalListEntry[] },
): Answer {
  if (request.entries.length > charger.sendLocalListMaxLength)
    return forced(charger, kit, 'SendLocalList', 'Failed');
  if (!request.full && request.version <= charger.localListVersion)
    return forced(charger, kit, 'SendLocalList', 'VersionMismatch');
  const next = new Map(request.full ? [] : charger.localList);
  for (const entry of request.entries) {
    const key = entry.idTag.toUpperCase();
    if (entry.idTagInfo) next.set(key, entry);
    else next.delete(key);
  }
  if (next.size > charger.localAuthListMaxLength) return forced(charger, kit, 'SendLocalList', 'Failed');
  const answer = forced(charger, kit, 'SendLocalList', 'Accepted');
  if (accepted(answer)) {
    charger.localList.clear();
    for (const [key, entry] of next) charger.localList.set(key, entry);
    charger.localListVersion = request.version;
  }
  return answer;
}

/** ReserveNow on a connector (2.0.1: an EVSE); connector 0 (no EVSE) is Rejected. */
export function reserveNow(
  charger: Charger,
  kit: Kit,
  request: {
    connectorId: number;
    expiresAt: number;
    idTag: string;
    parentIdTag?: string;
    reservationId: number;
  },
): Answer {
  const state = charger.connectorStates[request.connectorId - 1];
  if (!state) return forced(charger, kit, 'ReserveNow', 'Rejected');
  const same = state.reservation?.id === request.reservationId;
  if (!same) {
    if (state.status === 'Unavailable') return forced(charger, kit, 'ReserveNow', 'Unavailable');
    if (state.transactionId !== null || state.car !== null || state.status !== 'Available')
      return forced(charger, kit, 'ReserveNow', 'Occupied');
  }
  const answer = forced(charger, kit, 'ReserveNow', 'Accepted');
  if (!accepted(answer)) return answer;
  // A reservation id held on another connector moves here (the same id replaces it): no expiry to report.
  for (const [index, other] of charger.connectorStates.entries()) {
    if (other !== state && other.reservation?.id === request.reservationId)
      void charger.endReservation(index + 1, false, 'Used').catch(() => undefined);
  }
  const reservation: Reservation = {
    id: request.reservationId,
    idTag: request.idTag,
    expiresAt: request.expiresAt,
    ...(request.parentIdTag ? { parentIdTag: request.parentIdTag } : {}),
  };
  hold(charger, request.connectorId, reservation);
  // The status follows the answer, as a real charger reports it (unless the reservation is used by then).
  setTimeout(() => {
    if (state.reservation === reservation && state.status === 'Available')
      void charger.setStatus(request.connectorId, 'Reserved').catch(() => undefined);
  }, 10);
  return answer;
}

/** CancelReservation: Accepted and Available again, or Rejected for an id it does not hold. */
export function cancelReservation(charger: Charger, kit: Kit, reservationId: number): Answer {
  const index = charger.connectorStates.findIndex((state) => state.reservation?.id === reservationId);
  if (index < 0) return forced(charger, kit, 'CancelReservation', 'Rejected');
  const answer = forced(charger, kit, 'CancelReservation', 'Accepted');
  const state = charger.connectorStates[index]!;
  // After the answer, and only if that reservation is still held: a new one on the connector meanwhile stays.
  if (accepted(answer))
    setTimeout(() => {
      if (state.reservation?.id === reservationId)
        void charger.endReservation(index + 1, false, 'Removed').catch(() => undefined);
    }, 10);
  return answer;
}

/** The OCPP 1.6 wire of the rules above. */
export function handleAuthorization(charger: Charger, client: Client, kit: Kit): void {
  const { seen, answerOr } = kit;
  client.handle('SendLocalList', async ({ params }) => {
    seen('SendLocalList', params);
    const {
      listVersion,
      updateType,
      localAuthorizationList = [],
    } = params as {
      listVersion: number;
      updateType: 'Full' | 'Differential';
      localAuthorizationList?: LocalListEntry[];
    };
    return applyLocalList(charger, kit, {
      version: listVersion,
      full: updateType === 'Full',
      entries: localAuthorizationList,
    });
  });

  client.handle('GetLocalListVersion', async ({ params }) => {
    seen('GetLocalListVersion', params);
    const answer = answerOr({ status: 'Accepted' });
    if (answer === NO_REPLY) return answer;
    // A charger without local lists says so with -1 (OCPP 1.6 5.10).
    return { listVersion: answer.status === 'Accepted' ? charger.localListVersion : -1 };
  });

  client.handle('ReserveNow', async ({ params }) => {
    seen('ReserveNow', params);
    const request = params as {
      connectorId: number;
      expiryDate: string;
      idTag: string;
      parentIdTag?: string;
      reservationId: number;
    };
    return reserveNow(charger, kit, {
      connectorId: request.connectorId,
      expiresAt: new Date(request.expiryDate).getTime(),
      idTag: request.idTag,
      reservationId: request.reservationId,
      ...(request.parentIdTag ? { parentIdTag: request.parentIdTag } : {}),
    });
  });

  client.handle('CancelReservation', async ({ params }) => {
    seen('CancelReservation', params);
    return cancelReservation(charger, kit, (params as { reservationId: number }).reservationId);
  });
}

/** Holds the reservation on the connector until it lapses (then Available again). */
function hold(charger: Charger, connectorId: number, reservation: Reservation): void {
  const state = charger.connectorStates[connectorId - 1]!;
  state.reservation = reservation;
  clearTimeout(charger.reservationTimers.get(connectorId));
  const lapse = () => {
    if (state.reservation !== reservation) return;
    const left = reservation.expiresAt - Date.now();
    if (left > 0) {
      charger.reservationTimers.set(connectorId, setTimeout(lapse, Math.min(left, MAX_TIMER_MS)).unref());
      return;
    }
    void charger.endReservation(connectorId, false, 'Expired').catch(() => undefined);
  };
  lapse();
}
