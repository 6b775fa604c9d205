/**
 * Which chargers stand at a site with a power limit: the one lookup of the power sharing and the live load.
 * - `of(chargerId)`: exact, for the power manager. Which chargers' events concern the sharing: those of a site
 *   with a limit, and those that may still hold our default profile. Every connection, boot and session event
 *   asks; the questions of a burst (10,000 chargers reconnecting at once) share one query, as admissions do
 *   (ocpp/store.ts), so a network without limits pays one query per burst and nothing more.
 * - `limitedChargers()` and `knownUnlimited(chargerId)`: a snapshot of every charger, trusted CACHE_TTL_MS or
 *   until `changed()`, for the live load's recorder (power-samples.ts), which asks at every meter reading and
 *   checks the limit again when it writes, so a stale snapshot costs nothing but a dropped or re-checked row.
 *   The power manager calls `changed()` when staff save a site or a charger (this process at once; another
 *   process within CACHE_TTL_MS).
 */
import { eq, inArray, isNotNull } from 'drizzle-orm';
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
/** How long the snapshot of chargers at limited sites is trusted before it is read again. */
export const CACHE_TTL_MS = 30_000;

export class ChargerSites {
  private waiting: Array<{
    chargerId: string;
    resolve: (site: ChargerSite | null) => void;
    reject: (error: unknown) => void;
  }> = [];

  /** Charger id -> whether its site has a limit; read when stale. */
  private snapshot: Map<string, boolean> | null = null;
  private loadedAt = 0;
  private generation = 0;
  private loadedGeneration = -1;

  constructor(
    private readonly db: Db,
    private readonly cacheTtlMs = CACHE_TTL_MS,
  ) {}

  /** A site's limit or a charger's site may have changed: the snapshot is read again before its next use. */
  changed(): void {
    this.generation++;
  }

  /** True only when a fresh snapshot says the charger stands at a site without a limit (cheap, no query). */
  knownUnlimited(chargerId: string): boolean {
    return this.fresh() && this.snapshot?.get(chargerId) === false;
  }

  /** Whether each charger stands at a site with a limit, from the snapshot while it is fresh. */
  async limitedChargers(): Promise<Map<string, boolean>> {
    if (this.snapshot && this.fresh()) return this.snapshot;
    const generation = this.generation;
    const rows = await this.db
      .select({ id: chargers.id, limited: isNotNull(landlords.maxPowerKw) })
      .from(chargers)
      .innerJoin(landlords, eq(landlords.id, chargers.landlordId));
    this.snapshot = new Map(rows.map((row) => [row.id, Boolean(row.limited)]));
    this.loadedAt = Date.now();
    this.loadedGeneration = generation;
    return this.snapshot;
  }

  private fresh(): boolean {
    return (
      this.snapshot !== null &&
      this.loadedGeneration === this.generation &&
      Date.now() - this.loadedAt < this.cacheTtlMs
    );
  }

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
