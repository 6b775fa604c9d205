import { parseSse } from '@ev/shared';
import { type SimulatedChargerSpec, type SimulatorOptions, simulateChargers } from '@ev/tools/simulator';
import { RPCClient } from '../../src/ocpp/rpc.ts';
import { createChargerBrand, createLandlord, createMerchant, createPrice } from './factories.ts';
import type { TestApp } from './test-app.ts';

/** ws:// URL of the test server's OCPP endpoint. */
export const ocppUrl = (t: TestApp) => `${t.url.replace(/^http/, 'ws')}/ocpp`;

/**
 * A bare OCPP 2.0.1 client of the test server (not our simulator): every frame it sends and receives is checked
 * against the official 2.0.1 schemas (strict mode), not yet connected and never reconnecting.
 */
export const rpcClient201 = (t: TestApp, identity: string, protocols = ['ocpp2.0.1']) =>
  new RPCClient({ endpoint: ocppUrl(t), identity, protocols, strictMode: true, reconnect: false } as never);

/** A bare OCPP 1.6 client of the test server, not yet connected and never reconnecting. */
export const rpcClient = (t: TestApp, identity: string) =>
  new RPCClient({ endpoint: ocppUrl(t), identity, protocols: ['ocpp1.6'], reconnect: false } as never);

/** A site with a DC brand and a price: what chargers created through the API need. */
export async function chargerPlace(t: TestApp) {
  const merchant = await createMerchant(t);
  const site = await createLandlord(t, merchant.id);
  const brand = await createChargerBrand(t, { powerType: 'DC' });
  const price = await createPrice(t);
  return { merchant, site, brand, price };
}

let nextConnectorId = 700_000;

/** Creates chargers through the API (n connectors each, 60 kW CCS2 unless told), as an operator would. */
export async function createChargers(
  t: TestApp,
  token: string,
  place: Awaited<ReturnType<typeof chargerPlace>>,
  ids: string[],
  {
    connectors = 2,
    ocppPassword,
    judjodId = null,
    ocppProtocol,
    maxPowerKw = 60,
    connectorTypeId = 4,
  }: {
    connectors?: number;
    ocppPassword?: string;
    judjodId?: number | null;
    ocppProtocol?: 'auto' | '1.6' | '2.0.1';
    maxPowerKw?: number;
    connectorTypeId?: number;
  } = {},
): Promise<Array<{ id: string; connectorIds: number[] }>> {
  const created = [];
  for (const id of ids) {
    const connectorIds = Array.from({ length: connectors }, () => nextConnectorId++);
    const response = await t.call('POST', '/api/charger', {
      token,
      body: {
        id,
        nameEn: `Charger ${id}`,
        nameTh: `เครื่อง ${id}`,
        landlordId: place.site.id,
        chargerBrandId: place.brand.id,
        ocppPassword,
        ocppProtocol,
        connectors: connectorIds.map((connectorId) => ({
          id: connectorId,
          token: `token-${connectorId}`,
          nameEn: `Connector ${connectorId}`,
          nameTh: `หัวชาร์จ ${connectorId}`,
          connectorTypeId,
          judjodId,
          maxPowerKw,
          priceId: place.price.id,
        })),
      },
    });
    if (response.status !== 200) throw new Error(`create ${id}: ${JSON.stringify(response.body)}`);
    created.push({ id, connectorIds });
  }
  return created;
}

/** Simulated OCPP 1.6 chargers of the test server (`simulate201` for 2.0.1 ones). */
export function simulate(
  t: TestApp,
  specs: SimulatedChargerSpec[],
  options: Partial<Omit<SimulatorOptions, 'protocol'>> = {},
) {
  return simulateChargers(specs, { url: ocppUrl(t), rebootMs: 100, ...options });
}

/** Simulated OCPP 2.0.1 chargers of the test server, every frame checked against the 2.0.1 schemas. */
export function simulate201(
  t: TestApp,
  specs: SimulatedChargerSpec[],
  options: Partial<Omit<SimulatorOptions, 'protocol'>> = {},
) {
  return simulateChargers(specs, { url: ocppUrl(t), rebootMs: 100, ...options, protocol: '2.0.1' });
}

/** Polls `probe` until it returns a truthy value (or throws the last failure after `timeoutMs`). */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false | null>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface StreamEvent {
  event: string;
  data: unknown;
}

/** Reads a server-sent event stream to its end (or until `until` says stop, then closes it as a browser would). */
export async function readEvents(
  response: Response,
  until?: (events: StreamEvent[]) => boolean,
): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  let stopped = false;
  for await (const { event, data } of parseSse(response.body!)) {
    events.push({ event, data: JSON.parse(data) });
    stopped = until?.(events) ?? false;
    if (stopped) break;
  }
  // Leaving the loop released the body: close the connection, as a browser tab going away does.
  if (stopped) await response.body!.cancel();
  return events;
}
