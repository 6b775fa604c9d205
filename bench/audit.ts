/**
 * `npm run bench:audit`: the cost of auditing a staff write (issue 36: within 1.2x of the write's p99).
 *
 * The real app in this process (PGlite, or a scratch database on DATABASE_URL's server). The write: the Price
 * Setting form saved over HTTP (PATCH /api/price/:id: the plan and its override rows replaced in one
 * transaction), each save changing the rate. Audited, the same transaction also writes the entry and the
 * triggers write the changed rows (prices, the override rows deleted and inserted). Baseline: the same write
 * with the entry turned off (`auditBenchBaseline`), in the same process. Rounds alternate baseline and
 * audited so that the machine's drift falls on both. Printed: p50/p95/p99 of each and the ratios, at 1 and
 * at 8 concurrent clients.
 */
import { auditBenchBaseline } from '@ev/server/modules/audit/audit';
import { sql } from 'drizzle-orm';
import { percentile, signIn } from './common.ts';
import { BENCH_ADMIN, startInProcessServer } from './in-process-server.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const PER_ROUND = Number(process.env.PER_ROUND ?? 100);

const plan = (rate: number) => ({
  descEn: 'Bench plan',
  descTh: 'แผน',
  method: 'KW',
  calculateMethod: 'BAHT_HRS',
  bahtPerKwh: rate,
  bahtPerHour: 0,
  penaltyBahtPerMin: 5,
  penaltyDCFullBahtPerMin: 10,
  penaltyDCFullDelayMin: 15,
  overrideWeekdays: [
    { dayOfWeek: 1, validTimeFrom: '22:00', validTimeTo: '23:59', bahtPerKwh: 4.5, bahtPerHour: 0 },
    { dayOfWeek: 2, validTimeFrom: '00:00', validTimeTo: '06:00', bahtPerKwh: 4.5, bahtPerHour: 0 },
  ],
  overrides: [
    { validFrom: '2027-04-13 00:00', validTo: '2027-04-15 23:59', bahtPerKwh: 3.99, bahtPerHour: 0 },
  ],
});

async function main() {
  const server = await startInProcessServer({ webDist: '', databaseUrl: process.env.DATABASE_URL });
  const token = await signIn(server.base, BENCH_ADMIN);
  const headers = { 'content-type': 'application/json', 'x-access-token': token };
  const ids: number[] = [];
  for (let i = 0; i < 8; i++) {
    const response = await fetch(`${server.base}/api/price`, {
      method: 'POST',
      headers,
      body: JSON.stringify(plan(7)),
    });
    ids.push(((await response.json()) as { id: number }).id);
  }
  let rate = 100;
  const save = async (id: number) => {
    rate = rate >= 900 ? 100 : rate + 0.01;
    const started = performance.now();
    const response = await fetch(`${server.base}/api/price/${id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify(plan(Math.round(rate * 100) / 100)),
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`save: ${response.status}`);
    return performance.now() - started;
  };
  const run = async (clients: number, count: number) => {
    const times: number[] = [];
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let i = client; i < count; i += clients) times.push(await save(ids[client]!));
      }),
    );
    return times;
  };
  const entries = async () =>
    Number(
      (
        (await server.db.execute(
          sql`select count(*)::int as n from audit_log where action = 'update'`,
        )) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]!.n,
    );
  console.log(
    `bench:audit on ${server.kind}: ${ROUNDS} rounds × ${PER_ROUND} saves per mode and concurrency`,
  );
  for (const clients of [1, 8]) {
    await run(clients, PER_ROUND); // warm-up
    const baseline: number[] = [];
    const audited: number[] = [];
    const before = await entries();
    for (let round = 0; round < ROUNDS; round++) {
      auditBenchBaseline.on = true;
      baseline.push(...(await run(clients, PER_ROUND)));
      auditBenchBaseline.on = false;
      audited.push(...(await run(clients, PER_ROUND)));
    }
    const written = (await entries()) - before;
    if (written !== ROUNDS * PER_ROUND)
      throw new Error(`expected ${ROUNDS * PER_ROUND} entries, found ${written}`);
    const row = (name: string, times: number[]) =>
      `${name.padEnd(9)} p50 ${percentile(times, 50).toFixed(2)} ms  p95 ${percentile(times, 95).toFixed(2)} ms  p99 ${percentile(times, 99).toFixed(2)} ms`;
    console.log(`\n${clients} client(s), ${baseline.length} saves each:`);
    console.log(row('baseline', baseline));
    console.log(row('audited', audited));
    console.log(
      `ratio     p50 ${(percentile(audited, 50) / percentile(baseline, 50)).toFixed(2)}x  p95 ${(percentile(audited, 95) / percentile(baseline, 95)).toFixed(2)}x  p99 ${(percentile(audited, 99) / percentile(baseline, 99)).toFixed(2)}x (goal p99 ≤ 1.20x)`,
    );
    console.log(`entries written while audited: ${written} (one per save)`);
  }
  await server.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
