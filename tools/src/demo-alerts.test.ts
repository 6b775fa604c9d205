import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '@ev/server/db/client';
import { alertSettings, chargers, connectors } from '@ev/server/db/schema/index';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_FAULT_CHARGER, DEMO_FAULTED_THRESHOLD_MIN, startDemoFaults } from './demo-alerts.ts';
import { loadDemoData } from './demo-data.ts';
import type { ChargerCore } from './simulator.ts';

const e2eDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../e2e');

describe('the demo alerts', () => {
  it('fault an active demo charger no browser test names, with a 1-minute threshold', async () => {
    const database = await openDatabase({});
    try {
      await loadDemoData(database.db);
      const [charger] = await database.db.select().from(chargers).where(eq(chargers.id, DEMO_FAULT_CHARGER));
      expect(charger?.active).toBe(true);
      expect(
        (await database.db.select().from(connectors).where(eq(connectors.chargerId, DEMO_FAULT_CHARGER)))
          .length,
      ).toBeGreaterThan(0);
      expect(await database.db.select().from(alertSettings)).toMatchObject([
        { condition: 'charger-faulted', thresholdMin: DEMO_FAULTED_THRESHOLD_MIN, enabled: true },
      ]);
    } finally {
      await database.close();
    }
    const files = fs
      .readdirSync(e2eDir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'));
    const naming = files.filter((file) =>
      fs.readFileSync(path.join(e2eDir, file), 'utf8').includes(DEMO_FAULT_CHARGER),
    );
    expect(naming).toEqual([]);
  }, 60_000);
});

describe('startDemoFaults', () => {
  afterEach(() => vi.useRealTimers());

  it('faults connector 1 on time, holds it meanwhile, recovers, and waits for a busy connector', async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    let free = false;
    const charger = {
      spec: { id: 'F-1' },
      connected: true,
      connectorStates: [{ status: 'Available' }],
      reserve: (n: number) => {
        calls.push(`reserve ${n} ${free ? 'yes' : 'no'}`);
        return free;
      },
      release: (n: number) => calls.push(`release ${n}`),
      setStatus: async (n: number, status: string, code?: string) =>
        calls.push(`status ${n} ${status}${code ? ` ${code}` : ''}`),
    } as unknown as ChargerCore;
    const faults = startDemoFaults(
      [charger],
      () => undefined,
      { firstMs: 1000, lastsMs: 5000, everyMs: 60_000 },
      'F-1',
    );
    await vi.advanceTimersByTimeAsync(1000);
    // Busy (a session): tried again 30 s later.
    expect(calls).toEqual(['reserve 1 no']);
    free = true;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls.slice(1)).toEqual(['reserve 1 yes', 'status 1 Faulted GroundFailure']);
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls.slice(3)).toEqual(['status 1 Available', 'release 1']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.slice(5)).toEqual(['reserve 1 yes', 'status 1 Faulted GroundFailure']);
    faults.stop();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(calls).toHaveLength(7);
  });
});
