import { z } from 'zod';
import { ADMIN_ROLES } from '../enums.ts';
import { idSchema } from './common.ts';
import { changePasswordValue, currentPasswordValue } from './password.ts';

export const NAME_MAX = 50;

/** The signed-in user, as GET /api/user/self returns it. */
export const selfUser = z
  .object({
    id: z.number().int(),
    avatar: z.string().nullable(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    tel: z.string().nullable(),
    point: z.number(),
    adminRole: z.enum(ADMIN_ROLES),
    /** True when the user has accepted the terms and privacy pages in force now. */
    termAccept: z.boolean(),
  })
  .meta({ id: 'SelfUser' });
export type SelfUser = z.infer<typeof selfUser>;

export const selfResponse = z.object({ user: selfUser });

const nameValue = z.string().trim().max(NAME_MAX, `Please enter no more than ${NAME_MAX} characters.`);

export const updateNameBody = z.strictObject({
  firstName: nameValue,
  lastName: nameValue,
});
export const changePasswordBody = z.strictObject({
  currentPass: currentPasswordValue,
  pass: changePasswordValue,
});
/** PATCH /api/user/self takes either the name change or the password change. */
export const updateSelfBody = z.union([updateNameBody, changePasswordBody]);
export type UpdateSelfBody = z.infer<typeof updateSelfBody>;

/** Terms acceptance: the ids of the terms and privacy pages the user read and accepted. */
export const termAcceptBody = z.strictObject({
  termsId: idSchema().nullable(),
  privacyId: idSchema().nullable(),
});
export type TermAcceptBody = z.infer<typeof termAcceptBody>;
export const termAcceptResponse = z.object({ message: z.literal('Success'), termAccept: z.boolean() });
