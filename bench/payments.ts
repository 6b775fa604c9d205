/**
 * `npm run bench:payments`: members paying at once through a slow payment provider.
 *
 * The real app in this process (PGlite, or a scratch database on DATABASE_URL's server) with a test provider
 * that takes PROVIDER_MS (500) per charge. Baseline: one member paying alone (one provider call plus our
 * own work). Then MEMBERS (20) members pay their own bookings at the same moment. Printed: each wall time and
 * the ratio to the baseline: ~1x when the provider is called outside any lock, ~MEMBERS x when every
 * payment waits for the one before it.
 */
import { createSession } from '@ev/server/modules/auth/auth.service';
import type { PaymentGateway } from '@ev/server/modules/payment/payment-gateway';
import { sql } from 'drizzle-orm';
import { startInProcessServer } from './in-process-server.ts';

const PROVIDER_MS = Number(process.env.PROVIDER_MS ?? 500);
const MEMBERS = Number(process.env.MEMBERS ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A provider that answers yes after PROVIDER_MS, remembering each charge by its idempotency key. */
class SlowProvider {
  readonly name = 'bench';
  calls = 0;
  private readonly charges = new Map<string, string>();
  async charge(request: { idempotencyKey?: string; bookingId: number }) {
    this.calls++;
    await sleep(PROVIDER_MS);
    const reference = `ch_${request.idempotencyKey ?? request.bookingId}`;
    if (request.idempotencyKey) this.charges.set(request.idempotencyKey, reference);
    return { status: 'succeeded' as const, reference };
  }
  async refund(request: { creditNoteNo?: string; paymentId: number }) {
    await sleep(PROVIDER_MS);
    return { status: 'succeeded' as const, reference: `re_${request.paymentId}` };
  }
  async lookup(key: string) {
    const reference = this.charges.get(key);
    return reference ? { status: 'succeeded' as const, reference } : { status: 'not-found' as const };
  }
}

type Executed = { rows: Array<Record<string, unknown>> };

async function main() {
  const provider = new SlowProvider();
  const server = await startInProcessServer({
    webDist: '',
    databaseUrl: process.env.DATABASE_URL,
    paymentGateway: provider as unknown as PaymentGateway,
  });
  const { db } = server;
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as Executed).rows;
  await db.execute(sql`insert into merchants (name_en, name_th) values ('Bench Cluster', 'คลัสเตอร์')`);
  await db.execute(sql`
    insert into landlords (merchant_id, name_en, name_th, latitude, longitude, business_hours_type)
    values ((select min(id) from merchants), 'Bench Site', 'สถานี', 13.7, 100.5, '24H')`);
  await db.execute(
    sql`insert into charger_brands (name, power_type, min_power_kw) values ('Bench DC', 'DC', 50)`,
  );
  await db.execute(sql`
    insert into prices (desc_en, desc_th, method, calculate_method, baht_per_kwh)
    values ('Bench', 'ราคา', 'KW', 'BAHT_HRS', 7.5)`);
  await db.execute(sql`
    insert into chargers (id, name_en, name_th, merchant_id, landlord_id, charger_brand_id)
    select 'PAY-BENCH', 'Charger', 'เครื่อง', merchant_id, id, (select min(id) from charger_brands)
    from landlords limit 1`);
  await db.execute(sql`
    insert into connectors (id, charger_id, token, name_en, name_th, connector_type_id, max_power_kw, ocpp_connector_id,
      price_id)
    values (990001, 'PAY-BENCH', 'token-990001', 'Connector', 'หัว', 4, 60, 1, (select min(id) from prices))`);
  const total = (1 + ROUNDS) * MEMBERS;
  const members = await rows(sql`
    insert into users (type, email, first_name, last_name, tel)
    select 'mobile', 'payer' || n || '@example.com', 'Payer' || n, 'Bench', '08' || lpad(n::text, 8, '0')
    from generate_series(1, ${total}) as n returning id`);
  const bookings = await rows(sql`
    insert into bookings (user_id, charger_id, connector_id, merchant_id, landlord_id, connector_type_id, status,
      start_time, stop_time, avaliable_at, energy_wh, price_by_power, price_by_duration, price_by_penalty,
      total_amount)
    select u.id, 'PAY-BENCH', 990001, c.merchant_id, c.landlord_id, 4, 'stopped', now() - interval '1 hour',
      now() - interval '10 minutes', now(), 12000, 90, 0, 0, 90
    from (select unnest(${`{${members.map((m) => m.id).join(',')}}`}::int[]) as id) u
    cross join (select merchant_id, landlord_id from chargers where id = 'PAY-BENCH') c
    returning id, user_id`);
  const payers = await Promise.all(
    bookings.map(async (row) => ({
      bookingId: Number(row.id),
      token: await createSession(db, Number(row.user_id), 3_600_000),
    })),
  );

  const pay = async ({ bookingId, token }: (typeof payers)[number]) => {
    const response = await fetch(`${server.base}/api/member/booking/${bookingId}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': token },
      body: JSON.stringify({ method: 'credit' }),
    });
    if (response.status !== 200)
      throw new Error(`pay ${bookingId}: ${response.status} ${await response.text()}`);
  };

  let next = 0;
  // Warm-up and baseline: one member alone, MEMBERS times (the median is the baseline).
  const alone: number[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const started = performance.now();
    await pay(payers[next++]!);
    alone.push(performance.now() - started);
  }
  alone.sort((a, b) => a - b);
  const baseline = alone[Math.floor(alone.length / 2)]!;
  const together: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const batch = payers.slice(next, next + MEMBERS);
    next += MEMBERS;
    const started = performance.now();
    await Promise.all(batch.map(pay));
    together.push(performance.now() - started);
  }
  const [invoices] = await rows(sql`select count(*)::int as n, count(distinct invoice_no)::int as distinct_n,
    max(substring(invoice_no from '[0-9]+$')::int) as last from payments`);

  console.log(
    `\nbench:payments on ${server.kind}: provider ${PROVIDER_MS} ms per charge, ${MEMBERS} members`,
  );
  console.log(`  one member alone (median of ${MEMBERS}): ${baseline.toFixed(0)} ms`);
  for (const [index, ms] of together.entries()) {
    console.log(
      `  ${MEMBERS} at once, round ${index + 1}: ${ms.toFixed(0)} ms = ${(ms / baseline).toFixed(2)}x one alone`,
    );
  }
  console.log(
    `  provider calls ${provider.calls}; payments ${invoices?.n}, distinct invoices ${invoices?.distinct_n}, ` +
      `last invoice number ${invoices?.last}`,
  );
  await server.close();
}

await main();
