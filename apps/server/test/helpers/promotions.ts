import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { createSession } from '../../src/modules/auth/auth.service.ts';
import { createMember } from './bookings.ts';
import type { TestApp } from './test-app.ts';

const HOUR = 3_600_000;

/** Promotions through the staff API (POST /api/promotion), discount by default, valid for the hour around now. */
export async function createPromotion(t: TestApp, token: string, overrides: Record<string, unknown> = {}) {
  const body: Record<string, unknown> = {
    type: 'discount',
    nameEn: 'Promotion',
    nameTh: 'โปรโมชัน',
    internal: false,
    expose: false,
    validFrom: new Date(Date.now() - HOUR).toISOString(),
    validTo: new Date(Date.now() + HOUR).toISOString(),
    discountPercent: 10,
    discountBaht: 0,
    count: 1,
    ...overrides,
  };
  const response = await t.call('POST', '/api/promotion', { token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return {
    id: response.body.id as number,
    code: body.code as string,
    codes: (response.body.codes ?? [body.code]) as string[],
  };
}

/** The fields of a private station code (landlord type) for the given sites. */
export const privateStation = (landlordIds: number[], merchantIds: number[] = []) => ({
  type: 'landlord',
  internal: true,
  expose: null,
  landlordIds,
  merchantIds,
  discountPercent: null,
  discountBaht: null,
});

/** The fields of a point code. */
export const pointCode = (point: number) => ({
  type: 'point',
  point,
  discountPercent: null,
  discountBaht: null,
});

/** A member with a session of the member API. */
export async function memberWithSession(t: TestApp, name?: string) {
  const user = await createMember(t, name);
  return { user, token: await createSession(t.database.db, user.id, HOUR) };
}

/** Redeems a code over the member API; answers the redemption. */
export async function redeem(t: TestApp, token: string, body: Record<string, unknown>) {
  const response = await t.call('POST', '/api/member/promotion/redeem', { token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.redemption as { id: number; createdAt: string };
}

/**
 * `count` members written straight to the database, each redeeming the same code of `promotionId` in one
 * statement (one transaction: the same createdAt for all, so a keyset must break the ties by id). First
 * names are `{prefix}00001` upwards, in id order.
 */
export async function bulkRedemptions(
  t: TestApp,
  promotionId: number,
  code: string,
  count: number,
  prefix: string,
) {
  await t.database.db.execute(sql`
    with members as (
      insert into users (type, email, first_name, last_name, tel)
      select 'mobile', lower(${prefix}) || g || '@bulk.example.com', ${prefix} || lpad(g::text, 5, '0'), 'Bulk', null
      from generate_series(1, ${count}::int) g
      order by g
      returning id
    )
    insert into promotion_redemptions (user_id, code_id, promotion_id, license_plate)
    select m.id, c.id, ${promotionId}::int, 'BULK' from members m
    join promotion_codes c on lower(c.code) = lower(${code})
    order by m.id`);
}

export interface Sheet {
  status: number;
  message: string;
  fileName: string;
  header: string[];
  rows: Array<Record<string, unknown>>;
}

/** GETs a spreadsheet; answers its file name, header row and rows by header, or the error's status and message. */
export async function readSheet(t: TestApp, path: string, token: string): Promise<Sheet> {
  const response = await fetch(`${t.url}${path}`, { headers: { 'X-ACCESS-TOKEN': token } });
  if (response.status !== 200) {
    const body = (await response.json()) as { message: string };
    return { status: response.status, message: body.message, fileName: '', header: [], rows: [] };
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? '';
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as never);
  const sheet = workbook.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
  const rows: Array<Record<string, unknown>> = [];
  for (let n = 2; n <= sheet.rowCount; n++) {
    const values = (sheet.getRow(n).values as unknown[]).slice(1);
    rows.push(Object.fromEntries(header.map((name, i) => [name, values[i] ?? null])));
  }
  return { status: 200, message: '', fileName, header, rows };
}
