import { eq } from 'drizzle-orm';
import { bookings, chargingSessions } from '../../src/db/schema/index.ts';
import { type chargerPlace, createChargers, rpcClient, rpcClient201 } from './ocpp.ts';
import type { TestApp } from './test-app.ts';

export const iso = (ms: number) => new Date(ms).toISOString();

type Place = Awaited<ReturnType<typeof chargerPlace>>;
type Answer = Record<string, unknown>;

/** One TransactionEvent as a test writes it: the frame's fields, with a meter reading in Wh (and SoC). */
export interface TxEvent {
  at: number;
  trigger: string;
  seqNo: number;
  state?: 'Charging' | 'EVConnected' | 'SuspendedEV' | 'SuspendedEVSE' | 'Idle';
  stoppedReason?: string;
  idToken?: { idToken: string; type: string };
  remoteStartId?: number;
  evse?: number;
  wh?: number;
  /** The register's unit: Wh (default) or kWh (sent as wh / 1000). */
  kwh?: boolean;
  soc?: number;
  offline?: boolean;
}

/**
 * A raw OCPP 2.0.1 charger (not our simulator): a bare ocpp-rpc client in strict mode, so every frame both
 * ways is checked against the official 2.0.1 schemas. It records the commands it gets and accepts them.
 */
export async function station201(t: TestApp, token: string, place: Place, id: string, connectors = 2) {
  const [created] = await createChargers(t, token, place, [id], { connectors });
  const client = rpcClient201(t, id);
  const commands: Array<{ action: string; params: Answer }> = [];
  for (const action of [
    'RequestStartTransaction',
    'RequestStopTransaction',
    'ReserveNow',
    'CancelReservation',
  ]) {
    client.handle(action, (async ({ params }: { params: Answer }) => {
      commands.push({ action, params });
      return { status: 'Accepted' };
    }) as never);
  }
  await client.connect();
  const boot = (await client.call('BootNotification', {
    reason: 'PowerUp',
    chargingStation: { vendorName: 'Raw', model: 'TwoOhOne', firmwareVersion: '2.0.1-test' },
  })) as Answer;
  const call = (action: string, params: object) => client.call(action, params) as Promise<Answer>;
  const tx = (eventType: 'Started' | 'Updated' | 'Ended', ref: string, e: TxEvent) =>
    call('TransactionEvent', {
      eventType,
      timestamp: iso(e.at),
      triggerReason: e.trigger,
      seqNo: e.seqNo,
      ...(e.offline ? { offline: true } : {}),
      transactionInfo: {
        transactionId: ref,
        ...(e.state ? { chargingState: e.state } : {}),
        ...(e.stoppedReason ? { stoppedReason: e.stoppedReason } : {}),
        ...(e.remoteStartId !== undefined ? { remoteStartId: e.remoteStartId } : {}),
      },
      ...(e.idToken ? { idToken: e.idToken } : {}),
      ...(e.evse !== undefined ? { evse: { id: e.evse, connectorId: 1 } } : {}),
      ...(e.wh !== undefined || e.soc !== undefined
        ? {
            meterValue: [
              {
                timestamp: iso(e.at),
                sampledValue: [
                  ...(e.wh !== undefined
                    ? [
                        e.kwh
                          ? { value: e.wh / 1000, unitOfMeasure: { unit: 'kWh' } }
                          : { value: e.wh, measurand: 'Energy.Active.Import.Register' },
                      ]
                    : []),
                  ...(e.soc !== undefined
                    ? [{ value: e.soc, measurand: 'SoC', unitOfMeasure: { unit: 'Percent' } }]
                    : []),
                ],
              },
            ],
          }
        : {}),
    });
  return {
    id,
    boot,
    connectorIds: created!.connectorIds,
    commands,
    call,
    tx,
    status: (connectorStatus: string, at: number, evseId = 1) =>
      call('StatusNotification', { timestamp: iso(at), connectorStatus, evseId, connectorId: 1 }),
    close: () => client.close({ code: 1000, force: true }),
  };
}

/** A raw OCPP 1.6 charger, as charger-order.test.ts drives one: the twin of a 2.0.1 one. */
export async function station16(t: TestApp, token: string, place: Place, id: string, connectors = 2) {
  const [created] = await createChargers(t, token, place, [id], { connectors });
  const client = rpcClient(t, id);
  const commands: Array<{ action: string; params: Answer }> = [];
  for (const action of [
    'RemoteStopTransaction',
    'RemoteStartTransaction',
    'ReserveNow',
    'CancelReservation',
  ]) {
    client.handle(action, (async ({ params }: { params: Answer }) => {
      commands.push({ action, params });
      return { status: 'Accepted' };
    }) as never);
  }
  await client.connect();
  await client.call('BootNotification', { chargePointVendor: 'Raw', chargePointModel: 'OneSix' });
  const call = (action: string, params: object) => client.call(action, params) as Promise<Answer>;
  return {
    id,
    connectorIds: created!.connectorIds,
    commands,
    call,
    start: async (idTag: string, at: number, meterStart: number, connectorId = 1) =>
      (await call('StartTransaction', { connectorId, idTag, meterStart, timestamp: iso(at) })) as {
        transactionId: number;
        idTagInfo: { status: string };
      },
    meter: (transactionId: number, at: number, wh: number, soc?: number, connectorId = 1) =>
      call('MeterValues', {
        connectorId,
        transactionId,
        meterValue: [
          {
            timestamp: iso(at),
            sampledValue: [
              { value: String(wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
              ...(soc === undefined ? [] : [{ value: String(soc), measurand: 'SoC', unit: 'Percent' }]),
            ],
          },
        ],
      }),
    status: (status: string, at: number, connectorId = 1) =>
      call('StatusNotification', { connectorId, errorCode: 'NoError', status, timestamp: iso(at) }),
    stop: (transactionId: number, at: number, meterStop: number, reason = 'Local') =>
      call('StopTransaction', { transactionId, meterStop, timestamp: iso(at), reason }),
    close: () => client.close({ code: 1000, force: true }),
  };
}

/** Our session of a 2.0.1 transaction, by the charger's transaction id. */
export const sessionOfRef = async (t: TestApp, chargerId: string, ref: string) => {
  const [session] = await t.database.db
    .select()
    .from(chargingSessions)
    .where(eq(chargingSessions.transactionRef, ref));
  return session?.chargerId === chargerId ? session : undefined;
};

export const bookingOfSession = async (t: TestApp, sessionId: number) =>
  (await t.database.db.select().from(bookings).where(eq(bookings.sessionId, sessionId)))[0];
