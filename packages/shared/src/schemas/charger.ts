import { z } from 'zod';
import { toSatang } from '../money.ts';
import { POWER_TYPES } from './charger-brand.ts';
import { ID_MAX, ID_RANGE_MESSAGE, idQuery, idSchema } from './common.ts';
import { activeBody, idListParam, listQuery, maxMessage, requiredText } from './list.ts';
import { maxPowerKwField } from './power-fields.ts';

/** The status values a connector reports (document 2, section 3); any other value shows '-'. */
export const CHARGER_STATUSES = [
  'AVAILABLE',
  'PREPARING',
  'CHARGING',
  'PAUSED',
  'FINISHING',
  'UNKNOWN',
  'UNAVAILABLE',
  'FAULTED',
] as const;
export type ChargerStatus = (typeof CHARGER_STATUSES)[number];

export const CHARGER_MESSAGES = {
  /** The spec reuses the charger name's text for the charger id (document 2, section 5). */
  id: 'Charger Name (EN) is required.',
  idFormat: 'Charger ID may only contain letters, digits, ".", "_", "-" and "~".',
  nameEn: 'Charger Name (EN) is required.',
  nameTh: 'Charger Name (TH) is required.',
  landlordId: 'Site Name is required.',
  chargerBrandId: 'Charger Brand is required.',
  connectorId: 'Connector ID is required.',
  connectorIdRange: 'Connector ID must be a whole number of 1 or more.',
  connectorIdsUnique: 'Connector IDs must be unique.',
  token: 'Token is required.',
  connectorNameEn: 'Connector Name (EN) is required.',
  connectorNameTh: 'Connector Name (TH) is required.',
  connectorTypeId: 'Connector Type is required.',
  judjodIdRange: 'Judjod Id must be a whole number of 0 or more.',
  maxPowerKw: 'Charging Speed is required.',
  maxPowerKwMin: 'Charging Speed must be at least 0.01.',
  maxPowerKwMax: 'Charging Speed must be at most 9,999,999.99.',
  maxPowerKwStep: 'Charging Speed must have at most 2 decimals.',
  priceId: 'Price Code is required.',
  oldQrBlank: 'Old QR is not whitespace',
  notFound: 'No matched charger found',
  ocppPassword: 'OCPP Password must be 16 to 40 printable characters without spaces.',
} as const;

/**
 * Which OCPP version a charger is spoken to in (issue 33): Automatic takes the newest both speak from the
 * charger's subprotocol list; a version takes only that one.
 */
export const OCPP_PROTOCOL_SETTINGS = ['auto', '1.6', '2.0.1'] as const;
export type OcppProtocolSetting = (typeof OCPP_PROTOCOL_SETTINGS)[number];
export const OCPP_PROTOCOL_LABELS: Record<OcppProtocolSetting, string> = {
  auto: 'Automatic',
  '1.6': 'OCPP 1.6J',
  '2.0.1': 'OCPP 2.0.1',
};
/** A connection's subprotocol as chargers and the list name it ('ocpp2.0.1' → 'OCPP 2.0.1'). */
export const protocolText = (subprotocol: string | null | undefined) =>
  subprotocol === 'ocpp1.6' ? 'OCPP 1.6J' : subprotocol === 'ocpp2.0.1' ? 'OCPP 2.0.1' : (subprotocol ?? '-');

/** OCPP identities go into the WebSocket URL: URL-unreserved characters only, at most 48 (OCPP 2.0.1). */
export const CHARGER_ID_MAX = 48;
const CHARGER_ID = /^[A-Za-z0-9._~-]+$/;
/** True for a valid charger id (the OCPP identity): 1-48 URL-unreserved characters, nothing to decode. */
export const isChargerId = (id: string) => id.length <= CHARGER_ID_MAX && CHARGER_ID.test(id);

const hasTwoDecimalsAtMost = (value: number) => {
  try {
    toSatang(value);
    return true;
  } catch {
    return false;
  }
};

/**
 * One connector row of the Charger Setting form; any other key (e.g. the form's own `isNew`) is a 400 naming
 * it. Connector ids are chosen by the operator, 1 to ID_MAX like every id.
 */
export const connectorBody = z.strictObject({
  /** Typed by the operator: a 0 or 1.5 is told what is wrong, not that the field is empty. */
  id: z
    .number({ error: CHARGER_MESSAGES.connectorId })
    .max(ID_MAX, ID_RANGE_MESSAGE)
    .int(CHARGER_MESSAGES.connectorIdRange)
    .positive(CHARGER_MESSAGES.connectorIdRange),
  token: requiredText(CHARGER_MESSAGES.token, 255),
  nameEn: requiredText(CHARGER_MESSAGES.connectorNameEn, 255),
  nameTh: requiredText(CHARGER_MESSAGES.connectorNameTh, 255),
  connectorTypeId: idSchema(CHARGER_MESSAGES.connectorTypeId),
  /** The blocker's number in the JudJod system (an integer column; 0 is a number there). */
  judjodId: z
    .number({ error: CHARGER_MESSAGES.judjodIdRange })
    .max(ID_MAX, ID_RANGE_MESSAGE)
    .int(CHARGER_MESSAGES.judjodIdRange)
    .min(0, CHARGER_MESSAGES.judjodIdRange)
    .nullish(),
  maxPowerKw: z
    .number({ error: CHARGER_MESSAGES.maxPowerKw })
    .min(0.01, CHARGER_MESSAGES.maxPowerKwMin)
    .max(9_999_999.99, CHARGER_MESSAGES.maxPowerKwMax)
    .refine(hasTwoDecimalsAtMost, CHARGER_MESSAGES.maxPowerKwStep),
  oldQr: z
    .string()
    .max(255, maxMessage(255))
    .refine((value) => value === '' || value.trim().length > 0, CHARGER_MESSAGES.oldQrBlank)
    .nullish()
    .transform((value) => (value?.trim() ? value.trim() : null)),
  priceId: idSchema(CHARGER_MESSAGES.priceId),
});
export type ConnectorBody = z.infer<typeof connectorBody>;

/**
 * The Charger Setting form (document 2, sections 2.9 and 5). `id` is the OCPP identity, entered on creation
 * and fixed afterwards. `merchantId` is optional (the cluster follows from the site; when sent it must be the
 * site's). `landlordId` is required except from landlord users, whose charger always goes into their site.
 * `active` left out: active on POST, unchanged on PATCH. Any other key is a 400 naming it.
 */
export const chargerBody = z.strictObject({
  id: z
    .string({ error: CHARGER_MESSAGES.id })
    .trim()
    .min(1, CHARGER_MESSAGES.id)
    .max(CHARGER_ID_MAX, maxMessage(CHARGER_ID_MAX))
    .regex(CHARGER_ID, CHARGER_MESSAGES.idFormat),
  nameEn: requiredText(CHARGER_MESSAGES.nameEn, 255),
  nameTh: requiredText(CHARGER_MESSAGES.nameTh, 255),
  merchantId: idSchema().nullish(),
  landlordId: idSchema(CHARGER_MESSAGES.landlordId).optional(),
  chargerBrandId: idSchema(CHARGER_MESSAGES.chargerBrandId),
  /**
   * OCPP security profile 1 password (16-40 characters, printable ASCII): absent keeps it, null removes it,
   * a value sets it. Stored hashed, never answered.
   */
  ocppPassword: z
    .string()
    .regex(/^[\x21-\x7e]{16,40}$/, CHARGER_MESSAGES.ocppPassword)
    .nullish(),
  /** The OCPP version to speak (issue 33): absent keeps it (Automatic on a new charger). */
  ocppProtocol: z.enum(OCPP_PROTOCOL_SETTINGS, { error: 'Protocol must be auto, 1.6 or 2.0.1.' }).optional(),
  connectors: z
    .array(connectorBody)
    .max(50)
    .refine(
      (rows) => new Set(rows.map((row) => row.id)).size === rows.length,
      CHARGER_MESSAGES.connectorIdsUnique,
    ),
  active: z.boolean().optional(),
  /**
   * The charger's own power limit in kW (issue 34), capping its connectors' shares of the site's limit. Absent
   * keeps what is stored, null clears (power-fields.ts).
   */
  maxPowerKw: maxPowerKwField,
});
export type ChargerBody = z.infer<typeof chargerBody>;
export type ChargerForm = z.input<typeof chargerBody>;
export const chargerPatchBody = z.union([activeBody, chargerBody]);
export type ChargerPatchBody = z.infer<typeof chargerPatchBody>;

export const CHARGER_SORTS = [
  'id',
  'nameEn',
  'nameTh',
  'merchantNameEn',
  'landlordNameEn',
  'chargerBrandName',
  'active',
] as const;

const textFilter = z.string().trim().max(255, maxMessage(255)).optional();

export const chargerListQuery = listQuery.extend({
  mode: z.enum(['dropdown', 'xlsx']).optional(),
  merchantId: idListParam,
  landlordId: idListParam,
  chargerBrandId: idListParam,
  /** Part of the charger id, any case. */
  id: textFilter,
  /** Part of the charger name (EN or TH), any case. */
  name: textFilter,
  /** A connector id, exactly. */
  connectorId: idQuery.optional(),
  /** Part of a connector's name (EN or TH), any case. */
  connectorName: textFilter,
});
export type ChargerListQuery = z.infer<typeof chargerListQuery>;

export const connector = z
  .object({
    id: z.number().int(),
    token: z.string(),
    nameEn: z.string(),
    nameTh: z.string(),
    connectorTypeId: z.number().int(),
    connectorTypeName: z.string(),
    judjodId: z.number().int().nullable(),
    /** kW with at most 2 decimals. */
    maxPowerKw: z.number(),
    oldQr: z.string().nullable(),
    priceId: z.number().int(),
    /** One of CHARGER_STATUSES as the charger last reported it (a string: unknown values show '-'). */
    status: z.string(),
    /** The connector's number on its charger in OCPP (StatusNotification's connectorId). */
    ocppConnectorId: z.number().int(),
    /** OCPP error code of the last StatusNotification ('NoError' when fine), null before the first. */
    errorCode: z.string().nullable(),
    /** When the status was last set (ISO), null before the first StatusNotification. */
    statusAt: z.string().nullable(),
  })
  .meta({ id: 'Connector' });
export type Connector = z.infer<typeof connector>;

/** A charger as the list and the detail answer it. */
export const charger = z
  .object({
    id: z.string(),
    nameEn: z.string(),
    nameTh: z.string(),
    merchantId: z.number().int(),
    merchantNameEn: z.string(),
    landlordId: z.number().int(),
    landlordNameEn: z.string(),
    chargerBrandId: z.number().int(),
    chargerBrandName: z.string(),
    powerType: z.enum(POWER_TYPES),
    /** The brand's minimum power, kW. */
    minPowerKw: z.number(),
    active: z.boolean(),
    /** Connected over OCPP and heard from within its heartbeat deadline. */
    online: z.boolean(),
    /** The last OCPP frame received (ISO), null if never. */
    lastSeenAt: z.string().nullable(),
    /** From its last BootNotification. */
    vendor: z.string().nullable(),
    model: z.string().nullable(),
    firmwareVersion: z.string().nullable(),
    /** Whether it must sign in with HTTP Basic auth (OCPP security profile 1). */
    hasOcppPassword: z.boolean(),
    /** The Protocol setting (issue 33). */
    ocppProtocol: z.enum(OCPP_PROTOCOL_SETTINGS),
    /** The subprotocol of its last connection ('ocpp1.6', 'ocpp2.0.1'), null before the first. */
    protocol: z.string().nullable(),
    /** The charger's own power limit in kW (issue 34); null = none. */
    maxPowerKw: z.number().nullable(),
    connectors: z.array(connector),
  })
  .meta({ id: 'Charger' });
export type Charger = z.infer<typeof charger>;

export const chargerOption = z.object({ id: z.string(), nameEn: z.string() });
export type ChargerOption = z.infer<typeof chargerOption>;

export const chargerListResponse = z.union([
  z.object({ total: z.number().int(), chargers: z.array(charger) }),
  z.object({ chargers: z.array(chargerOption) }),
]);
/**
 * What the charger last answered to the power sharing's profiles (issue 34): a refusal first (Rejected,
 * NotSupported, Timeout, a CALLERROR's code: it is counted at full power), else the newest answer (Accepted,
 * Pending, Offline); `at` is when (ISO). Null when it was sent none (its site has no limit).
 */
export const chargerPowerProfile = z
  .object({ status: z.string(), at: z.string().nullable() })
  .meta({ id: 'ChargerPowerProfile' });
export type ChargerPowerProfile = z.infer<typeof chargerPowerProfile>;
export const chargerResponse = z.object({ charger, powerProfile: chargerPowerProfile.nullable() });
/** POST answers the new charger's id (the identity it was given). */
export const chargerCreatedResponse = z.object({ message: z.string(), id: z.string() });
/** The path parameter: a charger id as entered. */
export const chargerIdParam = z.object({ id: z.string().min(1).max(CHARGER_ID_MAX) });

export const connectorType = z.object({ id: z.number().int(), name: z.string() });
export type ConnectorType = z.infer<typeof connectorType>;
export const connectorTypeListResponse = z.object({ connectorTypes: z.array(connectorType) });
