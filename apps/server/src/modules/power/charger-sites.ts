/**
 * Which chargers' events concern the power sharing: those of a site with a limit, and those that may still
 * hold our default profile. Every connection, boot and session event asks; the questions of a burst (10,000
 * chargers reconnecting at once) share one query, as admissions do (ocpp/store.ts), so a network without
 * limits pays one query per burst and nothing more.
 */
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chargers, landlords } from '../../db/schema/index.ts';

export interface ChargerSite {
  landlordId: number;
  /** The site has a power limit. */
  limited: boolean;
  /** The answer to our last default profile (null: none of ours is on the charger). */
  defaultProfileStatus: string | null;
}

/** How long a question waits for others to share its query. */
const WINDOW_MS = 10;
const CHUNK = 1000;

export class ChargerSites {
  private waiting: Array<{
    chargerId: string;
    resolve: (site: ChargerSite | null) => void;
    reject: (error: unknown) => void;
  }> = [];

  constructor(private readonly db: Db) {}

  /** The charger's site, or null for a charger that does not exist. */
  of(chargerId: string): Promise<ChargerSite | null> {
    return new Promise((resolve, reject) => {
      if (this.waiting.push({ chargerId, resolve, reject }) === 1)
        setTimeout(() => void this.answer(), WINDOW_MS);
    });
  }

  private async answer(): Promise<void> {
    const waiting = this.waiting;
    this.waiting = [];
    for (let i = 0; i < waiting.length; i += CHUNK) {
      const batch = waiting.slice(i, i + CHUNK);
      try {
        const rows = await this.db
          .select({
            id: chargers.id,
            landlordId: chargers.landlordId,
            maxPowerKw: landlords.maxPowerKw,
            defaultProfileStatus: chargers.defaultProfileStatus,
          })
          .from(chargers)
          .innerJoin(landlords, eq(landlords.id, chargers.landlordId))
          .where(inArray(chargers.id, [...new Set(batch.map((w) => w.chargerId))]));
        const found = new Map(rows.map((row) => [row.id, row]));
        for (const w of batch) {
          const row = found.get(w.chargerId);
          w.resolve(
            row
              ? {
                  landlordId: row.landlordId,
                  limited: row.maxPowerKw !== null,
                  defaultProfileStatus: row.defaultProfileStatus,
                }
              : null,
          );
        }
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
  }
}

/** Whether the charger's events matter to the power sharing at all. */
export const concernsPower = (site: ChargerSite | null): site is ChargerSite =>
  site !== null && (site.limited || site.defaultProfileStatus !== null);
