import { z } from 'zod';
import { instantFrom2000, pathId } from './common.ts';

/**
 * A member's id tags (issue 32 §4): the app's own tag (made at the member's first sign-in, read-only) and the
 * RFID cards staff register in the Member Mobile User modal. Our own API: the spec is silent on id tags.
 * A tag is OCPP 1.6's IdToken, a CiString20: at most 20 printable ASCII characters, compared without regard to
 * case (docs/decisions.md, Id tags). It is stored as typed.
 */

export const ID_TAG_KINDS = ['app', 'rfid'] as const;
export type IdTagKind = (typeof ID_TAG_KINDS)[number];

export const ID_TAG_LIMITS = {
  /** OCPP 1.6 IdToken: CiString20Type. */
  length: 20,
  /** RFID cards one member may hold (the app tag not counted). */
  cardsPerMember: 10,
} as const;

export const ID_TAG_MESSAGES = {
  idTag: 'Id tag is required: 1 to 20 characters.',
  characters:
    'Id tag takes printable ASCII only (letters, digits, punctuation; OCPP CiString20), with no space at either end.',
  expiresAt: 'Expiry must be a date and time with its offset, e.g. 2027-01-31T23:59:59+07:00.',
  expiresAtPast: 'Expiry must be in the future.',
  blocked: 'Blocked must be true or false.',
  change: 'Send expiresAt or blocked (or both).',
  taken: 'This id tag is already registered (id tags are compared without regard to case).',
  tooMany: `A member holds at most ${ID_TAG_LIMITS.cardsPerMember} RFID cards: remove one first.`,
  notFound: 'Id tag not found',
  appTag:
    "The app's id tag belongs to the member's app: it can't be changed or removed here (lock the member to stop it).",
} as const;

/** Printable ASCII (0x20–0x7E), not starting or ending with a space. */
const PRINTABLE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** An id tag as typed: checked, never trimmed or re-cased. */
export const idTagValue = z
  .string({ error: ID_TAG_MESSAGES.idTag })
  .min(1, ID_TAG_MESSAGES.idTag)
  .max(ID_TAG_LIMITS.length, ID_TAG_MESSAGES.idTag)
  .regex(PRINTABLE, ID_TAG_MESSAGES.characters);

const expiresAt = instantFrom2000(ID_TAG_MESSAGES.expiresAt).nullable();
const blocked = z.boolean({ error: ID_TAG_MESSAGES.blocked });

/** POST /api/user/{id}/id-tag: a new RFID card (no expiry and not blocked unless said). */
export const idTagCreateBody = z.strictObject({
  idTag: idTagValue,
  expiresAt: expiresAt.optional(),
  blocked: blocked.optional(),
});
export type IdTagCreateBody = z.infer<typeof idTagCreateBody>;

/** PATCH /api/user/{id}/id-tag/{idTag}: a card's expiry (null: none) and block. */
export const idTagChangeBody = z
  .strictObject({ expiresAt: expiresAt.optional(), blocked: blocked.optional() })
  .refine((body) => body.expiresAt !== undefined || body.blocked !== undefined, ID_TAG_MESSAGES.change);
export type IdTagChangeBody = z.infer<typeof idTagChangeBody>;

/** `{ id, idTag }` path parameters; the tag is URL-encoded in the path. */
export const idTagParams = (userNotFound: string) =>
  z.object({
    id: pathId(userNotFound),
    idTag: z.string().min(1).max(200),
  });

/**
 * What a card alone says at a charger: Blocked, Expired (past its expiry) or Accepted. The member's own
 * state (locked, owing) is applied at the charger as well (docs/decisions.md).
 */
export const ID_TAG_STATES = ['Accepted', 'Blocked', 'Expired'] as const;

export const idTagItem = z
  .object({
    idTag: z.string(),
    kind: z.enum(ID_TAG_KINDS),
    expiresAt: z.string().nullable(),
    blocked: z.boolean(),
    state: z.enum(ID_TAG_STATES),
    createdAt: z.string(),
  })
  .meta({ id: 'IdTag' });
export type IdTagItem = z.infer<typeof idTagItem>;

export const idTagListResponse = z.object({ idTags: z.array(idTagItem) });
export const idTagResponse = z.object({ message: z.string(), idTag: idTagItem });

/** The card's own state at `now`. */
export function idTagState(tag: { blocked: boolean; expiresAt: Date | string | null }, now = Date.now()) {
  if (tag.blocked) return 'Blocked' as const;
  if (tag.expiresAt !== null && new Date(tag.expiresAt).getTime() <= now) return 'Expired' as const;
  return 'Accepted' as const;
}

/** The same tag for OCPP: CiString compares without regard to case. */
export const sameIdTag = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();

/**
 * The local authorization list of one charger (SendLocalList, GetLocalListVersion): our own API.
 * `status` is the charger's own word (Accepted, Failed, NotSupported, VersionMismatch).
 */
export const localListSendResponse = z.object({
  status: z.string(),
  /** The version the charger now holds from us (null: none accepted yet). */
  listVersion: z.number().int().nullable(),
  /** Id tags in the list sent, and in how many messages (Full, then Differential ones). */
  tags: z.number().int(),
  messages: z.number().int(),
});
export type LocalListSendResponse = z.infer<typeof localListSendResponse>;

export const localListVersionResponse = z.object({
  /** Accepted, or NotSupported when the charger answered GetLocalListVersion with a CALLERROR saying so. */
  status: z.string(),
  /** The charger's answer: its list's version, 0 for none, -1 for no local list support (OCPP 1.6). */
  listVersion: z.number().int().nullable(),
  /** The last version the charger accepted from us, and when. */
  sentVersion: z.number().int().nullable(),
  sentAt: z.string().nullable(),
});
export type LocalListVersionResponse = z.infer<typeof localListVersionResponse>;
