import { z } from 'zod';
import { BUSINESS_HOURS_TYPES } from '../enums.ts';
import { idSchema } from './common.ts';
import {
  activeBody,
  booleanParam,
  idListParam,
  idName,
  listMode,
  listQuery,
  optionalText,
  requiredText,
} from './list.ts';
import { maxPowerKwField, phasesField, phasesVoltageIssue, voltageField } from './power-fields.ts';
import { optionalTel } from './thai-formats.ts';

export const LANDLORD_MESSAGES = {
  /** The spec repeats 'Site Name (EN) is required.' here, a copy-paste defect (docs/spec-deviations.md). */
  merchantId: 'Cluster Name is required.',
  nameEn: 'Site Name (EN) is required.',
  nameTh: 'Site Name (TH) is required.',
  latitude: 'Latitude is required.',
  longitude: 'Longitude is required.',
  latitudeRange: 'Latitude must be between -90 and 90.',
  longitudeRange: 'Longitude must be between -180 and 180.',
  businessHoursType: 'Business Hours is required.',
  day: 'Day is required.',
  time: 'Time is required.',
  timeFormat: 'Time must be HH:mm.',
  notFound: 'No matched landlord found',
} as const;

/** The site map's first view when the site has no point yet (document 1, section 9). */
export const MAP_DEFAULT_CENTER: [number, number] = [13.69, 100.54];
export const MAP_DEFAULT_ZOOM = 10;

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeOfDay = z
  .string({ error: LANDLORD_MESSAGES.time })
  .min(1, LANDLORD_MESSAGES.time)
  .regex(HH_MM, LANDLORD_MESSAGES.timeFormat);

/** One opening period: day 1 = Sunday … 7 = Saturday, local times `HH:mm`. */
export const businessHour = z.strictObject({
  dayOfWeek: z
    .number({ error: LANDLORD_MESSAGES.day })
    .int(LANDLORD_MESSAGES.day)
    .min(1, LANDLORD_MESSAGES.day)
    .max(7, LANDLORD_MESSAGES.day),
  openTime: timeOfDay,
  closeTime: timeOfDay,
});
export type BusinessHour = z.infer<typeof businessHour>;

const coordinate = (required: string, range: string, limit: number) =>
  z.number({ error: required }).min(-limit, range).max(limit, range);

/**
 * The Site Setting form (document 1, section 5). `merchantId` is required only from roles that choose the
 * cluster (admin, callcenter); the server enforces it, forms add it with `.required()` for those roles.
 * Business-hours rows count only when the type is 'period'. `active` left out: active on POST, unchanged on
 * PATCH. Any other key is a 400 naming it.
 */
export const landlordBody = z
  .strictObject({
    merchantId: idSchema(LANDLORD_MESSAGES.merchantId).optional(),
    nameEn: requiredText(LANDLORD_MESSAGES.nameEn, 255),
    nameTh: requiredText(LANDLORD_MESSAGES.nameTh, 255),
    latitude: coordinate(LANDLORD_MESSAGES.latitude, LANDLORD_MESSAGES.latitudeRange, 90),
    longitude: coordinate(LANDLORD_MESSAGES.longitude, LANDLORD_MESSAGES.longitudeRange, 180),
    businessHoursType: z.enum(BUSINESS_HOURS_TYPES, { error: LANDLORD_MESSAGES.businessHoursType }),
    businessHours: z.array(businessHour).max(100).optional(),
    meaId: optionalText(255),
    peaId: optionalText(255),
    partnerProjectId: optionalText(255),
    partnerUserType: z.enum(['ruejai']).nullish(),
    descEn: optionalText(255),
    descTh: optionalText(255),
    addrEn: optionalText(255),
    addrTh: optionalText(255),
    provinceId: idSchema().nullish(),
    tel: optionalTel,
    active: z.boolean().optional(),
    /**
     * The site's power limit (issue 34), shared among its sessions; with the supply's phases and voltage per
     * phase (both or neither) for chargers that limit in amperes. Absent keeps what is stored, null clears
     * (power-fields.ts).
     */
    maxPowerKw: maxPowerKwField,
    phases: phasesField,
    voltage: voltageField,
  })
  .superRefine((body, ctx) => {
    const issue = phasesVoltageIssue(body);
    if (issue) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  });
export type LandlordBody = z.infer<typeof landlordBody>;
export type LandlordForm = z.input<typeof landlordBody>;
export const landlordPatchBody = z.union([activeBody, landlordBody]);
export type LandlordPatchBody = z.infer<typeof landlordPatchBody>;

export const LANDLORD_SORTS = [
  'id',
  'nameEn',
  'nameTh',
  'merchantId',
  'merchantNameEn',
  'businessHoursType',
  'internal',
  'active',
] as const;

export const landlordListQuery = listQuery.extend({
  mode: listMode,
  merchantId: idListParam,
  landlordId: idListParam,
  businessHoursType: z.enum(BUSINESS_HOURS_TYPES).optional(),
  internal: booleanParam,
  active: booleanParam,
});
export type LandlordListQuery = z.infer<typeof landlordListQuery>;

export const landlordListItem = z.object({
  id: z.number().int(),
  merchantId: z.number().int(),
  merchantNameEn: z.string(),
  nameEn: z.string(),
  nameTh: z.string(),
  addrEn: z.string().nullable(),
  addrTh: z.string().nullable(),
  businessHoursType: z.enum(BUSINESS_HOURS_TYPES),
  internal: z.boolean(),
  active: z.boolean(),
});
export type LandlordListItem = z.infer<typeof landlordListItem>;

export const landlordListResponse = z.union([
  z.object({ total: z.number().int(), landlords: z.array(landlordListItem) }),
  z.object({ landlords: z.array(idName) }),
]);

export const landlord = z
  .object({
    id: z.number().int(),
    merchantId: z.number().int(),
    merchantNameEn: z.string(),
    nameEn: z.string(),
    nameTh: z.string(),
    latitude: z.number(),
    longitude: z.number(),
    businessHoursType: z.enum(BUSINESS_HOURS_TYPES),
    businessHours: z.array(businessHour),
    meaId: z.string().nullable(),
    peaId: z.string().nullable(),
    partnerProjectId: z.string().nullable(),
    partnerUserType: z.string().nullable(),
    descEn: z.string().nullable(),
    descTh: z.string().nullable(),
    addrEn: z.string().nullable(),
    addrTh: z.string().nullable(),
    provinceId: z.number().int().nullable(),
    tel: z.string().nullable(),
    internal: z.boolean(),
    active: z.boolean(),
    /** The site's power limit in kW (issue 34); null = no limit. */
    maxPowerKw: z.number().nullable(),
    /** 1 or 3, null when not given. */
    phases: z.number().int().nullable(),
    /** Volts per phase, null when not given. */
    voltage: z.number().int().nullable(),
  })
  .meta({ id: 'Landlord' });
export type Landlord = z.infer<typeof landlord>;
export const landlordResponse = z.object({ landlord });
