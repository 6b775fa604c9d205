import { z } from 'zod';
import { idSchema } from './common.ts';
import { activeBody, booleanParam, idListParam, idName, listQuery, maxMessage } from './list.ts';

export const PARTY_MESSAGES = {
  nameEn: 'Group Name (EN) is required.',
  nameEnBlank: 'Group Name (EN) is not whitespace',
  nameTh: 'Group Name (TH) is required.',
  nameThBlank: 'Group Name (TH) is not whitespace',
  landlordIds: 'Site Name is required.',
} as const;

const groupName = (required: string, blank: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .max(255, maxMessage(255))
    .refine((value) => value.trim().length > 0, blank)
    .trim();

/**
 * The Group Setting form (document 3, section 5). Its sites are chosen once, at creation. `active` left
 * out: active on POST, unchanged on PATCH. Any other key is a 400 naming it.
 */
export const partyBody = z.strictObject({
  nameEn: groupName(PARTY_MESSAGES.nameEn, PARTY_MESSAGES.nameEnBlank),
  nameTh: groupName(PARTY_MESSAGES.nameTh, PARTY_MESSAGES.nameThBlank),
  landlordIds: z
    .array(idSchema(), { error: PARTY_MESSAGES.landlordIds })
    .min(1, PARTY_MESSAGES.landlordIds)
    .max(1000),
  active: z.boolean().optional(),
});
export type PartyBody = z.infer<typeof partyBody>;
export type PartyForm = z.input<typeof partyBody>;
export const partyPatchBody = z.union([activeBody, partyBody]);
export type PartyPatchBody = z.infer<typeof partyPatchBody>;

export const PARTY_SORTS = ['id', 'nameEn', 'nameTh', 'active'] as const;

export const partyListQuery = listQuery.extend({
  mode: z.enum(['dropdown']).optional(),
  landlordId: idListParam,
  active: booleanParam,
});
export type PartyListQuery = z.infer<typeof partyListQuery>;

export const party = z
  .object({
    id: z.number().int(),
    nameEn: z.string(),
    nameTh: z.string(),
    active: z.boolean(),
    landlordIds: z.array(z.number().int()),
    landlordNameEns: z.array(z.string()),
  })
  .meta({ id: 'Party' });
export type Party = z.infer<typeof party>;

export const partyListResponse = z.union([
  z.object({ total: z.number().int(), partys: z.array(party) }),
  z.object({ partys: z.array(idName) }),
]);
export const partyResponse = z.object({ party });
