/**
 * The server's power manager (issue 34 §2; docs/decisions.md, "Power within a site's limit"): decides when a
 * site's limit is shared again and tells the chargers. Events come from the chargers (power-charger-events.ts) and
 * from staff editing a site or a charger (`siteChanged`, `chargerChanged`); each names a site, whose
 * recomputes run one at a time in this process, a burst of events making one more run, not one each
 * (`schedule`). Across processes the site's row lock orders them (site-decision.ts). Power work never fails
 * a charger's call or an API write: it runs after them, and its failures are logged.
 */

import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { ROUTE_MARGIN_MS } from '../../cluster/bus.ts';
import type { Db } from '../../db/client.ts';
import { chargers, chargingSessions, connectors, landlords, powerAllowances } from '../../db/schema/index.ts';
import { type ChargerCommands, clearChargingProfile, setChargingProfile } from '../../ocpp/commands.ts';
import { ChargerSites, concernsPower } from './charger-sites.ts';
import { refreshDefault } from './default-profile.ts';
import { isRefusal, profileAnswer, txProfile, txProfileId } from './power-profiles.ts';
import { PowerWork } from './power-work.ts';
import { decideSite, type ProfileToClear, type ProfileToSend } from './site-decision.ts';

/** What staff edits tell the power manager (Services.power): each returns at once. */
export interface PowerNotices {
  /** A site's limit, phases or voltage may have changed (the Site Setting was saved). */
  siteChanged(landlordId: number): void;
  /** A charger was created or saved: its limit, its site or its connectors may have changed. */
  chargerChanged(chargerId: string): void;
}

/** How long a stopping server waits for the power work under way. */
export const POWER_CLOSE_MS = 5000;
/** Beyond a command's timeout and its hop across the cluster, before an unanswered profile is sent again. */
const LOST_MARGIN_MS = 5000;

export interface PowerOptions {
  /** How long a charger is given to answer a command (OCPP_COMMAND_TIMEOUT_MS). */
  commandTimeoutMs: number;
  /** The lookup of chargers at limited sites, shared with the live load's recorder (one is made if absent). */
  sites?: ChargerSites;
}

export class PowerManager implements PowerNotices {
  /** Sites being recomputed here; `again`: an event came meanwhile, one more run follows. */
  private readonly running = new Map<number, { again: boolean }>();
  private readonly work: PowerWork;
  /** Whether each connector's car was last heard suspended (SuspendedEV), by charger and connector number. */
  private readonly suspended = new Map<string, boolean>();
  readonly sites: ChargerSites;
  /** A profile unanswered this long was lost (its sender stopped): longer than any command may take. */
  private readonly lostAfterMs: number;
  /** Recomputes run so far (the tests and the benchmark read how few a burst makes). */
  recomputes = 0;

  constructor(
    private readonly db: Db,
    private readonly commands: ChargerCommands,
    private readonly log: FastifyBaseLogger,
    options: PowerOptions,
  ) {
    this.sites = options.sites ?? new ChargerSites(db);
    this.work = new PowerWork(log);
    this.lostAfterMs = options.commandTimeoutMs + ROUTE_MARGIN_MS + LOST_MARGIN_MS;
  }

  private track(what: string, task: () => Promise<void>): void {
    this.work.run(what, task);
  }

  /** Shares the site's limit again soon: at once when idle, else once more after the run under way. */
  schedule(landlordId: number): void {
    if (this.work.stopping) return;
    const running = this.running.get(landlordId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: true };
    this.running.set(landlordId, state);
    this.track(`recomputing site ${landlordId}`, async () => {
      try {
        while (state.again && !this.work.stopping) {
          state.again = false;
          await this.recompute(landlordId).catch((error: unknown) =>
            this.log.error({ err: error, landlordId }, 'power: recomputing a site failed'),
          );
        }
      } finally {
        this.running.delete(landlordId);
      }
    });
  }

  private async recompute(landlordId: number): Promise<void> {
    this.recomputes++;
    const decision = await decideSite(this.db, landlordId, { lostAfterMs: this.lostAfterMs });
    // Committed: now the chargers are told, each on its own (one slow charger holds nobody up).
    for (const profile of decision.send)
      this.track(`sending a profile to ${profile.chargerId}`, () => this.send(profile));
    for (const profile of decision.clear)
      this.track(`clearing a profile of ${profile.chargerId}`, () => this.clear(profile));
  }

  /** Sends a session's TxProfile and records the answer, if the decision it carries still stands. */
  private async send(profile: ProfileToSend): Promise<void> {
    const outcome = await setChargingProfile(
      this.commands,
      profile.chargerId,
      profile.ocppConnectorId,
      txProfile(profile.ocppConnectorId, profile.sessionId, profile.allowanceW, profile.unit),
    );
    const status = profileAnswer(outcome);
    const recorded = await this.db
      .update(powerAllowances)
      .set({ profileStatus: status, answeredAt: new Date() })
      .where(
        and(
          eq(powerAllowances.connectorId, profile.connectorId),
          eq(powerAllowances.chargingSessionId, profile.sessionId),
          eq(powerAllowances.decidedAt, profile.decidedAt),
        ),
      )
      .returning({ connectorId: powerAllowances.connectorId });
    if (recorded.length === 0 || !isRefusal(status)) return;
    // Counted at its full power from now on: the others are shared again, once (a refusal is not sent again).
    this.log.warn(
      { chargerId: profile.chargerId, connectorId: profile.ocppConnectorId, status },
      'power: the charger refused its charging profile; counted at full power',
    );
    this.schedule(profile.landlordId);
  }

  private async clear({ chargerId, ocppConnectorId }: ProfileToClear): Promise<void> {
    const outcome = await clearChargingProfile(this.commands, chargerId, {
      id: txProfileId(ocppConnectorId),
    });
    if (outcome.status !== 'answered')
      this.log.info({ chargerId, outcome: profileAnswer(outcome) }, 'power: clearing a TxProfile');
  }

  /** A session started or stopped on the charger. */
  sessionsChanged(chargerId: string): void {
    this.track(`a session change on ${chargerId}`, async () => {
      const site = await this.sites.of(chargerId);
      if (site?.limited) this.schedule(site.landlordId);
    });
  }

  /**
   * A connector's car suspended charging (SuspendedEV) or charges again: it can use nothing meanwhile, so the
   * others get its share above its minimum. Only a turn counts: a 2.0.1 charger repeats its charging state.
   */
  chargingState(chargerId: string, ocppConnectorId: number, state: string): void {
    if (state !== 'SuspendedEV' && state !== 'Charging') return;
    const key = `${chargerId}\u0000${ocppConnectorId}`;
    const suspended = state === 'SuspendedEV';
    if (this.suspended.get(key) === suspended) return;
    this.suspended.set(key, suspended);
    this.track(`a charging state on ${chargerId}`, async () => {
      const site = await this.sites.of(chargerId);
      if (!site?.limited) return;
      // A 2.0.1 session has it from its TransactionEvent already; a 1.6 one learns it from the connector.
      await this.db
        .update(chargingSessions)
        .set({ chargingState: state })
        .where(
          and(
            eq(chargingSessions.chargerId, chargerId),
            eq(chargingSessions.ocppConnectorId, ocppConnectorId),
            eq(chargingSessions.status, 'ACTIVE'),
            isNull(chargingSessions.transactionRef),
          ),
        );
      this.schedule(site.landlordId);
    });
  }

  /** A new session on the connector: its car's state is not the last one's. */
  sessionStarting(chargerId: string, ocppConnectorId: number): void {
    this.suspended.delete(`${chargerId}\u0000${ocppConnectorId}`);
  }

  /**
   * The charger connected: it counts at its full power no more, and every profile of its sessions is sent
   * again (one it refused too: it may have been restarted or reconfigured); its default profile if it missed
   * one (default-profile.ts).
   */
  connected(chargerId: string, stored: () => Promise<void>): void {
    this.track(`${chargerId} connecting`, async () => {
      const site = await this.sites.of(chargerId);
      if (!concernsPower(site)) return;
      await stored();
      if (site.limited) {
        // Under the site's lock, as a decision is written (site-decision.ts): the two never cross.
        await this.db.transaction(async (tx) => {
          await tx
            .select({ id: landlords.id })
            .from(landlords)
            .where(eq(landlords.id, site.landlordId))
            .for('update');
          await tx
            .update(powerAllowances)
            .set({ profileStatus: 'Offline' })
            .where(
              inArray(
                powerAllowances.connectorId,
                tx.select({ id: connectors.id }).from(connectors).where(eq(connectors.chargerId, chargerId)),
              ),
            );
        });
        this.schedule(site.landlordId);
      }
      await refreshDefault(this.db, this.commands, chargerId, { onlyIfMissed: true });
    });
  }

  /** The charger went away: its sessions count at their full power until it is back. */
  disconnected(chargerId: string, stored: () => Promise<void>): void {
    this.track(`${chargerId} disconnecting`, async () => {
      const site = await this.sites.of(chargerId);
      if (!site?.limited) return;
      await stored();
      this.schedule(site.landlordId);
    });
  }

  /** The charger booted: it gets its safe default (what it keeps should it lose us). */
  booted(chargerId: string): void {
    this.track(`the default profile of ${chargerId}`, async () => {
      if (concernsPower(await this.sites.of(chargerId)))
        await refreshDefault(this.db, this.commands, chargerId, { onlyIfMissed: false });
    });
  }

  siteChanged(landlordId: number): void {
    this.sites.changed();
    this.schedule(landlordId);
    this.track(`the default profiles of site ${landlordId}`, () => this.refreshSiteDefaults(landlordId));
  }

  chargerChanged(chargerId: string): void {
    this.sites.changed();
    this.track(`a change of charger ${chargerId}`, async () => {
      const [charger] = await this.db
        .select({ landlordId: chargers.landlordId })
        .from(chargers)
        .where(eq(chargers.id, chargerId));
      // Its site, and one it left whose allowances still hold its connectors.
      const left = await this.db
        .selectDistinct({ landlordId: powerAllowances.landlordId })
        .from(powerAllowances)
        .innerJoin(connectors, eq(connectors.id, powerAllowances.connectorId))
        .where(eq(connectors.chargerId, chargerId));
      const sites = new Set([...left.map((row) => row.landlordId), ...(charger ? [charger.landlordId] : [])]);
      for (const site of sites) this.schedule(site);
      if (!charger) return;
      // One more connector (or one fewer) changes every charger's share of a limited site: all get theirs
      // again. At a site without a limit, only this one may hold ours (it came from a limited site).
      const site = await this.sites.of(chargerId);
      if (site?.limited) await this.refreshSiteDefaults(charger.landlordId);
      else await refreshDefault(this.db, this.commands, chargerId, { onlyIfMissed: false });
    });
  }

  /**
   * Every charger of the site gets its default profile again, or, the site having no limit, ours is taken back
   * from those that may hold it.
   */
  private async refreshSiteDefaults(landlordId: number): Promise<void> {
    const [site] = await this.db
      .select({ maxPowerKw: landlords.maxPowerKw })
      .from(landlords)
      .where(eq(landlords.id, landlordId));
    if (!site) return;
    const ids = await this.db
      .select({ id: chargers.id })
      .from(chargers)
      .where(
        and(
          eq(chargers.landlordId, landlordId),
          site.maxPowerKw === null ? isNotNull(chargers.defaultProfileStatus) : undefined,
        ),
      );
    await Promise.all(
      ids.map(({ id }) =>
        refreshDefault(this.db, this.commands, id, { onlyIfMissed: false }).catch((error: unknown) =>
          this.log.error({ err: error, chargerId: id }, 'power: sending a default profile failed'),
        ),
      ),
    );
  }

  /** Resolves once the power work running now has ended (or after `withinMs`). */
  settled(withinMs?: number): Promise<void> {
    return this.work.settled(withinMs);
  }

  /** No new work from now on (the server is stopping); what runs is awaited by `settled`. */
  stop(): void {
    this.work.stop();
  }
}
