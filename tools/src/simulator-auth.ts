/**
 * A simulated charger's local authorization list and reservations (OCPP 1.6 LocalAuthListManagement and
 * Reservation profiles), answered as a real charger does:
 * - SendLocalList: Full replaces the list, Differential changes it (an entry without IdTagInfo is removed) and
 *   needs a version above the one held (else VersionMismatch); more entries than SendLocalListMaxLength in one
 *   message, or than LocalAuthListMaxLength in the list, Failed. GetLocalListVersion: the version held (0: none).
 * - ReserveNow: Accepted on an idle connector, which reports Reserved until the reservation is used (a
 *   StartTransaction with its tag carries its id), cancelled or past its expiry; Occupied while a session or a
 *   car is on it, Unavailable when inoperative, Rejected for connector 0 (ReserveConnectorZeroSupported false).
 *   The same reservation id again replaces the reservation. CancelReservation: Accepted (Available again), or
 *   Rejected for an id it does not hold.
 * A test makes any of them answer another word with `forcedAnswers`, and NotSupported or silence with the
 * charger's `behaviour`.
 */
import { NO_REPLY, type RPCClient } from '@ev/server/ocpp/rpc';
import type { SimulatedCharger } from './simulator.ts';

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
interface Kit {
  seen(action: string, params: unknown): void;
  /** The answer, or what the charger's behaviour makes of it (silence, Rejected, a NotImplemented CALLERROR). */
  answerOr(answer: Answer): Answer;
}
type Client = InstanceType<typeof RPCClient>;

/** The longest a timer may wait (Node's limit is 2^31 - 1 ms); a later expiry is checked again then. */
const MAX_TIMER_MS = 2_147_483_647;

export function handleAuthorization(
  charger: SimulatedCharger,
  client: Client,
  { seen, answerOr }: Kit,
): void {
  const forced = (action: string, status: string): Answer => {
    const answer = answerOr({ status: charger.forcedAnswers.get(action) ?? status });
    return answer;
  };
  const accepted = (answer: Answer) => answer !== NO_REPLY && answer.status === 'Accepted';

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
    if (localAuthorizationList.length > charger.sendLocalListMaxLength)
      return forced('SendLocalList', 'Failed');
    if (updateType === 'Differential' && listVersion <= charger.localListVersion)
      return forced('SendLocalList', 'VersionMismatch');
    const next = new Map(updateType === 'Full' ? [] : charger.localList);
    for (const entry of localAuthorizationList) {
      const key = entry.idTag.toUpperCase();
      if (entry.idTagInfo) next.set(key, entry);
      else next.delete(key);
    }
    if (next.size > charger.localAuthListMaxLength) return forced('SendLocalList', 'Failed');
    const answer = forced('SendLocalList', 'Accepted');
    if (accepted(answer)) {
      charger.localList.clear();
      for (const [key, entry] of next) charger.localList.set(key, entry);
      charger.localListVersion = listVersion;
    }
    return answer;
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
    const state = charger.connectorStates[request.connectorId - 1];
    if (!state) return forced('ReserveNow', 'Rejected');
    const same = state.reservation?.id === request.reservationId;
    if (!same) {
      if (state.status === 'Unavailable') return forced('ReserveNow', 'Unavailable');
      if (state.transactionId !== null || state.car !== null || state.status !== 'Available')
        return forced('ReserveNow', 'Occupied');
    }
    const answer = forced('ReserveNow', 'Accepted');
    if (!accepted(answer)) return answer;
    // A reservation id held on another connector moves here (OCPP 1.6: the same id replaces it).
    for (const [index, other] of charger.connectorStates.entries()) {
      if (other !== state && other.reservation?.id === request.reservationId)
        void charger.endReservation(index + 1).catch(() => undefined);
    }
    const reservation: Reservation = {
      id: request.reservationId,
      idTag: request.idTag,
      expiresAt: new Date(request.expiryDate).getTime(),
      ...(request.parentIdTag ? { parentIdTag: request.parentIdTag } : {}),
    };
    hold(charger, request.connectorId, reservation);
    // The status follows the answer, as a real charger reports it (unless the reservation is used by then).
    setTimeout(() => {
      if (state.reservation === reservation && state.status === 'Available')
        void charger.setStatus(request.connectorId, 'Reserved').catch(() => undefined);
    }, 10);
    return answer;
  });

  client.handle('CancelReservation', async ({ params }) => {
    seen('CancelReservation', params);
    const { reservationId } = params as { reservationId: number };
    const index = charger.connectorStates.findIndex((state) => state.reservation?.id === reservationId);
    if (index < 0) return forced('CancelReservation', 'Rejected');
    const answer = forced('CancelReservation', 'Accepted');
    if (accepted(answer)) setTimeout(() => void charger.endReservation(index + 1).catch(() => undefined), 10);
    return answer;
  });
}

/** Holds the reservation on the connector until it lapses (then Available again). */
function hold(charger: SimulatedCharger, connectorId: number, reservation: Reservation): void {
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
    void charger.endReservation(connectorId).catch(() => undefined);
  };
  lapse();
}
