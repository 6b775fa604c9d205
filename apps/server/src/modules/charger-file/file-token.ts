/**
 * One-time URLs a charger uses without a session (docs/decisions.md, Firmware and diagnostics):
 *   <APP_URL>/ocpp-files/firmware/<token>/<file name>   UpdateFirmware's location (GET)
 *   <APP_URL>/ocpp-files/diagnostics/<token>            GetDiagnostics' location (PUT or POST multipart)
 * The token is 256 random bits; only its hash is stored (charger_file_tokens), with an expiry.
 * - A firmware link serves its file as often as the charger asks (OCPP lets it retry a failed download)
 *   until the charger reports it has the file (Downloaded or a later step) or the link expires.
 * - A diagnostics link takes one upload: a sender claims it for the upload's time (a second sender meanwhile
 *   gets 409), an upload that fails gives it back for the charger's retry, and one that succeeds ends it.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chargerFiles, chargerFileTokens } from '../../db/schema/index.ts';
import { AppError, Conflict, NotFound } from '../../lib/errors.ts';
import { hashToken } from '../../lib/tokens.ts';

/** A firmware link lives until the retrieve date plus a day (plus the charger's retries, at most a week). */
export const FIRMWARE_LINK_MS = 24 * 3600_000;
/** A diagnostics link lives an hour (plus the charger's retries, at most a week). */
export const DIAGNOSTICS_LINK_MS = 3600_000;
const RETRIES_CAP_MS = 7 * 24 * 3600_000;
/** A claim older than this was an upload cut off with its process: the link may be claimed again. */
const CLAIM_MS = 15 * 60_000;

export const LINK_MESSAGES = {
  unknown: 'Not found',
  expired: 'This link has expired.',
  used: 'This link was used already.',
  busy: 'An upload with this link is under way.',
} as const;

/** A token's form: 43 base64url characters (lib/tokens.ts); anything else is never looked up. */
const TOKEN_FORM = /^[A-Za-z0-9_-]{43}$/;

/** How long the charger's own retries may add to a link's life. */
export const retriesMs = (retries = 0, retryIntervalS = 0) =>
  Math.min(RETRIES_CAP_MS, retries * retryIntervalS * 1000);

export const firmwareLink = (appUrl: string, token: string, fileName: string) =>
  `${appUrl}/ocpp-files/firmware/${token}/${encodeURIComponent(fileName)}`;
export const diagnosticsLink = (appUrl: string, token: string) => `${appUrl}/ocpp-files/diagnostics/${token}`;

/** Why a link no longer works: 404 unknown, 410 expired or used. */
async function refusal(db: Db, tokenHash: string, purpose: string): Promise<AppError> {
  const [row] = await db
    .select({
      expired: sql<boolean>`${chargerFileTokens.expiresAt} <= now()`,
      usedAt: chargerFileTokens.usedAt,
      fileId: chargerFileTokens.fileId,
    })
    .from(chargerFileTokens)
    .where(and(eq(chargerFileTokens.tokenHash, tokenHash), eq(chargerFileTokens.purpose, purpose as never)));
  if (!row) return new NotFound(LINK_MESSAGES.unknown);
  if (row.expired) return new AppError(410, LINK_MESSAGES.expired);
  if (purpose === 'diagnostics-upload' && row.fileId === null) return new Conflict(LINK_MESSAGES.busy);
  return new AppError(410, LINK_MESSAGES.used);
}

/** The firmware file a download link serves, or 404/410. */
export async function firmwareOfLink(
  db: Db,
  token: string,
): Promise<{ fileId: number; name: string; size: number; chargerId: string }> {
  if (!TOKEN_FORM.test(token)) throw new NotFound(LINK_MESSAGES.unknown);
  const tokenHash = hashToken(token);
  const [row] = await db
    .select({
      fileId: chargerFiles.id,
      name: chargerFiles.name,
      size: chargerFiles.size,
      chargerId: chargerFileTokens.chargerId,
    })
    .from(chargerFileTokens)
    .innerJoin(chargerFiles, eq(chargerFiles.id, chargerFileTokens.fileId))
    .where(
      and(
        eq(chargerFileTokens.tokenHash, tokenHash),
        eq(chargerFileTokens.purpose, 'firmware-download'),
        sql`${chargerFileTokens.expiresAt} > now()`,
        isNull(chargerFileTokens.usedAt),
        eq(chargerFiles.complete, true),
      ),
    );
  if (!row) throw await refusal(db, tokenHash, 'firmware-download');
  return row;
}

export interface UploadClaim {
  tokenHash: string;
  chargerId: string;
  /** The token's creation, which is its request's `requested_at` (written together). */
  createdAt: Date;
}

/** Claims a diagnostics link for one upload, or 404 (unknown), 410 (expired, used), 409 (another under way). */
export async function claimUploadLink(db: Db, token: string): Promise<UploadClaim> {
  if (!TOKEN_FORM.test(token)) throw new NotFound(LINK_MESSAGES.unknown);
  const tokenHash = hashToken(token);
  const [row] = await db
    .update(chargerFileTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(chargerFileTokens.tokenHash, tokenHash),
        eq(chargerFileTokens.purpose, 'diagnostics-upload'),
        sql`${chargerFileTokens.expiresAt} > now()`,
        isNull(chargerFileTokens.fileId),
        sql`(${chargerFileTokens.usedAt} is null or ${chargerFileTokens.usedAt} < now() - ${`${CLAIM_MS / 1000} seconds`}::interval)`,
      ),
    )
    .returning({ chargerId: chargerFileTokens.chargerId, createdAt: chargerFileTokens.createdAt });
  if (!row) throw await refusal(db, tokenHash, 'diagnostics-upload');
  return { tokenHash, ...row };
}

/** The upload is stored: the link is used for good. */
export async function finishUploadLink(db: Db, claim: UploadClaim, fileId: number): Promise<void> {
  await db
    .update(chargerFileTokens)
    .set({ fileId, usedAt: sql`now()` })
    .where(eq(chargerFileTokens.tokenHash, claim.tokenHash));
}

/** The upload failed: the charger may try again with the same link (while it lives). */
export async function releaseUploadLink(db: Db, claim: UploadClaim): Promise<void> {
  await db
    .update(chargerFileTokens)
    .set({ usedAt: null })
    .where(and(eq(chargerFileTokens.tokenHash, claim.tokenHash), isNull(chargerFileTokens.fileId)));
}
