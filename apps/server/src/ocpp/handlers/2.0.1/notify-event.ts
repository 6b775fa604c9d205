import { and, eq, like, type SQL } from 'drizzle-orm';
import { connectors } from '../../../db/schema/index.ts';
import { chargerTime } from '../../transactions.ts';
import type { CallContext, CallHandler } from '../context.ts';

interface EventData {
  eventId: number;
  timestamp: string;
  trigger: 'Alerting' | 'Delta' | 'Periodic';
  actualValue: string;
  cleared?: boolean;
  techCode?: string;
  techInfo?: string;
  component: { name: string; evse?: { id: number; connectorId?: number } };
  variable: { name: string };
}

/** What a fault event writes in the connector's status info: its mark, so only its own clearing clears it. */
const FAULT_MARK = 'NotifyEvent: ';

/**
 * A fault the charger shows, recorded on the connector as 1.6's StatusNotification error code is (the charger
 * list's '⚠ Error: OtherError', the vendor code and info beside it): an event (Alerting or Delta, not a Periodic
 * report) of the standard variable Problem, true, on a component of an EVSE (that connector) or of the whole
 * station (every connector). Problem false, or the event cleared, takes back what such an event recorded and
 * nothing else (a StatusNotification's own error stays). The connector's status is StatusNotification's.
 */
async function recordFault({ chargerId, db, store }: CallContext, event: EventData): Promise<void> {
  if (event.trigger === 'Periodic' || event.variable.name.toLowerCase() !== 'problem') return;
  const evseId = event.component.evse?.id;
  if (evseId !== undefined && evseId <= 0) return;
  const where: SQL[] = [eq(connectors.chargerId, chargerId)];
  if (evseId !== undefined) where.push(eq(connectors.ocppConnectorId, evseId));
  // Statuses already taken are written first: a fault is not overwritten by a status that came before it.
  await store.flush();
  const at = chargerTime(event.timestamp);
  if (!event.cleared && event.actualValue.trim().toLowerCase() === 'true') {
    const info = `${FAULT_MARK}${event.component.name} Problem${event.techInfo ? `: ${event.techInfo}` : ''}`;
    await db
      .update(connectors)
      .set({
        errorCode: 'OtherError',
        vendorErrorCode: event.techCode ?? null,
        statusInfo: info.slice(0, 500),
        statusAt: at,
      })
      .where(and(...where));
  } else {
    await db
      .update(connectors)
      .set({ errorCode: 'NoError', vendorErrorCode: null, statusInfo: null, statusAt: at })
      .where(and(...where, like(connectors.statusInfo, `${FAULT_MARK}%`)));
  }
}

/**
 * NotifyEvent (2.0.1): the charger's monitoring events. Every frame is in the message log already (all frames
 * both ways are); a Problem is shown on its connector (recordFault). A failure to record it is logged, and the
 * charger still gets its answer.
 */
export const notifyEvent: CallHandler = async (context, params) => {
  for (const event of params.eventData as EventData[]) {
    try {
      await recordFault(context, event);
    } catch (error) {
      context.log.error({ err: error, chargerId: context.chargerId }, 'OCPP: recording a fault event failed');
    }
  }
  return {};
};

/** SecurityEventNotification (2.0.1): kept in the message log (every frame is), answered. */
export const securityEventNotification: CallHandler = ({ chargerId, log }, params) => {
  log.info({ chargerId, type: params.type }, 'OCPP: security event');
  return {};
};
