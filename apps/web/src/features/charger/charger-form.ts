import type { Charger, ChargerForm, ConnectorBody, OcppProtocolSetting } from '@ev/shared';

/** A connector row of the form; `isNew` (client only, section 3) marks a row added in this edit. */
export type ConnectorRowValues = Partial<Omit<ConnectorBody, 'oldQr'>> & {
  oldQr?: string | null;
  isNew?: boolean;
};

/** The Charger Setting form's values; `removeOcppPassword` is the form's own 'Remove password' tick. */
export interface ChargerValues {
  id?: string;
  nameEn?: string;
  nameTh?: string;
  merchantId?: number | null;
  landlordId?: number;
  chargerBrandId?: number;
  ocppPassword?: string;
  removeOcppPassword?: boolean;
  ocppProtocol?: OcppProtocolSetting;
  /** The charger's own power limit (issue 34); empty is none. */
  maxPowerKw?: number | null;
  connectors?: ConnectorRowValues[];
}

/** Which place fields the signed-in role fills in (section 6); the others are left to the server. */
export interface PlaceFields {
  cluster: boolean;
  site: boolean;
}

/** A new charger starts with no connector; an existing one with its connectors as saved (none `isNew`). */
export function initialChargerValues(record: Charger | undefined): ChargerValues {
  if (!record) return { connectors: [], ocppProtocol: 'auto' };
  return {
    id: record.id,
    nameEn: record.nameEn,
    nameTh: record.nameTh,
    merchantId: record.merchantId,
    landlordId: record.landlordId,
    chargerBrandId: record.chargerBrandId,
    ocppProtocol: record.ocppProtocol,
    maxPowerKw: record.maxPowerKw,
    connectors: record.connectors.map((connector) => ({
      id: connector.id,
      token: connector.token,
      nameEn: connector.nameEn,
      nameTh: connector.nameTh,
      connectorTypeId: connector.connectorTypeId,
      judjodId: connector.judjodId,
      maxPowerKw: connector.maxPowerKw,
      oldQr: connector.oldQr,
      priceId: connector.priceId,
      isNew: false,
    })),
  };
}

/**
 * The body of POST / PATCH /api/charger: `isNew` stripped, empty optional values as null, the place fields
 * only where the role has them (a site user's charger goes into its own site), and the OCPP password only
 * when it changes: absent keeps it, null removes it. An empty Max power is sent as null (no limit).
 */
export function chargerBodyOf(values: ChargerValues, place: PlaceFields): ChargerForm {
  const { removeOcppPassword, ocppPassword, connectors, merchantId, landlordId, maxPowerKw, ...fields } =
    values;
  return {
    ...(fields as Pick<ChargerForm, 'id' | 'nameEn' | 'nameTh' | 'chargerBrandId' | 'ocppProtocol'>),
    maxPowerKw: maxPowerKw ?? null,
    ...(place.cluster ? { merchantId: merchantId ?? null } : {}),
    ...(place.site ? { landlordId } : {}),
    ...(removeOcppPassword ? { ocppPassword: null } : ocppPassword ? { ocppPassword } : {}),
    connectors: (connectors ?? []).map(({ isNew: _isNew, judjodId, oldQr, ...row }) => ({
      ...(row as Omit<ConnectorBody, 'judjodId' | 'oldQr'>),
      judjodId: judjodId ?? null,
      oldQr: oldQr ? oldQr : null,
    })),
  };
}
