/**
 * `npm run bench:promotions`: the three figures issue 21 asks for, on the real app in this process (PGlite, or
 * a scratch database on DATABASE_URL's server), each against a baseline run here too:
 *
 * 1. a 1000-code promotion from request to CSV (POST, then GET its codes) against a one-code promotion;
 * 2. redemptions per second: MEMBERS (100) members redeeming at the same moment, on a code of unlimited uses
 *    and on a code of 10 uses, against one member redeeming alone;
 * 3. the Coupon&point report's rows per second at REPORT_ROWS (100,000) redemptions, against the same report
 *    narrowed to a tenth of them (the rate should hold as the rows grow: it streams).
 */
import { createSession } from '@ev/server/modules/auth/auth.service';
import { sql } from 'drizzle-orm';
import { startInProcessServer } from './in-process-server.ts';

const MEMBERS = Number(process.env.MEMBERS ?? 100);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const REPORT_ROWS = Number(process.env.REPORT_ROWS ?? 100_000);
const HOUR = 3_600_000;

type Executed = { rows: Array<Record<string, unknown>> };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const server = await startInProcessServer({ webDist: '', databaseUrl: process.env.DATABASE_URL });
  const { db } = server;
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as Executed).rows;
  const [admin] = await rows(sql`select id from users where type = 'admin' limit 1`);
  const adminToken = await createSession(db, Number(admin!.id), 4 * HOUR);
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(`${server.base}${path}`, {
      method,
      headers: { 'x-access-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, text };
  };
  let n = 0;
  const promotion = (count: number, overrides: Record<string, unknown> = {}) => ({
    type: 'point',
    code: `BENCH${(n++).toString(36).toUpperCase()}X`,
    nameEn: 'Bench',
    nameTh: 'ทดสอบ',
    internal: false,
    expose: false,
    validFrom: new Date(Date.now() - HOUR).toISOString(),
    validTo: new Date(Date.now() + HOUR).toISOString(),
    point: 10,
    count,
    ...overrides,
  });
  const create = async (body: ReturnType<typeof promotion>) => {
    const response = await call('POST', '/api/promotion', adminToken, body);
    if (response.status !== 200) throw new Error(`create: ${response.status} ${response.text}`);
    return JSON.parse(response.text) as { id: number; codes?: string[] };
  };

  // 1. Request to CSV.
  const toCsv = async (count: number) => {
    const started = performance.now();
    const { id } = await create(promotion(count));
    const csv = await call('GET', `/api/promotion/${id}/code`, adminToken);
    const ms = performance.now() - started;
    const lines = csv.text.trimEnd().split('\r\n').length - 1;
    if (csv.status !== 200 || lines !== count) throw new Error(`csv: ${csv.status}, ${lines} codes`);
    return ms;
  };
  await toCsv(1);
  await toCsv(1000);
  const one: number[] = [];
  const thousand: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    one.push(await toCsv(1));
    thousand.push(await toCsv(1000));
  }

  // 2. Redemptions per second.
  const memberRows = await rows(sql`
    insert into users (type, email, first_name, last_name)
    select 'mobile', 'redeemer' || g || '@example.com', 'Redeemer' || g, 'Bench'
    from generate_series(1, ${MEMBERS * 4 + ROUNDS * 4}) as g returning id`);
  const tokens = await Promise.all(memberRows.map((row) => createSession(db, Number(row.id), 4 * HOUR)));
  let nextMember = 0;
  const redeem = async (code: string) => {
    const response = await call('POST', '/api/member/promotion/redeem', tokens[nextMember++]!, { code });
    return response.status;
  };
  const alone: number[] = [];
  for (let round = 0; round < ROUNDS * 4; round++) {
    const body = promotion(1);
    await create(body);
    const started = performance.now();
    const status = await redeem(body.code);
    alone.push(performance.now() - started);
    if (status !== 200) throw new Error(`redeem alone: ${status}`);
  }
  const atOnce = async (total: number | undefined) => {
    const body = promotion(1, total ? { total } : {});
    await create(body);
    const started = performance.now();
    const statuses = await Promise.all(Array.from({ length: MEMBERS }, () => redeem(body.code)));
    const ms = performance.now() - started;
    return {
      ms,
      ok: statuses.filter((status) => status === 200).length,
      refused: statuses.filter((s) => s === 409).length,
    };
  };
  const unlimited = await atOnce(undefined);
  const tenUses = await atOnce(10);

  // 3. The coupon report at REPORT_ROWS redemptions: members × codes of one promotion, a tenth dated apart.
  const codes = 100;
  const reportMembers = Math.ceil(REPORT_ROWS / codes);
  const { id: reportPromotion } = await create(promotion(codes, { code: 'REPORTBENCH' }));
  await db.execute(sql`
    insert into users (type, email, first_name, last_name, tel)
    select 'mobile', 'reported' || g || '@example.com', 'Reported' || g, 'Member', '08' || lpad(g::text, 8, '0')
    from generate_series(1, ${reportMembers}) as g`);
  await db.execute(sql`
    insert into promotion_redemptions (user_id, code_id, promotion_id, point, created_at)
    select u.id, c.id, c.promotion_id, 10,
      case when u.id % 10 = 0 then now() - interval '40 days' else now() - interval '1 day' end
    from (select id from users where email like 'reported%' order by id limit ${reportMembers}) u
    cross join (select id, promotion_id from promotion_codes where promotion_id = ${reportPromotion}) c
    limit ${REPORT_ROWS}`);
  const report = async (query: string) => {
    const started = performance.now();
    const response = await fetch(`${server.base}/api/report/user-promotion?${query}`, {
      headers: { 'x-access-token': adminToken },
    });
    const bytes = (await response.arrayBuffer()).byteLength;
    if (response.status !== 200) throw new Error(`report: ${response.status}`);
    return { ms: performance.now() - started, bytes };
  };
  // Every redemption of the database (the bench's own few hundred besides), as staff run it unfiltered.
  const [counted] = await rows(sql`
    select count(*)::int as all_rows, count(*) filter (where created_at < now() - interval '30 days')::int as tenth
    from promotion_redemptions`);
  const before = new Date(Date.now() - 30 * 24 * HOUR).toISOString();
  await report(`createdBefore=${encodeURIComponent(before)}`);
  const small = await report(`createdBefore=${encodeURIComponent(before)}`);
  const full = await report('');
  const perSecond = (rowsDone: number, ms: number) => Math.round((rowsDone / ms) * 1000);

  console.log(`\nbench:promotions on ${server.kind}`);
  console.log('  1. request to CSV (POST, then GET the codes), median of', ROUNDS);
  console.log(`     one code: ${median(one).toFixed(0)} ms (baseline)`);
  console.log(
    `     1000 codes: ${median(thousand).toFixed(0)} ms = ${(median(thousand) / median(one)).toFixed(2)}x one code`,
  );
  console.log(
    `  2. redemptions: one member alone, median of ${alone.length}: ${median(alone).toFixed(1)} ms (baseline)`,
  );
  console.log(
    `     ${MEMBERS} at once, no limit: ${unlimited.ms.toFixed(0)} ms = ${(unlimited.ms / median(alone)).toFixed(1)}x ` +
      `one alone, ${unlimited.ok} redeemed, ${perSecond(unlimited.ok, unlimited.ms)} redemptions/s`,
  );
  console.log(
    `     ${MEMBERS} at once, 10 uses: ${tenUses.ms.toFixed(0)} ms, ${tenUses.ok} redeemed, ${tenUses.refused} refused, ` +
      `${perSecond(MEMBERS, tenUses.ms)} answers/s`,
  );
  const smallRate = perSecond(Number(counted!.tenth), small.ms);
  const fullRate = perSecond(Number(counted!.all_rows), full.ms);
  console.log(
    `  3. coupon report: ${counted!.tenth} rows in ${small.ms.toFixed(0)} ms = ${smallRate} rows/s (baseline); ` +
      `${counted!.all_rows} rows in ${full.ms.toFixed(0)} ms = ${fullRate} rows/s = ` +
      `${(fullRate / smallRate).toFixed(2)}x the baseline's rate, ${(full.bytes / 1e6).toFixed(1)} MB`,
  );
  await server.close();
}

await main();
