/**
 * The demo's alerts (issue 36 §2; docs/alerts.md, The demo): one demo charger faults now and then and recovers,
 * and the demo's 'Charger faulted' threshold is 1 minute (a production default is 10), so the bell rings
 * within about two minutes of a fresh `npm start`.
 */
import { alertSettings } from '@ev/server/db/schema/index';
import type { DemoPlaces, DemoTx } from './demo-data.ts';
import type { ChargerCore } from './simulator.ts';

/**
 * The charger that faults: a highway charger no browser test uses (e2e/fixtures name the ones they drive).
 */
export const DEMO_FAULT_CHARGER = 'TH-TW-HUAHIN-01';
/** The demo's threshold of 'Charger faulted' (minutes). */
export const DEMO_FAULTED_THRESHOLD_MIN = 1;

export interface DemoFaultTiming {
  /** After the start, the first fault. */
  firstMs: number;
  /** How long each fault lasts before the charger reports Available again. */
  lastsMs: number;
  /** From one recovery to the next fault. */
  everyMs: number;
}
/** 30 s after the start, for 3 minutes; then every 20 minutes. */
export const DEMO_FAULT_TIMING: DemoFaultTiming = {
  firstMs: 30_000,
  lastsMs: 3 * 60_000,
  everyMs: 20 * 60_000,
};

/** The demo's alert settings: 'Charger faulted' after 1 minute (a demo-only row; docs/alerts.md). */
export async function loadDemoAlerts(tx: DemoTx, _places: DemoPlaces): Promise<string> {
  await tx
    .insert(alertSettings)
    .values({ condition: 'charger-faulted', thresholdMin: DEMO_FAULTED_THRESHOLD_MIN, enabled: true })
    .onConflictDoNothing();
  return `'Charger faulted' alerts after ${DEMO_FAULTED_THRESHOLD_MIN} minute`;
}

/**
 * Makes the demo's fault charger report connector 1 Faulted (GroundFailure) on `timing`, then Available. The
 * connector is held meanwhile (`reserve`), so neither the random activity nor a demo member uses it; a
 * connector busy at the time (a session) is tried again 30 s later. Answers how to stop.
 */
export function startDemoFaults(
  chargers: readonly ChargerCore[],
  log: (message: string) => void,
  timing: DemoFaultTiming = DEMO_FAULT_TIMING,
  chargerId = DEMO_FAULT_CHARGER,
): { stop: () => void } {
  const charger = chargers.find((c) => c.spec.id === chargerId);
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const later = (work: () => Promise<void>, ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      work().catch((error: unknown) => log(`demo fault of ${chargerId}: ${String(error)}`));
    }, ms);
    timer.unref();
  };
  const fault = async (): Promise<void> => {
    if (!charger?.connected || !charger.reserve(1)) {
      later(fault, 30_000);
      return;
    }
    await charger.setStatus(1, 'Faulted', 'GroundFailure');
    later(recover, timing.lastsMs);
  };
  const recover = async (): Promise<void> => {
    if (!charger) return;
    try {
      await charger.setStatus(1, 'Available');
    } catch {
      // Away meanwhile: it reports Available when it boots again.
      charger.connectorStates[0]!.status = 'Available';
    } finally {
      charger.release(1);
      later(fault, timing.everyMs);
    }
  };
  if (charger) later(fault, timing.firstMs);
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
