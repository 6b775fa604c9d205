import {
  chargerTime,
  energyRegisterWh,
  lastRegisterOn,
  type MeterValue,
  openPendingTransaction,
  orderEvent,
  PENDING,
  recordMeterValues,
  stopTransaction,
  type Transaction201,
  transactionByRef,
} from '../../transactions.ts';
import type { CallAnswer, CallContext, CallHandler } from '../context.ts';
import { type IdToken, idTagOf, idTokenInfo } from './id-token.ts';

/** TransactionEventRequest (2.0.1), as far as we read it. */
interface TransactionEventRequest {
  eventType: 'Started' | 'Updated' | 'Ended';
  timestamp: string;
  triggerReason: string;
  seqNo: number;
  offline?: boolean;
  reservationId?: number;
  transactionInfo: {
    transactionId: string;
    chargingState?: string;
    stoppedReason?: string;
    remoteStartId?: number;
  };
  idToken?: IdToken;
  evse?: { id: number; connectorId?: number };
  meterValue?: MeterValue[];
}

/** Charging states in which energy flows or may (the EV or the EVSE paused): charging has not stopped. */
const CHARGING = new Set(['Charging', 'SuspendedEV', 'SuspendedEVSE']);

/** What the connector shows for a charging state (the 1.6 StatusNotification it stands for). */
const STATUS_OF_STATE: Record<string, string> = {
  Charging: 'CHARGING',
  SuspendedEV: 'PAUSED',
  SuspendedEVSE: 'PAUSED',
};

/** The stop reason of charging that stopped before its transaction ended, by what triggered it. */
const REASON_OF_TRIGGER: Record<string, string> = {
  RemoteStop: 'Remote',
  StopAuthorized: 'Local',
  Deauthorized: 'DeAuthorized',
  EVCommunicationLost: 'EVDisconnected',
  EVDeparted: 'EVDisconnected',
  EnergyLimitReached: 'EnergyLimitReached',
  TimeLimitReached: 'TimeLimitReached',
  AbnormalCondition: 'Other',
  ResetCommand: 'Reboot',
  ChargingStateChanged: 'StoppedByEV',
};

/** Whether an Ended says the cable is out (the EV left): the transaction ended at the cable's removal. */
const cableOutAtEnd = (event: TransactionEventRequest) =>
  event.transactionInfo.stoppedReason === 'EVDisconnected' ||
  event.triggerReason === 'EVDeparted' ||
  event.triggerReason === 'EVCommunicationLost' ||
  event.transactionInfo.chargingState === 'Idle';

/**
 * TransactionEvent (2.0.1): the transaction stored and applied to its booking exactly as 1.6's
 * StartTransaction, MeterValues, StatusNotification and StopTransaction are, through the same charger events
 * (docs/ocpp.md, "OCPP 2.0.1: transactions"):
 * - the first event carrying an idToken opens our session (1.6's StartTransaction: the booking linked, the
 *   token answered, a refused one asked to stop); a copy of it gets the first answer;
 * - seqNo orders the events: one sent again is answered and not applied twice; an older one arriving late
 *   keeps its readings but rolls nothing back; an Ended always closes;
 * - charging stops at the first of: the charging state turning EVConnected or Idle after charging, or the
 *   Ended; the cable is out at an Ended for the EV's departure (EVDisconnected, EVDeparted), Idle, or the
 *   connector's StatusNotification Available. So a charger ending its transaction when charging stops and one
 *   ending it at the cable's removal (TxStopPoint) bill alike, and as a 1.6 charger does.
 */
export const transactionEvent: CallHandler = async (context, params) => {
  const event = params as unknown as TransactionEventRequest;
  const { chargerId, db, events, log } = context;
  const info = event.transactionInfo;
  const ref = info.transactionId;
  const values = event.meterValue ?? [];
  const receivedAt = new Date();
  const answer: CallAnswer = {};

  let session = await transactionByRef(db, chargerId, ref);
  const tag = event.idToken ? idTagOf(event.idToken) : null;
  const authorising =
    !session || session.idTagStatus === PENDING || session.idTag.toUpperCase() === tag?.toUpperCase();
  if (tag !== null && authorising) {
    // The token that authorises the transaction: 1.6's StartTransaction (a copy answers as the first did).
    const evseId = event.evse?.id ?? session?.ocppConnectorId ?? 0;
    const meterStart =
      energyRegisterWh(values)?.wh ??
      session?.lastMeterWh ??
      session?.meterStartWh ??
      (await lastRegisterOn(db, chargerId, evseId)) ??
      0;
    const started = await events.start(
      chargerId,
      {
        connectorId: evseId,
        idTag: tag,
        meterStart,
        timestamp: event.timestamp,
        // The booking it starts: RequestStartTransaction's remoteStartId is the booking's id, as ReserveNow's
        // reservationId is.
        reservationId: info.remoteStartId ?? event.reservationId,
        transactionRef: ref,
        evseId,
        ...(info.remoteStartId !== undefined ? { remoteStartId: info.remoteStartId } : {}),
      },
      context.guard,
    );
    answer.idTokenInfo = idTokenInfo({ ...started, status: started.idTagStatus });
    if (started.refused) context.stopRefused(started.transactionId, started.idTagStatus);
    session = await transactionByRef(db, chargerId, ref);
  } else if (tag !== null) {
    // Another token on a transaction already authorised (one presented to stop it): answered, nothing more.
    answer.idTokenInfo = idTokenInfo(await events.authorize(chargerId, tag));
  }

  if (!session && event.eventType !== 'Ended') {
    // Opened before its token (the cable plugged in first, or its Started lost): kept, pending, with its EVSE
    // and meter, until an event brings the token.
    const evseId = event.evse?.id ?? 0;
    await openPendingTransaction(db, chargerId, {
      transactionRef: ref,
      evseId,
      meterStart: energyRegisterWh(values)?.wh ?? (await lastRegisterOn(db, chargerId, evseId)) ?? 0,
      at: chargerTime(event.timestamp, receivedAt),
    });
    session = await transactionByRef(db, chargerId, ref);
  }
  if (!session) {
    // An Ended of a transaction never heard of, with no token: accepted (as 1.6's StopTransaction of an
    // unknown transaction is, so the charger clears its queue), its readings kept without a session.
    if (values.length > 0) {
      await recordMeterValues(db, chargerId, { connectorId: event.evse?.id ?? 0, meterValue: values });
    }
    log.warn({ chargerId, transactionId: ref, seqNo: event.seqNo }, 'OCPP: Ended of an unknown transaction');
    return answer;
  }

  const order = await orderEvent(db, session.id, event.seqNo, {
    ...(info.chargingState !== undefined ? { chargingState: info.chargingState } : {}),
    ...(info.remoteStartId !== undefined ? { remoteStartId: info.remoteStartId } : {}),
  });
  if (order.kind === 'resend') return answer;
  const newest = order.kind === 'newest';
  const open = session.status === 'ACTIVE';
  const at = chargerTime(event.timestamp, receivedAt);

  if (event.eventType === 'Ended') {
    if (open) {
      await closeSession(context, session, event, {
        reason: info.stoppedReason ?? 'Local',
        meterStop: energyRegisterWh(values)?.wh,
        transactionData: values,
        stopIdTag: tag ?? undefined,
        receivedAt,
      });
    } else if (values.length > 0) {
      await recordMeterValues(
        db,
        chargerId,
        { connectorId: session.ocppConnectorId, transactionId: session.id, meterValue: values },
        receivedAt,
        false,
      );
    }
    if (cableOutAtEnd(event)) await cableOut(context, session, at);
    else showStatus(context, session, 'FINISHING', at);
    return answer;
  }

  if (values.length > 0) {
    const reading = await recordMeterValues(
      db,
      chargerId,
      { connectorId: session.ocppConnectorId, transactionId: session.id, meterValue: values },
      receivedAt,
      newest && open,
    );
    if (reading) await context.guard('TransactionEvent', () => events.meterValues(chargerId, reading));
  }
  const state = info.chargingState;
  if (order.kind !== 'newest' || !open || state === undefined) return answer;

  const status = STATUS_OF_STATE[state];
  if (status) showStatus(context, session, status, at);
  if (state === 'Charging' || state === 'SuspendedEV') {
    // As 1.6's StatusNotification Charging / SuspendedEV: the EV's pause, for the full-battery rule.
    await context.guard('TransactionEvent', () =>
      events.connectorStatus(chargerId, { ocppConnectorId: session.ocppConnectorId, status: state, at }),
    );
  }
  const wasCharging = order.previousState !== null && CHARGING.has(order.previousState);
  if ((state === 'EVConnected' || state === 'Idle') && wasCharging) {
    // Charging stopped; the transaction goes on until the cable is out (TxStopPoint).
    await closeSession(context, session, event, {
      reason: REASON_OF_TRIGGER[event.triggerReason] ?? 'Local',
      meterStop: energyRegisterWh(values)?.wh,
      transactionData: [],
      receivedAt,
    });
    if (state === 'EVConnected') showStatus(context, session, 'FINISHING', at);
  } else if (state === 'EVConnected')
    showStatus(context, session, wasCharging ? 'FINISHING' : 'PREPARING', at);
  if (state === 'Idle' && order.previousState !== null && order.previousState !== 'Idle') {
    await cableOut(context, session, at);
  }
  return answer;
};

/** Closes the session as 1.6's StopTransaction does, at the event's time, and tells the bookings. */
async function closeSession(
  { chargerId, db, events, guard }: CallContext,
  session: Transaction201,
  event: TransactionEventRequest,
  stop: {
    reason: string;
    meterStop: number | undefined;
    transactionData: MeterValue[];
    stopIdTag?: string;
    receivedAt: Date;
  },
): Promise<void> {
  // Without a register in the event: the last one applied (a reading in this event was applied just before).
  const current = stop.meterStop === undefined ? await transactionByRef(db, chargerId, ref(event)) : null;
  const meterStop = stop.meterStop ?? current?.lastMeterWh ?? session.lastMeterWh ?? session.meterStartWh;
  const stopped = await stopTransaction(
    db,
    chargerId,
    {
      transactionId: session.id,
      meterStop,
      timestamp: event.timestamp,
      reason: stop.reason,
      ...(stop.stopIdTag !== undefined ? { idTag: stop.stopIdTag } : {}),
      transactionData: stop.transactionData,
    },
    stop.receivedAt,
  );
  if (stopped) await guard('TransactionEvent', () => events.stopped(chargerId, stopped));
}

const ref = (event: TransactionEventRequest) => event.transactionInfo.transactionId;

/** The cable is out: 1.6's StatusNotification Available, for the booking (its overstay ends here). */
async function cableOut({ chargerId, events, guard }: CallContext, session: Transaction201, at: Date) {
  await guard('TransactionEvent', () =>
    events.connectorStatus(chargerId, { ocppConnectorId: session.ocppConnectorId, status: 'Available', at }),
  );
}

/** The connector's status on the charger list, as the charging state says it (the EVSE is our connector). */
function showStatus({ chargerId, store }: CallContext, session: Transaction201, status: string, at: Date) {
  if (session.ocppConnectorId <= 0) return;
  store.status(chargerId, session.ocppConnectorId, {
    status,
    errorCode: 'NoError',
    vendorErrorCode: null,
    info: null,
    at,
  });
}
