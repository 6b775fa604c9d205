/**
 * The local authorization list of a charger (issue 32 §4): the id tags it may accept while it cannot ask us,
 * with each tag's IdTagInfo (docs/decisions.md, Local authorization list).
 * - A private station's chargers: its site's members only; elsewhere every member's.
 * - Accepted: a member whose account is active and who owes nothing, with a card's expiry and parent (the
 *   member's app tag, so a card may take up the member's reservation).
 * - Blocked: a blocked card, or any tag of a locked member: sent, so the charger's list overrides an Accepted
 *   its authorization cache may still hold. Expired: a card past its expiry, likewise.
 * - Left out: the tags of a member with an Unpaid booking. That state ends the moment they pay in the app; a
 *   Blocked entry would refuse them offline until the next list, while left out they are asked of us online
 *   (and, unknown offline, refused unless the charger allows unknown tags offline).
 */
import { idTagState } from '@ev/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { bookings, idTags, users } from '../../db/schema/index.ts';
import type { LocalListEntry } from '../../ocpp/commands.ts';
import { privateSiteOfCharger, siteMemberIds } from '../promotion/private-station.ts';

const appTags = alias(idTags, 'app_tags');

export async function localListEntries(
  db: Db,
  chargerId: string,
  now = Date.now(),
): Promise<LocalListEntry[]> {
  const site = await privateSiteOfCharger(db, chargerId);
  const owing = sql<boolean>`exists (select 1 from ${bookings} where ${bookings.userId} = ${idTags.userId}
    and ${bookings.status} = 'stopped' and ${bookings.deletedAt} is null)`;
  const rows = await db
    .select({
      idTag: idTags.idTag,
      kind: idTags.kind,
      blocked: idTags.blocked,
      expiresAt: idTags.expiresAt,
      active: users.active,
      parent: appTags.idTag,
      owing,
    })
    .from(idTags)
    .innerJoin(users, eq(users.id, idTags.userId))
    .leftJoin(appTags, and(eq(appTags.userId, idTags.userId), eq(appTags.kind, 'app')))
    .where(
      and(
        eq(users.type, 'mobile'),
        site === null ? undefined : inArray(idTags.userId, siteMemberIds(db, site)),
      ),
    )
    .orderBy(asc(idTags.idTag));
  const entries: LocalListEntry[] = [];
  for (const row of rows) {
    const state = row.active ? idTagState(row, now) : 'Blocked';
    if (state === 'Accepted' && row.owing) continue;
    const expiryDate = row.expiresAt?.toISOString();
    const parentIdTag = state === 'Accepted' && row.kind === 'rfid' ? (row.parent ?? undefined) : undefined;
    entries.push({
      idTag: row.idTag,
      idTagInfo: {
        status: state,
        ...(expiryDate ? { expiryDate } : {}),
        ...(parentIdTag ? { parentIdTag } : {}),
      },
    });
  }
  return entries;
}
