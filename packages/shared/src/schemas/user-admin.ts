/**
 * User administration (document 2, sections 2.2, 2.3, 3-9): the Member Mobile User and Web Admin User
 * screens and their calls `GET/POST /api/user`, `PATCH/DELETE /api/user/{id}`. The signed-in user's own
 * profile is `user.ts`.
 */
import { z } from 'zod';
import { ADMIN_ROLES, type AdminRole, PARTNER_USER_TYPES, USER_TYPES } from '../enums.ts';
import { idSchema } from './common.ts';
import { booleanParam, idListParam, listQuery, maxMessage } from './list.ts';
import { NAME_MAX } from './user.ts';

export const USER_MESSAGES = {
  email: 'Email is required.',
  emailPattern: "Email isn't correct.",
  emailBlank: 'Email is not whitespace',
  firstName: 'Name is required.',
  /** The spec names the rule, not its text; worded as the email's. */
  firstNameBlank: 'Name is not whitespace',
  lastName: 'Surname is required.',
  lastNameBlank: 'Surname is not whitespace',
  adminRole: 'Role is required.',
  merchantId: 'Cluster name is required.',
  partyId: 'Group name is required.',
  landlordId: 'Site name is required.',
  tel: 'Phone Number must be digits.',
  mobileNotFound: 'No matched user mobile found',
  adminNotFound: 'No matched user admin found',
  emailTaken: 'This email is already used by another user.',
  siteOutsideCluster: 'Site name is not in the chosen cluster.',
  ownRole: "You can't change your own role.",
  ownLock: "You can't lock your own account.",
} as const;

/** 'Type' of a mobile user (document 1, section 3: user types mobile and ruejai). */
export type PartnerUserType = (typeof PARTNER_USER_TYPES)[number];
export const PARTNER_USER_TYPE_LABELS: Record<PartnerUserType, string> = {
  mobile: 'Mobile',
  ruejai: 'Ruejai',
};

/** The active flag of a user, as both lists show it (document 2, section 4). */
export const userStatusLabel = (active: boolean) => (active ? 'Available' : 'Locked');

export type UserLink = 'merchantId' | 'partyId' | 'landlordId';

/**
 * The links each role needs (document 2, section 4): Cluster for merchant and landlord, Group for party
 * and station, Site for landlord (a site of the chosen cluster). Other roles have none; links a role does
 * not need are not kept.
 */
export const ROLE_LINKS: Record<AdminRole, readonly UserLink[]> = {
  admin: [],
  merchant: ['merchantId'],
  party: ['partyId'],
  landlord: ['merchantId', 'landlordId'],
  callcenter: [],
  station: ['partyId'],
  marketting: [],
};

/** Required, not whitespace only, a standard address (section 5); trimmed. */
export const userEmail = z
  .string({ error: USER_MESSAGES.email })
  .min(1, USER_MESSAGES.email)
  .refine((value) => value.trim().length > 0, USER_MESSAGES.emailBlank)
  .trim()
  .max(255, maxMessage(255))
  .pipe(z.email({ error: USER_MESSAGES.emailPattern }));

const requiredName = (required: string, blank: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .refine((value) => value.trim().length > 0, blank)
    .trim()
    .max(NAME_MAX, maxMessage(NAME_MAX));

/** Mobile users' optional names: left out keeps the saved one (PATCH), null or '' clears it. */
const optionalName = z.string().trim().max(NAME_MAX, maxMessage(NAME_MAX)).nullish();

export const TEL_MAX = 13;
/** Digits, with an optional leading '+'; '' or null clears it. */
export const userTel = z
  .string()
  .trim()
  .max(TEL_MAX, maxMessage(TEL_MAX))
  .regex(/^(\+?\d+)?$/, USER_MESSAGES.tel)
  .nullish();

const linkId = (message: string) => idSchema(message).nullish();

/**
 * The New/Edit Mobile User modal. Optional fields left out keep their value on PATCH and take the default
 * on POST: Type 'mobile', not verified, and Active off (section 4).
 */
export const mobileUserBody = z.strictObject({
  type: z.literal('mobile'),
  partnerUserType: z.enum(PARTNER_USER_TYPES).optional(),
  email: userEmail,
  emailVerified: z.boolean().optional(),
  firstName: optionalName,
  lastName: optionalName,
  tel: userTel,
  telVerified: z.boolean().optional(),
  active: z.boolean().optional(),
});
export type MobileUserBody = z.infer<typeof mobileUserBody>;

const adminUserFields = z.strictObject({
  type: z.literal('admin'),
  email: userEmail,
  firstName: requiredName(USER_MESSAGES.firstName, USER_MESSAGES.firstNameBlank),
  lastName: requiredName(USER_MESSAGES.lastName, USER_MESSAGES.lastNameBlank),
  adminRole: z.enum(ADMIN_ROLES, { error: USER_MESSAGES.adminRole }),
  merchantId: linkId(USER_MESSAGES.merchantId),
  partyId: linkId(USER_MESSAGES.partyId),
  landlordId: linkId(USER_MESSAGES.landlordId),
  /** Left out: active on POST, unchanged on PATCH. */
  active: z.boolean().optional(),
});

/**
 * The New/Edit Admin User modal. No password: a new admin user is mailed an invitation to set one. The role's
 * links are required (a merchant without a cluster is a 400); the server also checks they exist and that
 * the site is in the cluster.
 */
export const adminUserBody = adminUserFields.superRefine((body, ctx) => {
  for (const link of ROLE_LINKS[body.adminRole]) {
    if (body[link] == null) ctx.addIssue({ code: 'custom', path: [link], message: USER_MESSAGES[link] });
  }
});
export type AdminUserBody = z.infer<typeof adminUserBody>;

/** POST /api/user and PATCH /api/user/{id}: the form fields plus `type`. */
export const userBody = z.discriminatedUnion('type', [mobileUserBody, adminUserBody]);
export type UserBody = z.infer<typeof userBody>;
/** What the modals send, before trimming. */
export type UserForm = z.input<typeof userBody>;

export const USER_MOBILE_SORTS = [
  'partnerUserType',
  'name',
  'email',
  'emailVerified',
  'tel',
  'telVerified',
  'active',
] as const;
export const USER_ADMIN_SORTS = [
  'email',
  'name',
  'adminRole',
  'merchantNameEn',
  'partyNameEn',
  'landlordNameEn',
  'active',
] as const;

const textFilter = z.string().trim().max(255).optional();

/**
 * `admin=false`: mobile users, filtered by name, email, emailVerified, tel, telVerified, active and type
 * (mobile or ruejai). `admin=true`: admin users, filtered by email, repeated merchantId / partyId /
 * landlordId, adminRole and active. Text filters match a part, ignoring case.
 */
export const userListQuery = listQuery.extend({
  admin: z
    .enum(['true', 'false'], { error: 'admin must be true or false' })
    .transform((value) => value === 'true'),
  mode: z.enum(['xlsx']).optional(),
  name: textFilter,
  email: textFilter,
  emailVerified: booleanParam,
  tel: textFilter,
  telVerified: booleanParam,
  active: booleanParam,
  type: z.enum(PARTNER_USER_TYPES).optional(),
  merchantId: idListParam,
  partyId: idListParam,
  landlordId: idListParam,
  adminRole: z.enum(ADMIN_ROLES).optional(),
});
export type UserListQuery = z.infer<typeof userListQuery>;

/**
 * One row of either list. Admin users carry their role's links with names (a site user's cluster is its
 * site's); mobile users their Type (`partnerUserType`, 'mobile' when unset).
 */
export const userListItem = z
  .object({
    id: z.number().int(),
    type: z.enum(USER_TYPES),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    tel: z.string().nullable(),
    emailVerified: z.boolean(),
    telVerified: z.boolean(),
    active: z.boolean(),
    partnerUserType: z.enum(PARTNER_USER_TYPES).nullable(),
    adminRole: z.enum(ADMIN_ROLES).nullable(),
    merchantId: z.number().int().nullable(),
    partyId: z.number().int().nullable(),
    landlordId: z.number().int().nullable(),
    merchantNameEn: z.string().nullable(),
    partyNameEn: z.string().nullable(),
    landlordNameEn: z.string().nullable(),
  })
  .meta({ id: 'UserListItem' });
export type UserListItem = z.infer<typeof userListItem>;

export const userListResponse = z.object({ total: z.number().int(), users: z.array(userListItem) });
