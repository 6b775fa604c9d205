import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import {
  alertDeliveries,
  alertIncidents,
  chargerConnections,
  chargers,
  connectors,
  landlords,
} from '../../src/db/schema/index.ts';
import { eventually } from './ocpp.ts';

let nextConnectorId = 880_000;

/**
 * Chargers with `count` connectors each at a site, written to the database as the charger form would (the
 * alerts' tests are about what chargers report, not the form).
 */
export async function insertChargers(
  db: Db,
  place: { site: { id: number }; brand: { id: number }; price: { id: number } },
  ids: string[],
  count = 2,
): Promise<void> {
  const [site] = await db
    .select({ merchantId: landlords.merchantId })
    .from(landlords)
    .where(eq(landlords.id, place.site.id));
  for (const id of ids) {
    await db.insert(chargers).values({
      id,
      nameEn: `Charger ${id}`,
      nameTh: `เครื่อง ${id}`,
      merchantId: site!.merchantId,
      landlordId: place.site.id,
      chargerBrandId: place.brand.id,
    });
    await db.insert(connectors).values(
      Array.from({ length: count }, (_, i) => {
        const connectorId = nextConnectorId++;
        return {
          id: connectorId,
          chargerId: id,
          ocppConnectorId: i + 1,
          token: `token-${connectorId}`,
          nameEn: `Connector ${connectorId}`,
          nameTh: `หัวชาร์จ ${connectorId}`,
          connectorTypeId: 4,
          maxPowerKw: '60.00',
          priceId: place.price.id,
        };
      }),
    );
  }
}

/** Waits for the database to say the charger is connected, or gone (its connection's end recorded). */
export async function waitOnline(db: Db, id: string, online: boolean): Promise<void> {
  await eventually(async () => {
    const [row] = await db.select({ node: chargers.connectedNode }).from(chargers).where(eq(chargers.id, id));
    if (online) return row?.node != null;
    if (row?.node != null) return false;
    const connections = await db
      .select({ end: chargerConnections.disconnectedAt })
      .from(chargerConnections)
      .where(and(eq(chargerConnections.chargerId, id), isNull(chargerConnections.refusedStatus)));
    return connections.length > 0 && connections.every((connection) => connection.end !== null);
  });
}

/** Waits for a connector's stored status (the charger's reports are written a moment later). */
export async function waitStatus(db: Db, chargerId: string, number: number, status: string): Promise<void> {
  await eventually(async () => {
    const [row] = await db
      .select({ status: connectors.status })
      .from(connectors)
      .where(and(eq(connectors.chargerId, chargerId), eq(connectors.ocppConnectorId, number)));
    return row?.status === status;
  });
}

export const incidentsOf = (db: Db, condition: string, subjectId: string) =>
  db
    .select()
    .from(alertIncidents)
    .where(and(eq(alertIncidents.condition, condition), eq(alertIncidents.subjectId, subjectId)))
    .orderBy(asc(alertIncidents.id));

export const deliveriesOf = (db: Db, incidentId: number) =>
  db
    .select()
    .from(alertDeliveries)
    .where(eq(alertDeliveries.incidentId, incidentId))
    .orderBy(asc(alertDeliveries.id));

export interface Received {
  headers: http.IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
}

/**
 * A webhook receiver: records every POST and answers with the next status of `answers` (the last one once
 * they run out; 200 when none).
 */
export async function webhookReceiver(answers: number[] = []) {
  const received: Received[] = [];
  const script = [...answers];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = script.length > 1 ? script.shift()! : (script[0] ?? 200);
      response.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook?source=ev`,
    received,
    /** The statuses answered from now on. */
    answer(statuses: number[]) {
      script.splice(0, script.length, ...statuses);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
