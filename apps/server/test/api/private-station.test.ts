import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/modules/auth/auth.service.ts';
import { memberTag } from '../../src/modules/member/member.service.ts';
import { PRIVATE_STATION } from '../../src/modules/promotion/private-station.ts';
import { createMember } from '../helpers/bookings.ts';
import {
  createChargerBrand,
  createLandlord,
  createMerchant,
  createPrice,
  signedInUser,
} from '../helpers/factories.ts';
import { chargerPlace, createChargers, eventually, rpcClient } from '../helpers/ocpp.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Private stations (issue 21): a site of an Internal Used cluster serves only its members, the members of its
 * private station codes. The member API refuses anyone else's booking there; the charger is told Invalid for
 * anyone else's tag at Authorize and StartTransaction (and asked to stop such a transaction).
 */
let t: TestApp;
let admin: string;
let privateConnector: number;
let publicConnector: number;
let privateSite: { id: number };
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await startTestApp({ OCPP_COMMAND_TIMEOUT_MS: '2000' });
  admin = (await signedInUser(t, { role: 'admin' })).token;
  const condo = await createMerchant(t, { nameEn: 'Condo (private)', internal: true });
  privateSite = await createLandlord(t, condo.id, { nameEn: 'Condo Tower A' });
  const place = {
    merchant: condo,
    site: privateSite,
    brand: await createChargerBrand(t, { powerType: 'DC' }),
    price: await createPrice(t),
  } as Awaited<ReturnType<typeof chargerPlace>>;
  privateConnector = (await createChargers(t, admin, place, ['PRIVATE-01']))[0]!.connectorIds[0]!;
  publicConnector = (await createChargers(t, admin, await chargerPlace(t), ['PUBLIC-01']))[0]!
    .connectorIds[0]!;
});
afterAll(() => t.close());

let n = 0;
/** A private station code for the condo's site; answers the promotion's id and code. */
async function condoCode() {
  const code = `CONDO${Date.now().toString(36).toUpperCase()}${n++}`;
  const response = await t.call('POST', '/api/promotion', {
    token: admin,
    body: {
      type: 'landlord',
      code,
      nameEn: 'Condo residents',
      nameTh: 'ผู้พักอาศัย',
      internal: true,
      landlordIds: [privateSite.id],
      validFrom: new Date(Date.now() - HOUR).toISOString(),
      validTo: new Date(Date.now() + HOUR).toISOString(),
      count: 1,
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { id: response.body.id as number, code };
}

async function member() {
  const user = await createMember(t);
  return {
    user,
    token: await createSession(t.database.db, user.id, HOUR),
    idTag: await memberTag(t.database.db, user.id),
  };
}

const reserve = (token: string, connectorId: number) =>
  t.call('POST', '/api/member/booking', {
    token,
    body: {
      connectorId,
      slotStart: new Date().toISOString(),
      slotEnd: new Date(Date.now() + HOUR).toISOString(),
    },
  });

describe('a private station', () => {
  it("takes bookings of its site's members only, for as long as their code's promotion is on", async () => {
    const outsider = await member();
    const refused = await reserve(outsider.token, privateConnector);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: PRIVATE_STATION });
    // A public station takes them.
    expect((await reserve(outsider.token, publicConnector)).status).toBe(200);

    const resident = await member();
    const { id, code } = await condoCode();
    const joined = await t.call('POST', '/api/member/promotion/redeem', {
      token: resident.token,
      body: { code, licensePlate: '1กก 2345' },
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    const booked = await reserve(resident.token, privateConnector);
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    await t.call('POST', `/api/member/booking/${booked.body.booking.id}/cancel`, { token: resident.token });

    // Staff switch the promotion off: its members are members no more.
    expect(
      (await t.call('PATCH', `/api/promotion/${id}`, { token: admin, body: { active: false } })).status,
    ).toBe(200);
    expect((await reserve(resident.token, privateConnector)).status).toBe(403);
  });

  it("answers Invalid at the charger for anyone but its site's members", async () => {
    const resident = await member();
    const { code } = await condoCode();
    expect(
      (
        await t.call('POST', '/api/member/promotion/redeem', {
          token: resident.token,
          body: { code, licensePlate: 'กข 99' },
        })
      ).status,
    ).toBe(200);
    const outsider = await member();
    const client = rpcClient(t, 'PRIVATE-01');
    const stops: unknown[] = [];
    client.handle('RemoteStopTransaction', async ({ params }: { params?: unknown }) => {
      stops.push(params);
      return { status: 'Accepted' };
    });
    await client.connect();
    await client.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'Private' });
    const authorize = async (idTag: string) =>
      ((await client.call('Authorize', { idTag })) as { idTagInfo: { status: string } }).idTagInfo.status;
    expect(await authorize('RFID-NOBODY')).toBe('Invalid');
    expect(await authorize(outsider.idTag)).toBe('Invalid');
    expect(await authorize(resident.idTag)).toBe('Accepted');

    const start = (idTag: string, connectorId: number) =>
      client.call('StartTransaction', {
        connectorId,
        idTag,
        meterStart: 0,
        timestamp: new Date().toISOString(),
      }) as Promise<{ transactionId: number; idTagInfo: { status: string } }>;
    const refused = await start(outsider.idTag, 2);
    expect(refused.idTagInfo.status).toBe('Invalid');
    // The charger is asked to end the refused transaction.
    await eventually(async () => stops.length > 0);
    expect(stops).toEqual([{ transactionId: refused.transactionId }]);
    expect((await start(resident.idTag, 1)).idTagInfo.status).toBe('Accepted');
    await client.close({ code: 1000, force: true });

    // A public station takes any member's tag (the outsider's), and refuses an unknown card as everywhere.
    const open = rpcClient(t, 'PUBLIC-01');
    await open.connect();
    await open.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'Public' });
    expect(await open.call('Authorize', { idTag: outsider.idTag })).toEqual({
      idTagInfo: { status: 'Accepted' },
    });
    expect(await open.call('Authorize', { idTag: 'RFID-NOBODY' })).toEqual({
      idTagInfo: { status: 'Invalid' },
    });
    await open.close({ code: 1000, force: true });
  });
});
