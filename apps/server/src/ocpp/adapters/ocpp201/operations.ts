/**
 * The 2.0.1 frames of the remaining intents (issue 33): the local authorization list, reservations, firmware
 * and logs, charging profiles. Each answer comes back in the shape 1.6 callers read, the status word as the
 * charger said it (the words are the same in both versions but for GetLocalListVersion's number and GetLog's
 * file name).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { chargingSessions } from '../../../db/schema/index.ts';
import type { ChargingProfile16, LocalListEntry } from '../../commands.ts';
import { defined, requestIdOf, same, type Translations } from './types.ts';

/**
 * A card in the list is presented at the reader (ISO14443); a parent is the member's app tag, a Central token.
 * Our id tags carry no type of their own (docs/ocpp.md).
 */
const CARD = 'ISO14443';
const CENTRAL = 'Central';

const authorizationData = ({ idTag, idTagInfo }: LocalListEntry) => ({
  idToken: { idToken: idTag, type: CARD },
  ...(idTagInfo
    ? {
        idTokenInfo: defined({
          status: idTagInfo.status,
          cacheExpiryDateTime: idTagInfo.expiryDate,
          groupIdToken: idTagInfo.parentIdTag ? { idToken: idTagInfo.parentIdTag, type: CENTRAL } : undefined,
        }),
      }
    : {}),
});

/** 1.6's profile purposes, in 2.0.1's words. */
const PURPOSE: Record<string, string> = {
  ChargePointMaxProfile: 'ChargingStationMaxProfile',
  TxDefaultProfile: 'TxDefaultProfile',
  TxProfile: 'TxProfile',
};

/** The charger's own (string) id of our session, for a TxProfile bound to a transaction. */
async function transactionRef(db: Db, chargerId: string, transactionId: number): Promise<string | null> {
  const [session] = await db
    .select({ ref: chargingSessions.transactionRef, chargerId: chargingSessions.chargerId })
    .from(chargingSessions)
    .where(eq(chargingSessions.id, transactionId));
  return session?.chargerId === chargerId ? session.ref : null;
}

/** A 1.6 csChargingProfiles as 2.0.1's chargingProfile (one schedule; its id is the profile's). */
export function chargingProfileOf(profile: ChargingProfile16, transactionRef?: string) {
  const schedule = profile.chargingSchedule;
  return defined({
    id: profile.chargingProfileId,
    stackLevel: profile.stackLevel,
    chargingProfilePurpose: PURPOSE[profile.chargingProfilePurpose] ?? profile.chargingProfilePurpose,
    chargingProfileKind: profile.chargingProfileKind,
    recurrencyKind: profile.recurrencyKind,
    validFrom: profile.validFrom,
    validTo: profile.validTo,
    transactionId: transactionRef,
    chargingSchedule: [
      defined({
        id: profile.chargingProfileId,
        startSchedule: schedule.startSchedule,
        duration: schedule.duration,
        chargingRateUnit: schedule.chargingRateUnit,
        chargingSchedulePeriod: schedule.chargingSchedulePeriod.map((period) => defined({ ...period })),
        minChargingRate: schedule.minChargingRate,
      }),
    ],
  });
}

export const OPERATION_TRANSLATIONS: Translations = {
  SendLocalList: (_db, _id, { listVersion, updateType, localAuthorizationList }) => ({
    action: 'SendLocalList',
    params: {
      versionNumber: listVersion,
      updateType,
      ...(Array.isArray(localAuthorizationList) && localAuthorizationList.length > 0
        ? { localAuthorizationList: (localAuthorizationList as LocalListEntry[]).map(authorizationData) }
        : {}),
    },
    answer: same,
  }),
  GetLocalListVersion: () => ({
    action: 'GetLocalListVersion',
    params: {},
    answer: (response) => ({ listVersion: response.versionNumber }),
  }),
  ReserveNow: (_db, _id, { connectorId, expiryDate, idTag, parentIdTag, reservationId }) => ({
    action: 'ReserveNow',
    params: {
      id: reservationId,
      expiryDateTime: expiryDate,
      // The member's app tag: the charger matches it when the member starts from the app.
      idToken: { idToken: idTag, type: CENTRAL },
      // Connector 0 (any): 2.0.1 leaves the EVSE out.
      ...(typeof connectorId === 'number' && connectorId > 0 ? { evseId: connectorId } : {}),
      ...(typeof parentIdTag === 'string' ? { groupIdToken: { idToken: parentIdTag, type: CENTRAL } } : {}),
    },
    answer: same,
  }),
  CancelReservation: (_db, _id, { reservationId }) => ({
    action: 'CancelReservation',
    params: { reservationId },
    answer: same,
  }),
  UpdateFirmware: (_db, _id, params) => ({
    action: 'UpdateFirmware',
    params: {
      requestId: requestIdOf(params),
      firmware: { location: params.location, retrieveDateTime: params.retrieveDate },
      ...defined({ retries: params.retries, retryInterval: params.retryInterval }),
    },
    // 1.6's answer is empty (taken); 2.0.1 says Accepted, Rejected, InvalidCertificate…: its word is kept.
    answer: (response) => ({ status: response.status }),
  }),
  GetDiagnostics: (_db, _id, params) => ({
    action: 'GetLog',
    params: {
      logType: 'DiagnosticsLog',
      requestId: requestIdOf(params),
      log: defined({
        remoteLocation: params.location,
        oldestTimestamp: params.startTime,
        latestTimestamp: params.stopTime,
      }),
      ...defined({ retries: params.retries, retryInterval: params.retryInterval }),
    },
    // AcceptedCanceled: accepted, and an upload under way was cancelled for it.
    answer: (response) =>
      defined({
        status: response.status === 'AcceptedCanceled' ? 'Accepted' : response.status,
        detail: response.status === 'AcceptedCanceled' ? 'AcceptedCanceled' : undefined,
        fileName: response.filename,
      }),
  }),
  SetChargingProfile: async (db, chargerId, { connectorId, csChargingProfiles }) => {
    const profile = csChargingProfiles as ChargingProfile16;
    let ref: string | undefined;
    if (profile.transactionId !== undefined) {
      const found = await transactionRef(db, chargerId, profile.transactionId);
      if (!found)
        return { unsupported: `No OCPP 2.0.1 transaction ${profile.transactionId} on this charger` };
      ref = found;
    }
    return {
      action: 'SetChargingProfile',
      params: { evseId: connectorId, chargingProfile: chargingProfileOf(profile, ref) },
      answer: same,
    };
  },
  ClearChargingProfile: (_db, _id, { id, connectorId, chargingProfilePurpose, stackLevel }) => {
    const criteria = defined({
      evseId: connectorId,
      chargingProfilePurpose:
        typeof chargingProfilePurpose === 'string' ? PURPOSE[chargingProfilePurpose] : undefined,
      stackLevel,
    });
    return {
      action: 'ClearChargingProfile',
      params: {
        ...defined({ chargingProfileId: id }),
        ...(Object.keys(criteria).length > 0 ? { chargingProfileCriteria: criteria } : {}),
      },
      answer: same,
    };
  },
};
