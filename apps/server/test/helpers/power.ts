import { type PowerSession, type PowerUnit, profileLimit, sharePower } from '@ev/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { chargerBrands, chargingSessions, landlords } from '../../src/db/schema/index.ts';
import { RPCClient } from '../../src/ocpp/rpc.ts';
import type { CallResult } from './test-app.ts';

/**
 * Raw chargers for the power-sharing tests (issue 34): bare ocpp-rpc clients (a 2.0.1 one in strict mode, so
 * every frame it gets is checked against the official 2.0.1 schemas) that record the charging profiles they are
 * sent and answer them as the test says.
 */

type Params = Record<string, unknown>;
type Api = (
  method: string,
  path: string,
  options?: { body?: unknown; token?: string },
) => Promise<CallResult>;

/** How a charger answers SetChargingProfile: a status word, a CALLERROR with this code, or never. */
export type ProfileAnswer = { status: string } | { error: string } | { silent: true };

export interface Received {
  action: string;
  params: Params;
}

/** The limit and what it is bound to, read alike from a 1.6 and a 2.0.1 SetChargingProfile. */
export interface ProfileSeen {
  connector: number;
  purpose: string;
  id: number;
  limit: number;
  unit: string;
  /** 1.6: our session id; 2.0.1: the charger's own transaction id. */
  transactionId: number | string | undefined;
}

export function profileOf(version: '1.6' | '2.0.1', params: Params): ProfileSeen {
  if (version === '1.6') {
    const profile = params.csChargingProfiles as {
      chargingProfileId: number;
      chargingProfilePurpose: string;
      transactionId?: number;
      chargingSchedule: { chargingRateUnit: string; chargingSchedulePeriod: Array<{ limit: number }> };
    };
    return {
      connector: params.connectorId as number,
      purpose: profile.chargingProfilePurpose,
      id: profile.chargingProfileId,
      limit: profile.chargingSchedule.chargingSchedulePeriod[0]!.limit,
      unit: profile.chargingSchedule.chargingRateUnit,
      transactionId: profile.transactionId,
    };
  }
  const profile = params.chargingProfile as {
    id: number;
    chargingProfilePurpose: string;
    transactionId?: string;
    chargingSchedule: Array<{ chargingRateUnit: string; chargingSchedulePeriod: Array<{ limit: number }> }>;
  };
  return {
    connector: params.evseId as number,
    purpose: profile.chargingProfilePurpose,
    id: profile.id,
    limit: profile.chargingSchedule[0]!.chargingSchedulePeriod[0]!.limit,
    unit: profile.chargingSchedule[0]!.chargingRateUnit,
    transactionId: profile.transactionId,
  };
}

export interface StationSpec {
  id: string;
  version: '1.6' | '2.0.1';
  landlordId: number;
  merchantId: number;
  chargerBrandId: number;
  priceId: number;
  /** Each connector's maximum power (kW). */
  connectorsKw: number[];
  /** Our connector ids are taken from here on (unique in the test's database). */
  firstConnectorId: number;
}

let sessions = 0;

/** A raw charger of a test server (`wsUrl`: its /ocpp endpoint), created through the API by `api`. */
export class PowerStation {
  readonly received: Received[] = [];
  /** How it answers SetChargingProfile now (tests change it). */
  answer: ProfileAnswer = { status: 'Accepted' };
  /** Whether it handles SetChargingProfile at all (false: ocpp-rpc answers NotImplemented). */
  handlesProfiles = true;
  client: InstanceType<typeof RPCClient> | null = null;
  readonly connectorIds: number[];

  constructor(
    readonly spec: StationSpec,
    private wsUrl: string,
  ) {
    this.connectorIds = spec.connectorsKw.map((_, i) => spec.firstConnectorId + i);
  }

  get id() {
    return this.spec.id;
  }
  get version() {
    return this.spec.version;
  }

  /** Creates the charger through the API (its connectors with their maximum power). */
  async create(api: Api, token: string): Promise<void> {
    const { spec } = this;
    const response = await api('POST', '/api/charger', {
      token,
      body: {
        id: spec.id,
        nameEn: `Charger ${spec.id}`,
        nameTh: `เครื่อง ${spec.id}`,
        merchantId: spec.merchantId,
        landlordId: spec.landlordId,
        chargerBrandId: spec.chargerBrandId,
        ocppProtocol: spec.version,
        connectors: spec.connectorsKw.map((kw, i) => ({
          id: this.connectorIds[i],
          token: `token-${this.connectorIds[i]}`,
          nameEn: `Connector ${i + 1}`,
          nameTh: `หัวชาร์จ ${i + 1}`,
          connectorTypeId: 4,
          maxPowerKw: kw,
          priceId: spec.priceId,
        })),
      },
    });
    if (response.status !== 200) throw new Error(`create ${spec.id}: ${JSON.stringify(response.body)}`);
  }

  /** Connects (to `wsUrl`, or the one it had), and boots unless told not to (a reconnect). */
  async connect({ boot = true, wsUrl }: { boot?: boolean; wsUrl?: string } = {}): Promise<void> {
    if (wsUrl) this.wsUrl = wsUrl;
    const v201 = this.version === '2.0.1';
    const client = new RPCClient({
      endpoint: this.wsUrl,
      identity: this.id,
      protocols: [v201 ? 'ocpp2.0.1' : 'ocpp1.6'],
      strictMode: v201,
      reconnect: false,
    } as never);
    for (const action of ['SetChargingProfile', 'ClearChargingProfile']) {
      client.handle(action, (({ params }: { params: Params }) => {
        if (action === 'SetChargingProfile' && !this.handlesProfiles)
          throw Object.assign(new Error('no'), { rpcErrorCode: 'NotImplemented' });
        this.received.push({ action, params });
        if (action === 'ClearChargingProfile') return { status: 'Accepted' };
        if ('silent' in this.answer) return new Promise(() => undefined);
        if ('error' in this.answer) throw Object.assign(new Error('no'), { rpcErrorCode: this.answer.error });
        return { status: this.answer.status };
      }) as never);
    }
    await client.connect();
    this.client = client;
    if (!boot) return;
    await this.call(
      'BootNotification',
      v201
        ? { reason: 'PowerUp', chargingStation: { vendorName: 'Raw', model: 'Power201' } }
        : { chargePointVendor: 'Raw', chargePointModel: 'Power16' },
    );
  }

  async disconnect(): Promise<void> {
    await this.client?.close({ code: 1000, force: true });
    this.client = null;
  }

  call(action: string, params: object) {
    if (!this.client) throw new Error(`${this.id} is not connected`);
    return this.client.call(action, params) as Promise<Params>;
  }

  /** Starts a session on connector `n`; our session id (and a 2.0.1 charger's own transaction id). */
  async start(db: Db, n: number): Promise<{ sessionId: number; ref?: string }> {
    const at = new Date().toISOString();
    const idTag = `POWER-${++sessions}`;
    if (this.version === '1.6') {
      const answer = await this.call('StartTransaction', {
        connectorId: n,
        idTag,
        meterStart: 0,
        timestamp: at,
      });
      return { sessionId: answer.transactionId as number };
    }
    const ref = `${this.id}-tx-${sessions}`;
    await this.call('TransactionEvent', {
      eventType: 'Started',
      timestamp: at,
      triggerReason: 'Authorized',
      seqNo: 0,
      transactionInfo: { transactionId: ref, chargingState: 'Charging' },
      idToken: { idToken: idTag, type: 'Central' },
      evse: { id: n, connectorId: 1 },
    });
    const [session] = await db
      .select({ id: chargingSessions.id })
      .from(chargingSessions)
      .where(eq(chargingSessions.transactionRef, ref));
    return { sessionId: session!.id, ref };
  }

  /** 1.6 StopTransaction; 2.0.1 TransactionEvent Ended. */
  async stop(session: { sessionId: number; ref?: string }, seqNo = 9): Promise<void> {
    const at = new Date().toISOString();
    if (this.version === '1.6') {
      await this.call('StopTransaction', {
        transactionId: session.sessionId,
        meterStop: 1000,
        timestamp: at,
      });
      return;
    }
    await this.call('TransactionEvent', {
      eventType: 'Ended',
      timestamp: at,
      triggerReason: 'StopAuthorized',
      seqNo,
      transactionInfo: { transactionId: session.ref, stoppedReason: 'Local', chargingState: 'EVConnected' },
    });
  }

  /**
   * The charger reports what the session's car draws now (Power.Active.Import, W): 1.6 MeterValues, 2.0.1 a
   * TransactionEvent Updated with its meter value.
   */
  async draws(
    n: number,
    session: { sessionId: number; ref?: string },
    watts: number,
    seqNo = 1,
  ): Promise<void> {
    const meterValue = (v201: boolean) => [
      {
        timestamp: new Date().toISOString(),
        sampledValue: [
          v201
            ? { value: watts, measurand: 'Power.Active.Import', unitOfMeasure: { unit: 'W' } }
            : { value: String(watts), measurand: 'Power.Active.Import', unit: 'W' },
        ],
      },
    ];
    if (this.version === '1.6') {
      await this.call('MeterValues', {
        connectorId: n,
        transactionId: session.sessionId,
        meterValue: meterValue(false),
      });
      return;
    }
    await this.call('TransactionEvent', {
      eventType: 'Updated',
      timestamp: new Date().toISOString(),
      triggerReason: 'MeterValuePeriodic',
      seqNo,
      transactionInfo: { transactionId: session.ref, chargingState: 'Charging' },
      meterValue: meterValue(true),
    });
  }

  /** The car suspends (SuspendedEV) or charges again: 1.6 StatusNotification, 2.0.1 TransactionEvent. */
  async carState(
    n: number,
    state: 'SuspendedEV' | 'Charging',
    session?: { ref?: string },
    seqNo = 1,
  ): Promise<void> {
    const at = new Date().toISOString();
    if (this.version === '1.6') {
      await this.call('StatusNotification', {
        connectorId: n,
        errorCode: 'NoError',
        status: state,
        timestamp: at,
      });
      return;
    }
    await this.call('TransactionEvent', {
      eventType: 'Updated',
      timestamp: at,
      triggerReason: 'ChargingStateChanged',
      seqNo,
      transactionInfo: { transactionId: session?.ref, chargingState: state },
    });
  }

  /** The SetChargingProfiles it got of this purpose (1.6 words: TxProfile, TxDefaultProfile), oldest first. */
  profiles(purpose: 'TxProfile' | 'TxDefaultProfile', connector?: number): ProfileSeen[] {
    return this.received
      .filter((r) => r.action === 'SetChargingProfile')
      .map((r) => profileOf(this.version, r.params))
      .filter((p) => p.purpose === purpose && (connector === undefined || p.connector === connector));
  }

  lastProfile(purpose: 'TxProfile' | 'TxDefaultProfile', connector?: number): ProfileSeen | undefined {
    return this.profiles(purpose, connector).at(-1);
  }

  cleared(): Params[] {
    return this.received.filter((r) => r.action === 'ClearChargingProfile').map((r) => r.params);
  }
}

/** A session as the test knows it, to share the way the server must. */
export interface SessionFacts {
  station: PowerStation;
  connector: number;
  sessionId: number;
  ref?: string;
  suspended?: boolean;
  /** What its car can use now (a tapering car), as the server must judge it from the draw it reported. */
  usableW?: number;
}

export interface SiteFacts {
  limitW: number;
  phases: number | null;
  voltage: number | null;
}

/**
 * What sharePower gives each of these sessions, with the others counted at full power (`fixed`): the same
 * inputs the server must use, read from the database (start times, connector and charger limits, brands).
 */
export async function expectedShares(
  db: Db,
  site: SiteFacts,
  steered: SessionFacts[],
  fixedW = 0,
): Promise<Array<SessionFacts & { allowanceW: number; waiting: boolean; limit: number; unit: PowerUnit }>> {
  const inputs: Array<PowerSession & { unit: PowerUnit }> = [];
  for (const facts of steered) {
    const [row] = await db
      .select({ startedAt: chargingSessions.startedAt })
      .from(chargingSessions)
      .where(eq(chargingSessions.id, facts.sessionId));
    const { maxW, minW, unit } = await connectorPower(db, site, facts.station, facts.connector);
    inputs.push({
      id: String(facts.sessionId),
      startedAt: row!.startedAt.getTime(),
      maxW,
      minW,
      unit,
      ...(facts.suspended ? { usableW: 0 } : facts.usableW === undefined ? {} : { usableW: facts.usableW }),
    });
  }
  const shares = sharePower(site.limitW, inputs, fixedW);
  return steered.map((facts, i) => ({
    ...facts,
    allowanceW: shares[i]!.allowanceW,
    waiting: shares[i]!.waiting,
    unit: inputs[i]!.unit,
    limit: profileLimit(shares[i]!.allowanceW, inputs[i]!.unit),
  }));
}

/** A connector's full power, least power and profile unit, from its charger's brand and the site. */
export async function connectorPower(db: Db, site: SiteFacts, station: PowerStation, connector: number) {
  const [brand] = await db
    .select({ powerType: chargerBrands.powerType, minPowerKw: chargerBrands.minPowerKw })
    .from(chargerBrands)
    .where(eq(chargerBrands.id, station.spec.chargerBrandId));
  const ac = brand!.powerType === 'AC';
  const maxW = station.spec.connectorsKw[connector - 1]! * 1000;
  const minW = ac ? 6 * (site.phases ?? 3) * (site.voltage ?? 230) : Number(brand!.minPowerKw) * 1000;
  const unit: PowerUnit =
    ac && site.phases !== null && site.voltage !== null
      ? { unit: 'A', phases: site.phases, voltage: site.voltage }
      : { unit: 'W' };
  return { maxW, minW, unit };
}

/** Sets a site's limit straight in the database (the Site Setting's fields come with another change). */
export async function writeSiteLimit(db: Db, landlordId: number, site: SiteFacts | null): Promise<void> {
  await db
    .update(landlords)
    .set(
      site
        ? { maxPowerKw: (site.limitW / 1000).toFixed(2), phases: site.phases, voltage: site.voltage }
        : { maxPowerKw: null },
    )
    .where(eq(landlords.id, landlordId));
}
